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

from . import _ntidx
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
    "open", "Trace", "Event", "Query", "Region", "index_path", "library_version", "Error", "FileError",
    "NotATraceError", "VersionError", "TruncatedError", "CorruptError", "ArgumentError", "TimeError",
    "PayloadError", "UnsupportedError", "WriteError", "IndexFileError", "IndexCorruptError", "IndexStaleError",
    "IndexVersionError", "CancelledError", "IndexWarning", "UnknownNameError", "UnknownNameWarning",
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

    def __repr__(self):
        return "<ntidx.Trace %r%s>" % (self.path, " (closed)" if self.closed else "")

    def stats(self, start=None, end=None, threads=0, regions=None):
        """The statistics of a window: a dict with the keys and values of `ntidx stats --json` (its "file" is the
        path given to open()). `regions`: only these work units (Trace.regions()), as a scheduler splits."""
        return super().stats(_time(start), _time(end), threads, regions)

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
              order="time", strict=False):
        """A pandas DataFrame with one row per event of the query (same window, filters and order): columns
        ts, time_s, provider, event_id, event_name, version, thread, capture_thread, seq, stack_id, offset,
        filled in C column by column (no Python object per event). fields=["TypeName", ...] adds payload
        columns by name (missing values are nulls), fields="all" one per field name met, and a field_error
        column. See docs/python.md for the column types. Filters that name nothing: as query() (strict=True
        raises UnknownNameError, else an empty frame comes with an UnknownNameWarning)."""
        from . import _frame  # pandas is imported only by those who ask for frames
        cols = self._columns(_time(start), _time(end), provider, event, thread, fields, regions, order, strict)
        return _frame.build(cols, fields is not None)


def open(path, index=None, build_index=True):  # noqa: A001  (ntidx.open, as the contract names it)
    """Open a trace (a path or os.PathLike) and its side index: `index` is the index file to use (default: beside
    the trace, or in NTIDX_INDEX_DIR or the user's cache when the trace's folder cannot be written; see
    ntidx.index_path()). The index is found, built, extended or rebuilt exactly as the ntidx command does, and
    what was done is logged on the "ntidx" logger (a rebuild, or an index that could not be saved, is also an
    IndexWarning). build_index=False opens it only when a call first needs it. Raises ntidx.Error subclasses
    (FileError, NotATraceError, TruncatedError, ...) carrying .file, .offset and .what."""
    return Trace(path, index, build_index)
