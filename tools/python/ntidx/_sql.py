"""SQL from Python in one call (ntidx.sql(), Trace.sql()): a statement over the tables of `ntidx sql` (events,
types, threads, regions, stacks and the analyses' tables), run in an in-memory SQLite database inside the
module (tools/sqlite linked in: no enable_load_extension() needed), its rows as a pandas DataFrame.

Column types follow the values SQLite returns: integers only -> int64 (nullable Int64 when a NULL is among
them), numbers with a real among them -> float64, texts and blobs -> object (str, bytes), nothing but NULLs ->
object.
"""

import os

import numpy as np
import pandas as pd

from . import _ntidx


def _column(values):
    kinds = set(map(type, values))
    kinds.discard(type(None))
    has_null = len(values) and any(v is None for v in values)
    if kinds == {int}:
        try:
            if not has_null:
                return np.array(values, dtype=np.int64)
            return pd.array(values, dtype="Int64")
        except OverflowError:  # cannot be: SQLite's integers are 64-bit; kept as objects if ever
            return np.array(values, dtype=object)
    if kinds and kinds <= {int, float}:
        return np.array([np.nan if v is None else v for v in values], dtype=np.float64)
    return np.array(values, dtype=object)


def frame(result):
    names, _decls, cols = result
    data = {}
    for i, (name, values) in enumerate(zip(names, cols)):
        key = name if name not in data else "%s:%d" % (name, i)  # SQLite allows a name twice; a frame does not
        data[key] = _column(values)
    return pd.DataFrame(data, columns=list(data)) if data else pd.DataFrame()


def paths_of(paths):
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    out = [os.fsdecode(p) for p in paths]
    if not out:
        raise _ntidx.ArgumentError("sql: no trace given")
    return out


def run(paths, statement, index=None, on_error="raise"):
    if not isinstance(statement, str):
        raise TypeError("statement: a str of SQL, not %s" % type(statement).__name__)
    if on_error not in ("raise", "skip"):
        raise _ntidx.ArgumentError('on_error: "raise" or "skip", not %r' % (on_error,))
    paths = paths_of(paths)
    if index is not None and len(paths) > 1:
        raise _ntidx.ArgumentError("index names the index of one trace, and %d traces are given" % len(paths))
    from . import DamagedRegionWarning
    return frame(_ntidx._sql(paths, None if index is None else os.fsdecode(index), statement, on_error == "skip",
                             DamagedRegionWarning))
