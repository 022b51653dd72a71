"""ntidx: fast indexed reading of .nettrace traces, from Python.

    import ntidx
    with ntidx.open("app.nettrace") as t:
        print(t.info()["format_version"], t.stats()["events"])
        for e in t.query(start="1s", end="2s", event="GC/AllocationTick"):
            print(e.ts, e.fields["TypeName"])
        df = t.frame(event="GC/AllocationTick", fields=["TypeName", "AllocationAmount64"])

The work is done by the C library (libntidx) with the GIL released; see
docs/python.md for the whole API, ntidx.dask for many traces on many workers.

Names here are a contract for scripts: they are added to, never renamed.
"""

import collections
import datetime as _dt
import logging
import warnings

from . import _analysis, _ntidx
from ._ntidx import (  # noqa: F401  (the exceptions and types are the package's)
    ArgumentError,
    CancelledError,
    CorruptError,
    Error,
    Event,
    FileError,
    IndexCorruptError,
    IndexFileError,
    IndexStaleError,
    IndexVersionError,
    IndexWarning,
    NotATraceError,
    PayloadError,
    Query,
    TimeError,
    TruncatedError,
    UnknownNameError,
    UnknownNameWarning,
    UnsupportedError,
    VersionError,
    WriteError,
    index_path,
    library_version,
)

__all__ = [
    "open", "analyses", "Trace", "Event", "Query", "Region", "index_path", "library_version", "Error", "FileError",
    "NotATraceError", "VersionError", "TruncatedError", "CorruptError", "ArgumentError", "TimeError",
    "PayloadError", "UnsupportedError", "WriteError", "IndexFileError", "IndexCorruptError", "IndexStaleError",
    "IndexVersionError", "CancelledError", "IndexWarning", "UnknownNameError", "UnknownNameWarning",
    "DamagedRegionWarning", "__version__", "sql",
]

#: A work unit of a trace (Trace.regions()): a sequence-point region, its events' time span, where its blocks
#: start, their bytes, how many blocks and event blocks, and its events (None unless the index is --full).
Region = collections.namedtuple(
    "Region", ["number", "first_ts", "last_ts", "offset", "bytes", "blocks", "event_blocks", "events"])

_log = logging.getLogger("ntidx")


def _notice(action, why, path):
    """What the index maintenance did (called by the C part, never prints): logged on the "ntidx" logger;
    a rebuilt index and one that could not be saved are also warnings (IndexWarning)."""
    if action == _ntidx.INDEX_BUILT:
        _log.info("indexing %s (%s)", path, why)
    elif action == _ntidx.INDEX_EXTENDED:
        _log.info("%s grew: indexing the new blocks", path)
    elif action == _ntidx.INDEX_REBUILT:
        _log.info("rebuilding the index of %s: %s", path, why)
        warnings.warn("rebuilding the index of %s: %s" % (path, why), IndexWarning, stacklevel=2)
    elif action == _ntidx.INDEX_NOT_SAVED:
        _log.info("the index of %s could not be saved: %s", path, why)
        warnings.warn("the index of %s could not be saved (%s); it is used for this Trace only" % (path, why),
                      IndexWarning, stacklevel=2)


_ntidx._set_notice_hook(_notice)

#: The package's version: the library's it is built with (the project's version, as pip shows it).
__version__ = library_version

_EPOCH = _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc)


def _time(t):
    """A time as the C part takes it: ints (ticks) and strs ("1.5s", "250ms", "40us", "100ns", ISO-8601 ending
    in Z, or ticks) as they are; a datetime (UTC; a naive one is taken as UTC) as ISO-8601; a timedelta as a
    time since the trace's sync time."""
    if t is None or isinstance(t, (str, int)) and not isinstance(t, bool):
        return t
    if isinstance(t, _dt.datetime):
        if t.tzinfo is not None:
            t = t.astimezone(_dt.timezone.utc).replace(tzinfo=None)
        ns = getattr(t, "nanosecond", 0)  # pandas.Timestamp keeps nanoseconds
        return "%04d-%02d-%02dT%02d:%02d:%02d.%06d%03dZ" % (t.year, t.month, t.day, t.hour, t.minute, t.second,
                                                           t.microsecond, ns)
    if isinstance(t, _dt.timedelta):
        return "%dns" % ((t.days * 86400 + t.seconds) * 1000000000 + t.microseconds * 1000
                         + getattr(t, "nanoseconds", 0))
    if type(t).__name__ == "datetime64":  # numpy, without importing it
        return str(t.astype("datetime64[ns]")) + "Z"
    if isinstance(t, bool) or not hasattr(t, "__index__"):
        raise TypeError("a time is an int (ticks), a str (\"1.5s\", \"250ms\", ISO-8601 ending in Z), a datetime "
                        "or a timedelta, not %s" % type(t).__name__)
    return int(t)  # numpy integers


