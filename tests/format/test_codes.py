"""The Python writer and the C++ reader share the format's constants."""

from hooks_module import hooks
from mtok.format import codes


def test_codes_agree():
    native = hooks().format_codes()
    python = {
        "magic": codes.MAGIC,
        "pipeline": codes.PIPELINE_TYPE,
        "ext_magic": codes.EXT_MAGIC,
        "end_magic": codes.END_MAGIC,
        "max_nesting": codes.MAX_NESTING,
    }
    for group, cls in [("norm", codes.Norm), ("pre", codes.Pre), ("model", codes.Model),
                       ("dec", codes.Dec), ("post", codes.Post), ("behavior", codes.Behavior), ("pattern", codes.Pattern),
                       ("tag", codes.Tag)]:
        for key, value in vars(cls).items():
            if key.isupper() and isinstance(value, int):
                python[f"{group}.{key}"] = value
    missing = sorted(set(native) ^ set(python))
    assert not missing, f"constants present on one side only: {missing}"
    diff = {k: (python[k], native[k]) for k in native if python[k] != native[k]}
    assert not diff, f"python vs native: {diff}"
