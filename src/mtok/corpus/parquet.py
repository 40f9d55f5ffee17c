"""Parquet input through pyarrow (optional: only imported for .parquet)."""

from .errors import CorpusError


def _string_column(path: str, field: str):
    import pyarrow as pa
    import pyarrow.parquet as pq

    pf = pq.ParquetFile(path)
    schema = pf.schema_arrow
    index = schema.get_field_index(field)
    if index < 0:
        raise CorpusError(f"{path}: no column {field!r} (columns: {', '.join(schema.names)})")
    kind = schema.field(index).type
    if not (pa.types.is_string(kind) or pa.types.is_large_string(kind)):
        raise CorpusError(f"{path}: column {field!r} has type {kind}, not string")
    return pf, index


def column_layout(path: str, field: str) -> list:
    """(rows, uncompressed bytes of `field`) of each row group."""
    pf, _ = _string_column(path, field)
    meta = pf.metadata
    out = []
    for g in range(meta.num_row_groups):
        group = meta.row_group(g)
        nbytes = 0
        for c in range(group.num_columns):
            col = group.column(c)
            if col.path_in_schema == field:
                nbytes = col.total_uncompressed_size
        out.append((group.num_rows, nbytes))
    return out


def read_rows(path: str, field: str, start: int, end: int) -> list:
    """Values of `field` for rows [start, end): str, or None for nulls."""
    pf, _ = _string_column(path, field)
    values = []
    first = 0
    for g in range(pf.metadata.num_row_groups):
        rows = pf.metadata.row_group(g).num_rows
        lo, hi = max(start, first), min(end, first + rows)
        if lo < hi:
            table = pf.read_row_group(g, columns=[field])
            values += table.column(0).slice(lo - first, hi - lo).to_pylist()
        first += rows
        if first >= end:
            break
    return values