class Trace(_ntidx.Trace):
    """A trace and its side index. Use ntidx.open(); a context manager (close() on exit).

    Methods release the GIL while the library works: threads may use one Trace at once (each query
    iterator by one thread at a time). Times are ints (raw ticks), strs ("1.5s", "250ms", "40us",
    "100ns" since the trace's sync time, ISO-8601 UTC ending in Z), datetimes (UTC) or timedeltas
    (since the sync time).
    """

    _types_seed = None  # the type table a pickle carried (frames' categories without listing the types again)

    def __repr__(self):
        return "<ntidx.Trace %r%s>" % (self.path, " (closed)" if self.closed else "")

    def stats(self, start=None, end=None, threads=0, regions=None, on_error="raise"):
        """The statistics of a window: a dict with the keys and values of `ntidx stats --json` (its "file" is the
        path given to open()). `regions`: only these work units (Trace.regions()), as a scheduler splits. Each
        entry of "threads" also has "name" and "pid" where the trace defines its threads (V6 thread blocks: the
        latest definition), as the SQL threads table. on_error="skip" (`ntidx stats --skip-damaged`): a region
        that cannot be read is left out, said with a DamagedRegionWarning and listed under "skipped_regions"."""
        if on_error not in ("raise", "skip"):
            raise ArgumentError('on_error: "raise" or "skip", not %r' % (on_error,))
        if on_error == "raise":
            s = super().stats(_time(start), _time(end), threads, regions)
        else:
            s = self._stats_skipping(start, end, threads, regions)
        if s.get("threads"):
            defs = {tid: (name, pid) for tid, name, pid in self._thread_defs()}
            for t in s["threads"]:
                if t.get("thread") in defs:
                    name, pid = defs[t["thread"]]
                    if name is not None:
                        t["name"] = name
                    if pid is not None:
                        t["pid"] = pid
        return s

    def _stats_skipping(self, start, end, threads, regions):
        """stats() again without the region the last failure met, while the failure is damage inside a region
        still counted (as the command's --skip-damaged)."""
        todo, skipped = None, []
        while True:
            try:
                s = super().stats(_time(start), _time(end), threads, regions if todo is None else todo)
                break
            except (CorruptError, TruncatedError) as e:
                where = [r for r in self.regions() if e.offset is not None and r.offset <= e.offset < r.offset + r.bytes]
                if todo is None:
                    todo = sorted(set(regions)) if regions is not None else [r.number for r in self.regions()]
                if not where or where[0].number not in todo:
                    raise  # damage in what every region needs: the call's error
                r = where[0]
                todo.remove(r.number)
                skipped.append({"region": r.number, "offset": r.offset, "bytes": r.bytes, "at": e.offset,
                                "error": e.name, "message": str(e)})
                warnings.warn("%s: region %d (offset %d, %d bytes) skipped: %s" % (self.path, r.number, r.offset,
                                                                                  r.bytes, e), DamagedRegionWarning,
                              stacklevel=3)
        s["skipped_regions"] = skipped
        return s

    def query(self, start=None, end=None, provider=None, event=None, thread=None, order="time", limit=None,
              regions=None, strict=False):
        """Iterate the Events of [start, end) that pass the filters: provider (its name, without regard to case),
        event (an id, or a name as `ntidx query --event` takes it: "GC/AllocationTick", "Provider/Name"), thread
        (OS thread id); order "time" (default) or "file"; at most `limit` events; only the given work units.
        A provider or event that names nothing the trace defines is an UnknownNameWarning naming the closest
        names when the iteration found nothing; with strict=True an UnknownNameError, before anything is read."""
        return super().query(_time(start), _time(end), provider, event, thread, order, limit, regions, strict)

    def seek(self, t, provider=None, event=None, thread=None, strict=False):
        """The first Event at or after time t that passes the filters, or None (filters and strict as query())."""
        return super().seek(_time(t), provider, event, thread, strict)

    def regions(self, start=None, end=None):
        """The work units that hold events of [start, end): a list of Region. stats(), frame() and query() take
        region numbers to work on a subset; the parts of a partition of the regions add up to the whole."""
        return [Region(*r) for r in self._regions(_time(start), _time(end))]

    def ticks(self, t):
        """A time (any form a method takes) in raw ticks."""
        return super().ticks(_time(t))

    def datetime(self, ts):
        """Ticks as a timezone-aware datetime (UTC; microseconds); None when the trace has no valid sync date."""
        ns = self._unix_ns(ts)
        return None if ns is None else _EPOCH + _dt.timedelta(microseconds=ns // 1000)

    def frame(self, start=None, end=None, provider=None, event=None, thread=None, fields=None, regions=None,
              order="time", strict=False, time=False, on_error="raise"):
        """A pandas DataFrame with one row per event of the query (same window, filters and order): columns
        ts, time_s, provider, event_id, event_name, version, thread, capture_thread, seq, stack_id, offset,
        activity_id, related_activity_id, thread_name, pid, stack_key (and `time`, datetime64[ns, UTC], with
        time=True), filled in C column by column (no Python object per event). provider, event and thread take
        a value or a list of them (any item matches, as SQL's IN). fields=["TypeName", ...] adds payload
        columns by name (missing values are nulls), fields="all" one per field name met, and a field_error
        column. on_error="skip": a region of the trace that cannot be read is left out whole, said with a
        DamagedRegionWarning and listed in df.attrs["skipped_regions"]. See docs/python.md for the column
        types. Filters that name nothing: as query() (strict=True raises UnknownNameError, else an empty frame
        comes with an UnknownNameWarning)."""
        from . import _frame  # pandas is imported only by those who ask for frames
        self._check_fields(fields, strict)
        reader = self._reader(start, end, provider, event, thread, fields, regions, order, strict, time, on_error)
        try:
            df = _frame.build(reader.read(0), fields is not None, time)
        finally:
            reader.close()
        _skips(self, reader, 0, on_error, df)
        return df

    def iter_frames(self, start=None, end=None, provider=None, event=None, thread=None, fields=None, regions=None,
                    order="time", strict=False, time=False, on_error="raise", rows=1000000):
        """The rows of frame() with the same arguments as DataFrames of at most `rows` rows each, in order, read
        as they are asked for: memory holds one of them (and the texts met so far), whatever the window. Every
        part has the columns and types of frame(), the same provider, event_name and thread_name categories,
        and a RangeIndex that follows on from the part before (pd.concat() of the parts equals frame()). With
        on_error="skip" a part ends between two regions only (a damaged region's rows are left out whole), so
        a part holds at least `rows` rows or a whole region."""
        from . import _frame
        if not isinstance(rows, int) or isinstance(rows, bool) or rows < 1:
            raise ValueError("rows: a count of rows, 1 or more, not %r" % (rows,))
        self._check_fields(fields, strict)
        reader = self._reader(start, end, provider, event, thread, fields, regions, order, strict, time, on_error)
        said, at = 0, 0
        try:
            while True:
                c = reader.read(rows)
                said = _skips(self, reader, said, on_error)
                if c is None:
                    break
                df = _frame.build(c, fields is not None, time)
                df.index = _range_index(at, at + len(df))
                at += len(df)
                yield df
        finally:
            reader.close()

    def _check_fields(self, fields, strict):
        """Field names no type of the trace has: an UnknownNameWarning (their column is all nulls), or with
        strict=True an UnknownNameError. Not said when a type's fields are not known (no metadata to tell)."""
        if fields is None or isinstance(fields, str):
            return
        known, complete = set(), True

        def walk(fs):
            for f in fs or ():
                known.add(f.get("name"))
                walk(f.get("fields"))
                walk((f.get("element") or {}).get("fields") if isinstance(f.get("element"), dict) else None)
        for t in self.types():
            if not t.get("has_fields", True):
                complete = False
                break
            walk(t.get("fields"))
        unknown = [f for f in fields if isinstance(f, str) and f not in known]
        if not complete or not unknown:
            return
        message = "%s: no event of the trace has a field %s" % (self.path, ", ".join(repr(f) for f in unknown))
        if strict:
            raise UnknownNameError(message)
        warnings.warn(message, UnknownNameWarning, stacklevel=3)

    def _reader(self, start, end, provider, event, thread, fields, regions, order, strict, time, on_error,
                types=None):
        if on_error not in ("raise", "skip"):
            raise ArgumentError('on_error: "raise" or "skip", not %r' % (on_error,))
        return self._frames(_time(start), _time(end), provider, event, thread, fields, regions, order, strict,
                            on_error, bool(time), types if types is not None else self._types_seed)

    def to_datetime(self, ts):
        """Ticks as UTC datetimes, vectorised: a scalar gives a pandas.Timestamp, a Series a Series (same index and
        name), anything else array-like a DatetimeIndex (datetime64[ns, UTC]). As Trace.datetime() but to the
        nanosecond; NaT where the trace has no valid sync date or the time lies outside the years 1678-2262."""
        import numpy as np
        import pandas as pd
        from . import _frame
        series = isinstance(ts, pd.Series)
        values = np.asarray(ts)
        scalar = values.ndim == 0
        values = values.reshape(-1)
        if values.dtype.kind not in "iu":
            if values.dtype == object and all(isinstance(x, int) and not isinstance(x, bool) for x in values):
                values = np.array([x for x in values], dtype=np.uint64 if any(x >= 2 ** 63 for x in values)
                                  else np.int64)
            else:
                raise TypeError("to_datetime: ticks are integers, not %s" % values.dtype)
        if values.dtype.kind == "i" and len(values) and values.min() < 0:
            raise TimeError("to_datetime: %d is not a tick count" % values.min())
        ticks = np.ascontiguousarray(values.astype(np.uint64, copy=False))
        out = _frame.datetimes(np.frombuffer(self._ticks_to_ns(ticks), dtype=np.int64))
        if scalar:
            return pd.Timestamp(out[0]) if out[0] is not pd.NaT else pd.NaT
        if series:
            return pd.Series(out, index=ts.index, name=ts.name, copy=False)
        return pd.DatetimeIndex(out)

    def sql(self, statement, on_error="raise"):
        """The rows of an SQL statement over this trace's tables, as a DataFrame: the tables of `ntidx sql` (events,
        types, threads, regions, stacks, gc, ... : docs/sql.md), in an in-memory SQLite database inside the
        module, with this trace's index. Several statements (';') run in turn; the last that returns columns
        gives the frame. A statement SQLite refuses raises ArgumentError; a trace that cannot be read, the
        library's exception; a name filter that names nothing, an UnknownNameWarning. on_error="skip" (`ntidx sql
        --skip-damaged`): the events table leaves out a region that cannot be read, said with a
        DamagedRegionWarning (the other tables still raise)."""
        from . import _sql
        return _sql.run([self.path], statement, self.index_path or self._index_arg, on_error)

    def __reduce__(self):
        """A Trace pickles by its path (made absolute) and the index it uses (or was given), so it can be sent to
        Dask workers as it is: they open it again there, the index on first need."""
        import os
        index = self.index_path or self._index_arg
        return (_reopen, (os.path.abspath(self.path), index, self._types_seed))


def _range_index(a, b):
    import pandas as pd
    return pd.RangeIndex(a, b)


def _reopen(path, index, types):
    t = Trace(path, index, False)
    t._types_seed = types
    return t


class DamagedRegionWarning(UserWarning):
    """on_error="skip" left a region of a trace out (it could not be read): its file offset, size and why."""


def _skips(trace, reader, said, on_error, df=None):
    """Say the regions the reader skipped since `said` (DamagedRegionWarning); with a frame, list them all in its
    attrs. How many are said now."""
    skipped = reader.skipped
    for s in skipped[said:]:
        warnings.warn("%s: region %d (offset %d, %d bytes) skipped: %s"
                      % (trace.path, s["region"], s["offset"], s["bytes"], s["message"]), DamagedRegionWarning,
                      stacklevel=3)
    if df is not None and on_error == "skip":
        df.attrs["skipped_regions"] = skipped
    return len(skipped)


# ---------------------------------------------------------------------------------------------------------
# Analyses: Trace.gc(), Trace.jit(), ... generated from the library's list (ntidx.analyses())
# ---------------------------------------------------------------------------------------------------------

def analyses():
    """The analyses of this build of the library, in its order: a list of dicts with "name" (the command, as
    `ntidx gc`), "summary", "method" (the Trace method and ntidx.dask function: Trace.gc(), and
    Trace.allocations() for `ntidx alloc`) and "tables" ({table: [{"name", "type", "description"}]}: its
    tables' columns, the first table its records). Trace has one method per analysis listed here; the
    analyses the contract names that this build lacks are methods that raise NotImplementedError."""
    return _analysis.library_analyses()


def _analysis_info(name):
    for info in _analysis.library_analyses():
        if info["name"] == name:
            return info
    known = ", ".join(a["name"] for a in _analysis.library_analyses())
    if name in _analysis.CONTRACT.values():
        raise NotImplementedError("the %s analysis is not in this build of the ntidx library (%s; it has: %s)"
                                  % (name, library_version, known))
    raise ArgumentError("no analysis named %r (the library has: %s)" % (name, known))


def _analyze(trace, name, start, end, thread, lookahead, threads):
    info = _analysis_info(name)
    result = trace._analyze(name, _time(start), _time(end), thread, lookahead, threads)
    return info, _analysis.frames(result, trace.path)


def _trace_analyze(self, name, start=None, end=None, thread=None, table=None, summary=False, lookahead=None,
                   threads=0):
    """The analysis `name` ("gc", "jit", ... : ntidx.analyses()) of the window [start, end) as a pandas
    DataFrame: its records (the first table; `table` names another, summary=True the NAME_summary one), one
    column per column of the library's table, named by the contract (the keys of `ntidx NAME --format
    jsonl`), filled in C column by column with the GIL released. thread=TID: only the records of that thread
    (as the analysis defines a record's thread). lookahead: seconds past `end` to look for the ends of records
    still open (default 10); threads: workers (0: one per core). df.attrs holds "analysis", "table", "trace"
    and "stats" (events read, field_errors, unmatched, incomplete, bytes_read, ...). Errors as frame(): the
    ntidx.Error subclasses, with .file, .offset and .what."""
    info, frames = _analyze(self, name, start, end, thread, lookahead, threads)
    return frames[_analysis.pick_table(info, table, summary)]


def _trace_analyze_tables(self, name, start=None, end=None, thread=None, lookahead=None, threads=0):
    """Every table of the analysis `name` of one run, as {table: DataFrame} (arguments as Trace.analyze())."""
    return _analyze(self, name, start, end, thread, lookahead, threads)[1]


Trace.analyze = _trace_analyze
Trace.analyze_tables = _trace_analyze_tables


def _analysis_method(info):
    name = info["name"]

    def method(self, start=None, end=None, thread=None, summary=False, table=None, lookahead=None, threads=0):
        return self.analyze(name, start, end, thread, table=table, summary=summary, lookahead=lookahead,
                            threads=threads)

    tables = "; ".join("%s: %s" % (t, ", ".join(c["name"] for c in cols)) for t, cols in info["tables"].items())
    method.__name__ = method.__qualname__ = info["method"]
    method.__doc__ = ("%s, as a pandas DataFrame (Trace.analyze(%r, ...): same window arguments as frame(); "
                      "summary=True for the summary table). Tables and columns: %s."
                      % (info["summary"][:1].upper() + info["summary"][1:], name, tables))
    return method


def _missing_method(pyname, name):
    def method(self, *args, **kwargs):
        _analysis_info(name)  # raises NotImplementedError naming it, unless the library has it after all
        return self.analyze(name, *args, **kwargs)

    method.__name__ = method.__qualname__ = pyname
    method.__doc__ = ("The %s analysis: not in this build of the ntidx library; raises NotImplementedError."
                      % name)
    return method


for _info in _analysis.library_analyses():
    if not hasattr(Trace, _info["method"]):  # never over a method of the module's own
        setattr(Trace, _info["method"], _analysis_method(_info))
for _pyname, _name in _analysis.CONTRACT.items():
    if not hasattr(Trace, _pyname):
        setattr(Trace, _pyname, _missing_method(_pyname, _name))
del _info, _pyname, _name


def sql(paths, statement, index=None, on_error="raise"):
    """The rows of an SQL statement over one trace or a list of them, as a DataFrame (Trace.sql() for several
    traces): the tables of `ntidx sql PATHS... STATEMENT`, with a `trace` column first when there are several.
    `index` names the index of a single trace. Like Perfetto's tp.query(sql).as_pandas_dataframe(), without
    loading an extension into the interpreter's sqlite3. on_error="skip": as Trace.sql()'s."""
    from . import _sql
    return _sql.run(paths, statement, index, on_error)


def open(path, index=None, build_index=True):  # noqa: A001  (ntidx.open, as the contract names it)
    """Open a trace (a path or os.PathLike) and its side index: `index` is the index file to use (default: beside
    the trace, or in NTIDX_INDEX_DIR or the user's cache when the trace's folder cannot be written; see
    ntidx.index_path()). The index is found, built, extended or rebuilt exactly as the ntidx command does, and
    what was done is logged on the "ntidx" logger (a rebuild, or an index that could not be saved, is also an
    IndexWarning). build_index=False opens it only when a call first needs it. Raises ntidx.Error subclasses
    (FileError, NotATraceError, TruncatedError, ...) carrying .file, .offset and .what."""
    return Trace(path, index, build_index)
