"""mtok's benchmark harness: mtok and every installed peer, side by side.

Run ``python -m bench --help`` (or ``mtok bench --help``). Modules are named
after what they hold; the ones a subprocess worker imports (``peers``,
``timing``, ``worstcase``, ``worker``) use only the standard library at
import time, so the worker also runs in the tokenizers-1.0 venv.
"""
