"""Stand-in ``tiktoken`` package: replaces itself with mtok.tiktoken."""

import mtok_tiktoken_alias  # noqa: F401  (rebinds sys.modules["tiktoken"])
