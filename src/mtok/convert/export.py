"""A spec as the .mtok bytes every importer exports: the writer's bytes
plus the acceleration sections, which the native core computes by loading
them once. The writer (mtok.format) never calls up into the core; this
conversion step hands it the core's function."""

from ..format.writer import write_mtok


def export_mtok(spec: dict, *, accel: bool = True, reuse_model: bool = False) -> bytes:
    """Serializes a spec (FormatError for anything mtok cannot run exactly).
    With `accel`, the file also carries the lookup tables the native core
    would otherwise build at every load. `reuse_model` is write_mtok's."""
    if not accel:
        return write_mtok(spec, reuse_model=reuse_model)
    from .. import _native

    return write_mtok(spec, accel_sections=_native.accel_sections, reuse_model=reuse_model)
