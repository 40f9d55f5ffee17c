"""Makes ``import tiktoken`` (and its submodules) resolve to mtok.tiktoken.

Used as a pytest plugin (``-p mtok_tiktoken_alias``) to run tiktoken's own
test suite against mtok; the ``tiktoken`` package next to this file does
the same for subprocesses the tests start.
"""

import sys

import mtok.tiktoken
import mtok.tiktoken.core
import mtok.tiktoken.model
import mtok.tiktoken.registry

for _name in ("", ".core", ".model", ".registry"):
    sys.modules["tiktoken" + _name] = sys.modules["mtok.tiktoken" + _name]
