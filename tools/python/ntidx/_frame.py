"""Data frames from the columns the C part fills (Trace._columns()).

Every column is a numpy array over memory the C part filled (numpy.frombuffer: no copy, no Python object
per event). Text columns are pandas Categoricals built from the type table and the string table (one
Python str per distinct text). Payload field columns take a nullable type from the kinds of values they
hold (see column_from_cells); only a column that mixes kinds, or holds arrays or objects, has a Python
object per row.
"""

import json

import numpy as np
import pandas as pd

from . import _ntidx

#: The columns of Trace.frame(), in order (a contract: scripts rely on them); `time` follows them when asked
#: for, then the payload fields and field_error.
COLUMNS = ["ts", "time_s", "provider", "event_id", "event_name", "version", "thread", "capture_thread", "seq",
           "stack_id", "offset", "activity_id", "related_activity_id", "thread_name", "pid", "stack_key"]

_MISSING = _ntidx.VALUE_MISSING
_NULL = _ntidx.VALUE_NULL
_BOOL = _ntidx.VALUE_BOOL
_INT = _ntidx.VALUE_INT
_UINT = _ntidx.VALUE_UINT
_FLOAT = _ntidx.VALUE_FLOAT
_TEXT = {_ntidx.VALUE_STRING, _ntidx.VALUE_GUID, _ntidx.VALUE_TIME, _ntidx.VALUE_DECIMAL}
_JSON = {_ntidx.VALUE_ARRAY, _ntidx.VALUE_OBJECT}


def _code_dtype(n):
    """The code type pandas keeps for n categories (so that it takes the codes without a copy)."""
    return np.int8 if n < 127 else np.int16 if n < 32767 else np.int32


def _type_codes(names):
    """The categories of one string per type (provider, event name): every name of the type table (all the
    trace's types), sorted, so that every frame of a trace has the same; and each type's code among them."""
    categories = sorted(set(names))
    position = {c: i for i, c in enumerate(categories)}
    return categories, np.array([position[n] for n in names], dtype=_code_dtype(len(categories)))


def _type_categoricals(type_ids, *names):
    """Categoricals of one string per type (provider, event name: a list of names per type each), by the rows'
    type ids (the Buffer of uint32 the C part filled): their codes taken in one pass over the rows."""
    (cats_a, per_a), (cats_b, per_b) = (_type_codes(n) for n in names)
    codes_a, codes_b = _ntidx._take2(per_a, per_a.itemsize, per_b, per_b.itemsize, type_ids)
    return (pd.Categorical.from_codes(np.frombuffer(codes_a, dtype=per_a.dtype), categories=cats_a),
            pd.Categorical.from_codes(np.frombuffer(codes_b, dtype=per_b.dtype), categories=cats_b))


_CODE_TYPES = {1: np.int8, 2: np.int16, 4: np.int32}


def _coded(codes, categories):
    """A Categorical of codes into a list of distinct texts (-1: null): the C part gives them in the type
    _code_dtype() names for that many texts."""
    codes = np.frombuffer(codes, dtype=_CODE_TYPES[memoryview(codes).itemsize])
    return pd.Categorical.from_codes(codes, categories=list(categories))


def _nullable(values):
    """An Int64 column of int64 values where a negative one is null (a process id or a stack key not known)."""
    values = np.frombuffer(values, dtype=np.int64)
    return pd.arrays.IntegerArray(values, values < 0)


def datetimes(ns):
    """Unix nanoseconds (int64, numpy's NaT for none) as a datetime64[ns, UTC] array, without a copy."""
    values = np.asarray(ns, dtype=np.int64).view("M8[ns]")
    try:
        return pd.arrays.DatetimeArray(values, dtype=pd.DatetimeTZDtype(unit="ns", tz="UTC"))
    except (TypeError, ValueError):  # pandas versions that construct it otherwise
        return pd.DatetimeIndex(values).tz_localize("UTC").array


def _text(ids, mask, strings):
    """A Categorical of string-table texts (ids from 1); masked rows are null. Its categories are the texts the
    rows use, in the order of their ids (the C part ranks them: np.unique() and np.searchsorted() sorted)."""
    codes, used = _ntidx._text_codes(ids, mask.view(np.uint8), len(strings))
    codes = np.frombuffer(codes, dtype=_CODE_TYPES[memoryview(codes).itemsize])
    categories = [strings[i - 1] for i in used]
    return pd.Categorical.from_codes(codes, categories=categories)


