"""Data frames of the analyses (Trace.gc(), Trace.jit(), ... and ntidx.dask's) from the columns the C part fills
(Trace._analyze()), and the library's list of analyses they are generated from (ntidx.analyses()).

Every column is a numpy array over memory the C part filled (numpy.frombuffer: no copy, no Python object per
row): the library's integer columns as int64 or uint64 (as it types them: counts, ticks and thread ids are
unsigned, as in Trace.frame()), doubles as float64 (a missing value is NaN), booleans as bool, texts as
Categoricals (one Python str per distinct text). An integer or boolean column that holds a missing value is
pandas' nullable Int64, UInt64 or boolean instead.
"""

import numpy as np
import pandas as pd

from . import _ntidx

_INT, _UINT, _DOUBLE, _BOOL, _STRING = (_ntidx.COLUMN_INT, _ntidx.COLUMN_UINT, _ntidx.COLUMN_DOUBLE,
                                        _ntidx.COLUMN_BOOL, _ntidx.COLUMN_STRING)
_NUMPY = {_INT: np.int64, _UINT: np.uint64, _DOUBLE: np.float64, _BOOL: np.uint8}
TYPE_NAMES = {_INT: "int", _UINT: "uint", _DOUBLE: "double", _BOOL: "bool", _STRING: "string"}

#: Python names of the analyses whose name reads otherwise in Python (`ntidx alloc` is Trace.allocations()).
PYTHON_NAMES = {"alloc": "allocations"}

#: The analyses issue 30's contract names, by Python name: those the library does not have yet are methods that
#: raise NotImplementedError, never fake data.
CONTRACT = {"gc": "gc", "jit": "jit", "cpu": "cpu", "exceptions": "exceptions", "allocations": "alloc",
            "contention": "contention", "activities": "activities"}


def library_analyses():
    """The library's analyses: [{"name", "summary", "method", "tables": {table: [{"name", "type",
    "description"}]}}], in the library's order (ntidx_analysis_info_at())."""
    out = []
    for name, summary, tables in _ntidx._analyses():
        out.append({"name": name, "summary": summary, "method": PYTHON_NAMES.get(name, name),
                    "tables": {t: [{"name": c, "type": TYPE_NAMES.get(ty, str(ty)), "description": d}
                                   for c, ty, d in cols] for t, cols in tables}})
    return out


def _categorical(data, texts):
    codes = np.frombuffer(data, dtype=np.int32)
    if len(set(texts)) != len(texts):
        # two byte strings that read as one text (invalid UTF-8, replaced): one category
        unique = list(dict.fromkeys(texts))
        position = {t: i for i, t in enumerate(unique)}
        remap = np.array([position[t] for t in texts], dtype=np.int32)
        codes = np.where(codes >= 0, remap[np.maximum(codes, 0)], -1).astype(np.int32)
        texts = unique
    return pd.Categorical.from_codes(codes, categories=texts)


def column(ctype, data, mask, texts):
    """One column from the C part's (type, values, null mask or None, texts of a string column)."""
    if ctype == _STRING:
        return _categorical(data, texts)
    values = np.frombuffer(data, dtype=_NUMPY[ctype])
    if ctype == _BOOL:
        values = values != 0
    if mask is None or ctype == _DOUBLE:
        return values
    nulls = np.frombuffer(mask, dtype=np.uint8) != 0
    if ctype == _BOOL:
        return pd.arrays.BooleanArray(values, nulls)
    return pd.arrays.IntegerArray(values, nulls)


def empty_column(ctype):
    """No rows of a column of that type, typed as a column without nulls is."""
    if ctype == _STRING:
        return pd.Categorical([])
    return np.zeros(0, dtype=bool if ctype == _BOOL else _NUMPY[ctype])


def frames(result, path):
    """{table: DataFrame} of Trace._analyze()'s result; each frame's attrs: analysis, table, trace, stats."""
    out = {}
    for t in result["tables"]:
        df = pd.DataFrame({name: column(ctype, data, mask, texts) for name, ctype, data, mask, texts in t["columns"]},
                          copy=False)
        df.attrs = {"analysis": result["analysis"], "table": t["name"], "trace": path,
                    "stats": dict(result["stats"])}
        out[t["name"]] = df
    return out


def pick_table(info, table, summary):
    """The name of the table a call asks for: `table` by name, the analysis's NAME_summary with summary=True,
    else its first (its records)."""
    names = list(info["tables"])
    if table is not None and summary:
        raise _ntidx.ArgumentError("table=%r and summary=True: one or the other" % (table,))
    if summary:
        table = info["name"] + "_summary"
        if table not in names:
            raise _ntidx.ArgumentError("the %s analysis has no summary table (its tables: %s)"
                                       % (info["name"], ", ".join(names)))
    if table is None:
        return names[0]
    if table not in names:
        raise _ntidx.ArgumentError("the %s analysis has no table %r (its tables: %s)"
                                   % (info["name"], table, ", ".join(names)))
    return table


def empty_frame(info, table):
    """A frame of no rows with the table's columns and types (from the library's list, before any run)."""
    return pd.DataFrame({c["name"]: empty_column({v: k for k, v in TYPE_NAMES.items()}[c["type"]])
                         for c in info["tables"][table]})