def _cell_value(kind, cell, strings):
    """One cell as Python, the way Event.fields gives it."""
    if kind == _INT:
        return cell - 2 ** 64 if cell >= 2 ** 63 else cell
    if kind == _UINT:
        return int(cell)
    if kind == _BOOL:
        return bool(cell)
    if kind == _FLOAT:
        return float(np.array([cell], dtype=np.uint64).view(np.float64)[0])
    if kind in _TEXT:
        return strings[int(cell) - 1]
    if kind in _JSON:
        return json.loads(strings[int(cell) - 1])
    return None


def column_from_cells(kinds, cells, strings):
    """A payload field's column from its kinds (uint8, an ntidx value kind or VALUE_MISSING per row) and cells
    (uint64, the 8 bytes of the value). Types by the kinds present (MISSING and NULL rows are nulls):
    only UINT: UInt64; only INT: Int64; INT and UINT: Int64 when every value fits, else object; only BOOL:
    boolean; only FLOAT: Float64; strings, GUIDs, times and decimals: a Categorical of their texts (as the
    JSON writes them); anything else (arrays, objects, mixes): object."""
    n = len(kinds)
    counts = _ntidx._kind_counts(kinds)  # np.bincount() and np.isin() in C: one pass each, no intp copy
    present = {k for k, c in enumerate(counts) if c and k not in (_MISSING, _NULL)}
    if not present:
        return np.full(n, None, dtype=object)
    mask = np.frombuffer(_ntidx._kind_mask(kinds, bytes(sorted(present))), dtype=np.bool_)
    if present == {_UINT}:
        return pd.arrays.IntegerArray(cells, mask)
    if present == {_INT}:
        return pd.arrays.IntegerArray(cells.view(np.int64), mask)
    if present <= {_INT, _UINT} and not np.any((cells >= 2 ** 63) & (kinds == _UINT)):
        return pd.arrays.IntegerArray(cells.view(np.int64), mask)
    if present == {_BOOL}:
        return pd.arrays.BooleanArray(cells != 0, mask)
    if present == {_FLOAT}:
        return pd.arrays.FloatingArray(cells.view(np.float64), mask)
    if present <= _TEXT:
        return _text(cells, mask, strings)
    out = np.full(n, None, dtype=object)
    for i in np.nonzero(~mask)[0].tolist():
        out[i] = _cell_value(int(kinds[i]), int(cells[i]), strings)
    return out


def build(c, with_fields, with_time=False):
    """The DataFrame of Trace.frame() from the dict of a FrameReader's read()."""
    types = c["types"]
    provider, event_name = _type_categoricals(c["type"], [t[0] for t in types], [t[2] for t in types])
    data = {
        "ts": np.frombuffer(c["ts"], dtype=np.int64),
        "time_s": np.frombuffer(c["time_s"], dtype=np.float64),
        "provider": provider,
        "event_id": np.frombuffer(c["event_id"], dtype=np.uint32),
        "event_name": event_name,
        "version": np.frombuffer(c["version"], dtype=np.uint32),
        "thread": np.frombuffer(c["thread"], dtype=np.int64),
        "capture_thread": np.frombuffer(c["capture_thread"], dtype=np.int64),
        "seq": np.frombuffer(c["seq"], dtype=np.uint32),
        "stack_id": np.frombuffer(c["stack_id"], dtype=np.uint32),
        "offset": np.frombuffer(c["offset"], dtype=np.int64),
        "activity_id": _coded(c["activity_id"], c["guids"]),
        "related_activity_id": _coded(c["related_activity_id"], c["guids"]),
        "thread_name": _coded(c["thread_name"], c["thread_names"]),
        "pid": _nullable(c["pid"]),
        "stack_key": _nullable(c["stack_key"]),
    }
    if with_time:
        data["time"] = datetimes(np.frombuffer(c["time"], dtype=np.int64))
    if with_fields:
        strings = c["strings"]
        for name, kinds, cells in c["fields"]:
            key = name if name not in data else name + "_field"  # a field named like a column keeps both
            data[key] = column_from_cells(np.frombuffer(kinds, dtype=np.uint8), np.frombuffer(cells, dtype=np.uint64),
                                          strings)
        errors = np.frombuffer(c["field_error"], dtype=np.uint64)
        data["field_error"] = _text(errors, errors == 0, strings)
    return pd.DataFrame(data, copy=False)
