"""ntidx.dask: statistics and data frames of many traces on many workers, with Dask.

    import ntidx.dask
    from distributed import Client
    client = Client("tcp://scheduler:8786")          # or distributed.LocalCluster(), or none: dask's default
    s = ntidx.dask.stats(glob.glob("/shared/traces/*.nettrace"), client=client)
    s["total"]["events"], s["traces"]["/shared/traces/a.nettrace"]["providers"]
    df = ntidx.dask.frame(paths, event="GC/AllocationTick", fields=["TypeName", "AllocationAmount64"])
    df.groupby("TypeName").AllocationAmount64.sum().compute()

How the work is cut: a trace's side index splits it into sequence-point regions, each readable on its own
(docs/architecture.md). A first task per trace, on a worker, opens the trace and its index (built there once,
before the fan-out: indexes are written atomically, so two workers that build the same one leave a valid
file) and lists its regions in the window, in groups of about `partition_bytes` of trace. Then one task per
group computes its statistics (or its rows). Tasks carry a path and region numbers, never trace bytes:
every worker must see the traces at the same paths (a shared filesystem), and their indexes beside them
or in NTIDX_INDEX_DIR (a shared folder for traces on read-only storage; without it each machine keeps its
own in its cache, ~/.cache/ntidx).

A region belongs to exactly one group, so the groups' statistics add up to the trace's: each trace's
result equals `ntidx stats --json` of that trace, and a task a dead worker had (the scheduler runs it again
elsewhere) changes nothing.

Analyses (gc, jit, ...: ntidx.analyses()) are one task per trace: the library computes an analysis over a
trace's regions in parallel and merges across region boundaries itself (a GC that starts in one region and
ends in the next is one record), so a trace's analysis is not split further; the fleet is spread over the
workers trace by trace:

    df = ntidx.dask.gc(glob.glob("/shared/traces/*.nettrace"), client)
    df[(df.generation == 2) & (df.pause_duration_ms > 100)].trace.unique()
"""

import warnings

import numpy as np
import pandas as pd

import dask
import dask.dataframe as dd

from . import Error, UnknownNameWarning, _analysis, _analysis_info, _frame, open as _open

__all__ = ["stats", "frame", "merge_stats", "combine_stats", "analyze"]

#: Trace bytes per statistics task and per data frame partition (defaults).
STATS_PARTITION_BYTES = 256 << 20
FRAME_PARTITION_BYTES = 64 << 20


def _compute(tasks, client):
    if client is not None:
        return client.gather(client.compute(tasks))
    return list(dask.compute(*tasks))


def _groups(regions, partition_bytes):
    """Consecutive regions in groups of about equal bytes, as many as partition_bytes of trace asks for (at
    least one region each). Equal groups, rather than full ones and a small remainder, keep the workers
    busy to the end of a job and open each trace fewer times."""
    regions = list(regions)
    total = sum(r.bytes for r in regions)
    n = max(1, min(len(regions), -(-total // partition_bytes)))
    groups, cur, size = [], [], 0
    for r in regions:
        cur.append(r.number)
        size += r.bytes
        if len(groups) < n - 1 and size * n >= total * (len(groups) + 1):  # past the next boundary
            groups.append(cur)
            cur = []
    if cur or not groups:
        groups.append(cur)
    return groups


def _plan(path, start, end, partition_bytes, types=None):
    """On a worker: the trace's index (opened, built or refreshed here, once), its region groups in the
    window, and for frames (types=(provider, event, with_fields, strict)) the event types the filters select:
    the columns' types (their fields only when asked for), and the warnings of filters that name nothing (said
    again by the caller: a worker's warnings are not seen), or with strict their UnknownNameError."""
    with _open(path) as t:
        regions = t.regions(start, end)
        plan = {"groups": _groups(regions, partition_bytes), "warnings": [],
                "spans": {r.number: (r.first_ts, r.last_ts) for r in regions if r.first_ts <= r.last_ts},
                "thread_names": [name for _, name, _ in t._thread_defs() if name is not None]}
        if types is not None:
            provider, event, with_fields, strict = types
            with warnings.catch_warnings(record=True) as said:
                warnings.simplefilter("always", UnknownNameWarning)
                listed = t.types(provider, event, strict=strict)
            plan["warnings"] = [str(w.message) for w in said if issubclass(w.category, UnknownNameWarning)]
            plan["types"] = [x if with_fields else {"provider": x["provider"], "event_name": x["event_name"]}
                             for x in listed]
        return plan


def _stats_part(path, start, end, regions):
    with _open(path) as t:
        return t.stats(start, end, threads=1, regions=regions)


def _utf8(s):
    return s.encode("utf-8", "surrogatepass")


def merge_stats(parts):
    """One trace's statistics from those of the parts of a partition of its regions (Trace.stats(regions=...)),
    as the library merges its workers' (src/ops/stats_parallel.c): sums, minimums and maximums; a capture
    thread's OS id is a known one over one a part could only give as its index (the smaller of two known
    ones); the trace block is counted once. Equal to Trace.stats() of the whole."""
    parts = list(parts)
    if len(parts) == 1:
        return parts[0]
    first = parts[0]
    out = {k: first[k] for k in ("file", "format_version", "complete", "sync_ticks", "tick_frequency")}
    live = [p for p in parts if p["events"]]
    events = sum(p["events"] for p in parts)
    out["events"] = events
    out["first_ts"] = min(p["first_ts"] for p in live) if live else 0
    out["last_ts"] = max(p["last_ts"] for p in live) if live else 0
    out["duration_s"] = float("%.9f" % ((out["last_ts"] - out["first_ts"]) / out["tick_frequency"])) if events else 0.0
    out["payload_bytes"] = sum(p["payload_bytes"] for p in parts)
    types = {}
    for p in parts:
        for ty in p["types"]:
            key = (ty["provider"], ty["event_id"], ty["event_name"], ty["version"])
            have = types.get(key)
            if have is None:
                types[key] = dict(ty)
            else:
                have["count"] += ty["count"]
                have["payload_bytes"] += ty["payload_bytes"]
                have["first_ts"] = min(have["first_ts"], ty["first_ts"])
    ordered = sorted(types.values(), key=lambda t: (_utf8(t["provider"]), t["event_id"], t["version"],
                                                   _utf8(t["event_name"])))
    providers = {}
    for ty in ordered:
        providers[ty["provider"]] = providers.get(ty["provider"], 0) + ty["count"]
    out["providers"] = providers
    out["types"] = ordered
    threads, named = {}, {}
    for p in parts:
        for th in p["threads"]:
            threads[th["thread"]] = threads.get(th["thread"], 0) + th["count"]
            # the name and pid Trace.stats() adds (the trace's thread definitions: the same in every part)
            extra = {k: th[k] for k in ("name", "pid") if k in th}
            if extra:
                named.setdefault(th["thread"], extra)
    out["threads"] = [dict({"thread": k, "count": threads[k]}, **named.get(k, {})) for k in sorted(threads)]
    out["dropped_events"] = sum(p["dropped_events"] for p in parts)
    drops = {}
    for p in parts:
        for d in p["dropped_by_thread"]:
            have = drops.get(d["capture_thread"])
            if have is None:
                drops[d["capture_thread"]] = dict(d)
                continue
            have["dropped"] += d["dropped"]
            unknown = d["capture_thread"]
            if have["thread"] == unknown or (d["thread"] != unknown and d["thread"] < have["thread"]):
                have["thread"] = d["thread"]
    out["dropped_by_thread"] = [drops[k] for k in sorted(drops)]
    out["histogram"] = []
    blocks = {}
    for p in parts:
        for k, v in p["blocks"].items():
            blocks[k] = blocks.get(k, 0) + v
    blocks["trace"] = 1 if any(p["blocks"].get("trace") for p in parts) else 0
    out["blocks"] = blocks
    out["regions_from_index"] = sum(p["regions_from_index"] for p in parts)
    if "incomplete_reason" in first:
        out["incomplete_reason"] = first["incomplete_reason"]
    return out


def combine_stats(stats):
    """Several traces' statistics combined: events, payload bytes and dropped events summed; counts per
    provider, type (provider, event id, name, version) and thread added up; first_ts and last_ts the
    earliest and latest (raw ticks: each trace counts its own); `traces` how many, `complete` whether all
    are."""
    stats = list(stats)
    total = {"traces": len(stats), "complete": all(s["complete"] for s in stats),
             "events": sum(s["events"] for s in stats), "payload_bytes": sum(s["payload_bytes"] for s in stats),
             "dropped_events": sum(s["dropped_events"] for s in stats)}
    live = [s for s in stats if s["events"]]
    total["first_ts"] = min(s["first_ts"] for s in live) if live else None
    total["last_ts"] = max(s["last_ts"] for s in live) if live else None
    providers, types, threads, blocks = {}, {}, {}, {}
    for s in stats:
        for k, v in s["providers"].items():
            providers[k] = providers.get(k, 0) + v
        for ty in s["types"]:
            key = (ty["provider"], ty["event_id"], ty["event_name"], ty["version"])
            have = types.setdefault(key, {"provider": ty["provider"], "event_id": ty["event_id"],
                                          "event_name": ty["event_name"], "version": ty["version"], "count": 0,
                                          "payload_bytes": 0})
            have["count"] += ty["count"]
            have["payload_bytes"] += ty["payload_bytes"]
        for th in s["threads"]:
            threads[th["thread"]] = threads.get(th["thread"], 0) + th["count"]
        for k, v in s["blocks"].items():
            blocks[k] = blocks.get(k, 0) + v
    total["providers"] = {k: providers[k] for k in sorted(providers, key=_utf8)}
    total["types"] = sorted(types.values(), key=lambda t: (_utf8(t["provider"]), t["event_id"], t["version"],
                                                          _utf8(t["event_name"])))
    total["threads"] = [{"thread": k, "count": threads[k]} for k in sorted(threads)]
    total["blocks"] = blocks
    return total


def stats(paths, start=None, end=None, client=None, partition_bytes=STATS_PARTITION_BYTES):
    """Statistics of many traces on Dask workers: {"traces": {path: stats}, "total": combined}. Each stats
    equals `ntidx stats --json` of that trace over [start, end) (keyed, and its "file", as the caller gave the
    path); `total` is combine_stats() of them. `client`: a distributed.Client (None: dask's default
    scheduler, which is the active Client when there is one). Times as Trace.stats() takes them, applied to
    each trace (a string like "1s" counts from each trace's own sync time)."""
    paths = list(paths)
    plans = _compute([dask.delayed(_plan, pure=False)(p, start, end, partition_bytes) for p in paths], client)
    tasks, owner = [], []
    for i, (p, plan) in enumerate(zip(paths, plans)):
        for g in plan["groups"]:
            tasks.append(dask.delayed(_stats_part, pure=False)(p, start, end, g))
            owner.append(i)
    results = _compute(tasks, client)
    per = [[] for _ in paths]
    for i, r in zip(owner, results):
        per[i].append(r)
    traces = {p: merge_stats(parts) for p, parts in zip(paths, per)}
    return {"traces": traces, "total": combine_stats(traces[p] for p in paths)}


# ---------------------------------------------------------------------------------------------------------
# Data frames
# ---------------------------------------------------------------------------------------------------------

_INT_CODES = {5, 7, 9, 11, 20}            # SByte, Int16, Int32, Int64, VarInt
_UINT_CODES = {6, 8, 10, 12, 21, 0x80}    # Byte, UInt16, UInt32, UInt64, VarUInt, pointers
_BOOL_CODES = {3, 26}                     # Boolean32, Boolean8
_FLOAT_CODES = {13, 14}                   # Single, Double
_TEXT_CODES = {15, 16, 17, 18, 0x82}      # Decimal, DateTime, Guid, String, AnsiString
_CHAR_CODES = {4, 23}                     # UTF-16 and UTF-8 code units: arrays of them are strings


def _field_class(f):
    """The column type of a field (as Trace.frame() gives one holding only its values), by its type code."""
    tc = f["type_code"]
    if tc in _INT_CODES:
        return "Int64"
    if tc in _UINT_CODES:
        return "UInt64"
    if tc in _BOOL_CODES:
        return "boolean"
    if tc in _FLOAT_CODES:
        return "Float64"
    if tc in _TEXT_CODES or (tc in (19, 22, 0x81) and f.get("element", {}).get("type_code") in _CHAR_CODES):
        return "category"
    return "object"


def _schema(plans, fields):
    """The field columns (name -> type) over every trace's types: a name with one type class keeps it, else
    object; fields="all": every top-level name in the order met."""
    classes = {}
    for plan in plans:
        for ty in plan["types"]:
            for f in ty["fields"]:
                classes.setdefault(f["name"], set()).add(_field_class(f))
    names = list(classes) if fields == "all" else list(dict.fromkeys(fields))
    return {n: (classes[n].pop() if len(classes.get(n, ())) == 1 else "object") for n in names}


def _dtype(cls, categories=None):
    if cls == "category":
        return pd.CategoricalDtype(categories if categories is not None else [])
    return np.dtype(object) if cls == "object" else pd.api.types.pandas_dtype(cls)


def _empty(dtype, n):
    """n nulls of a column type (no Python object per row)."""
    if isinstance(dtype, pd.CategoricalDtype):
        return pd.Categorical.from_codes(np.full(n, -1, np.int32), dtype=dtype)
    nulls = np.ones(n, dtype=bool)
    if dtype == pd.Int64Dtype():
        return pd.arrays.IntegerArray(np.zeros(n, np.int64), nulls)
    if dtype == pd.UInt64Dtype():
        return pd.arrays.IntegerArray(np.zeros(n, np.uint64), nulls)
    if dtype == pd.Float64Dtype():
        return pd.arrays.FloatingArray(np.zeros(n, np.float64), nulls)
    if dtype == pd.BooleanDtype():
        return pd.arrays.BooleanArray(np.zeros(n, bool), nulls)
    return np.full(n, None, dtype=object)


def _conform(df, meta):
    """A partition with the meta's columns and types: a column it lacks is null; categoricals with known
    categories take the meta's."""
    out = {}
    n = len(df)
    for name, dtype in meta.dtypes.items():
        if name not in df:
            out[name] = _empty(dtype, n)
            continue
        col = df[name]
        if isinstance(dtype, pd.CategoricalDtype):
            if dtype.categories is not None and list(dtype.categories) != ["__UNKNOWN_CATEGORIES__"]:
                col = col.astype(object).astype(dtype) if not isinstance(col.dtype, pd.CategoricalDtype) \
                    else col.cat.set_categories(dtype.categories)
            elif not isinstance(col.dtype, pd.CategoricalDtype):
                col = col.astype("category")
        elif col.dtype != dtype:
            try:
                col = col.astype(dtype)
            except (TypeError, ValueError, OverflowError):
                col = col.astype(object)
        out[name] = col.values if hasattr(col, "values") else col
    return pd.DataFrame(out, index=df.index, copy=False)


class _FramePart:
    """The function of dask.dataframe.from_map: one (trace, region group) -> its rows, typed as the meta; with
    index="ts", one time window [t0, t1) -> the rows of every trace in it, [(trace, regions)], in time order
    and indexed by ts."""

    def __init__(self, meta, start, end, provider, event, thread, fields, by_ts=False):
        self.meta = meta
        self.args = (start, end, provider, event, thread, fields)
        self.by_ts = by_ts

    def _rows(self, path, start, end, regions):
        _, _, provider, event, thread, fields = self.args
        with _open(path) as t, warnings.catch_warnings():
            warnings.simplefilter("ignore", UnknownNameWarning)  # said once per trace, by frame() (the plan)
            df = t.frame(start, end, provider, event, thread, fields, regions=regions)
        traces = self.meta["trace"].cat.categories
        df.insert(0, "trace", pd.Categorical.from_codes(np.full(len(df), traces.get_loc(path), np.int32),
                                                        categories=traces))
        return df

    def __call__(self, part):
        if not self.by_ts:
            path, regions = part
            return _conform(self._rows(path, self.args[0], self.args[1], regions), self.meta)
        t0, t1, reads = part
        frames = [self._rows(path, t0, t1, regions) for path, regions in reads]
        if not frames:
            frames = [self._rows(self.meta["trace"].cat.categories[0], t0, t0, [])]
        df = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
        if len(frames) > 1:  # traces merged in time order (stable: a tie keeps the traces' order)
            df = df.iloc[np.argsort(df["ts"].to_numpy(), kind="stable")]
        df = df.set_index("ts")
        return _conform(df, self.meta)


def _windows(paths, plans, start_ts, end_ts):
    """Time windows [t0, t1) over the traces' regions, one per region group start (partitions of about equal
    bytes), with the (trace, regions) each must read: the partitions of frame(index="ts") and their divisions.
    A window reads every region whose events' span meets it, and keeps only the rows of its own time: a row
    is in one window whatever regions overlap in time."""
    spans = [(p, n, a, b) for p, plan in zip(paths, plans) for n, (a, b) in plan["spans"].items()]
    if not spans:
        return [], []
    first = max(min(a for _, _, a, _ in spans), start_ts if start_ts is not None else 0)
    last = max(b for _, _, _, b in spans)
    if end_ts is not None:
        last = min(last, end_ts - 1)
    cuts = sorted({plan["spans"][g[0]][0] for plan in plans for g in plan["groups"] if g and g[0] in plan["spans"]})
    bounds = [first] + [c for c in cuts if first < c <= last]
    if last >= first:
        bounds.append(last + 1)
    parts = []
    for t0, t1 in zip(bounds[:-1], bounds[1:]):
        reads = {}
        for p, n, a, b in spans:
            if a < t1 and b >= t0:
                reads.setdefault(p, []).append(n)
        parts.append((t0, t1, [(p, sorted(reads[p])) for p in paths if p in reads]))
    divisions = bounds[:-1] + [bounds[-1] - 1] if parts else []
    return parts, divisions


def frame(paths, start=None, end=None, provider=None, event=None, thread=None, fields=None, client=None,
          partition_bytes=FRAME_PARTITION_BYTES, strict=False, index=None, merge=False):
    """A dask.dataframe.DataFrame of the events of many traces: a `trace` column (the paths as given, a
    categorical), then the columns of Trace.frame() with the same arguments. One partition per group of
    regions of about partition_bytes of a trace (a big trace spans many), built with
    dask.dataframe.from_map over (trace, region numbers) descriptors. The traces' indexes are opened (built
    when missing) and their event types read by one task per trace first, on the workers (`client`, or
    dask's default scheduler), so the columns' types are known before the rows: field columns as
    Trace.frame() types them (docs/python.md), provider and event_name categoricals of every type the
    traces define. A provider or event that names nothing in a trace is an UnknownNameWarning (strict=True:
    an UnknownNameError), said here, once per trace.

    index="ts": the rows are indexed by ts (the column becomes the index) and the frame's divisions are known:
    one partition per time window starting at a region group, so that df.loc[a:b] (and dask's other index
    selections) reads only the partitions that overlap [a, b]. With several traces this needs merge=True:
    their rows merged in time order (their ticks taken as one clock: traces of one machine)."""
    paths = list(paths)
    if index not in (None, "ts"):
        raise ValueError('index: None or "ts", not %r' % (index,))
    if index == "ts" and len(dict.fromkeys(paths)) > 1 and not merge:
        raise ValueError('index="ts" over several traces merges them in time order: say merge=True')
    plans = _compute([dask.delayed(_plan, pure=False)(p, start, end, partition_bytes,
                                                      (provider, event, fields is not None, strict))
                      for p in paths], client)
    for plan in plans:
        for message in plan["warnings"]:
            warnings.warn(message, UnknownNameWarning, stacklevel=2)
    providers = sorted({ty["provider"] for plan in plans for ty in plan["types"]})
    names = sorted({ty["event_name"] for plan in plans for ty in plan["types"]})
    meta = {"trace": pd.Categorical([], categories=list(dict.fromkeys(paths))),
            "ts": np.zeros(0, np.int64), "time_s": np.zeros(0, np.float64),
            "provider": pd.Categorical([], categories=providers), "event_id": np.zeros(0, np.uint32),
            "event_name": pd.Categorical([], categories=names), "version": np.zeros(0, np.uint32),
            "thread": np.zeros(0, np.int64), "capture_thread": np.zeros(0, np.int64),
            "seq": np.zeros(0, np.uint32), "stack_id": np.zeros(0, np.uint32), "offset": np.zeros(0, np.int64),
            "activity_id": pd.Categorical([]), "related_activity_id": pd.Categorical([]),
            "thread_name": pd.Categorical([], categories=list(dict.fromkeys(
                n for plan in plans for n in plan["thread_names"]))),
            "pid": pd.array([], dtype="Int64"), "stack_key": pd.array([], dtype="Int64")}
    if fields is not None:
        for name, cls in _schema(plans, fields).items():
            key = name if name not in meta else name + "_field"
            meta[key] = _empty(_dtype(cls), 0)
        meta["field_error"] = pd.Categorical([])
    meta = pd.DataFrame(meta)
    # text columns whose categories differ by partition (dask's "unknown categories"): activity ids, fields
    unknown = ["activity_id", "related_activity_id"]
    if fields is not None:
        unknown += [c for c in meta.columns[len(_frame.COLUMNS) + 1:] if isinstance(meta[c].dtype, pd.CategoricalDtype)]
    meta = dd.utils.clear_known_categories(meta, cols=unknown)
    if index == "ts":
        meta = meta.set_index("ts")
        with _open(paths[0]) as t:  # times as ticks (the traces' one clock)
            start_ts = None if start is None else t.ticks(start)
            end_ts = None if end is None else t.ticks(end)
        parts, divisions = _windows(paths, plans, start_ts, end_ts)
        fn = _FramePart(meta, start, end, provider, event, thread, fields, by_ts=True)
        if not parts:
            return dd.from_pandas(meta, npartitions=1)
        return dd.from_map(fn, parts, meta=meta, divisions=divisions, label="ntidx-frame", enforce_metadata=False)
    parts = [(p, g) for p, plan in zip(paths, plans) for g in plan["groups"]]
    fn = _FramePart(meta, start, end, provider, event, thread, fields)
    return dd.from_map(fn, parts, meta=meta, label="ntidx-frame", enforce_metadata=False)


# ---------------------------------------------------------------------------------------------------------
# Analyses: one task per trace
# ---------------------------------------------------------------------------------------------------------


def _analysis_part(path, name, table, start, end, thread, lookahead, threads, skip_errors):
    """On a worker: one trace's table of the analysis, its statistics, and (skip_errors) the error that stopped
    it, as "ClassName: message", instead of raising it."""
    try:
        with _open(path) as t:
            df = t.analyze(name, start, end, thread, table=table, lookahead=lookahead, threads=threads)
        return df, df.attrs["stats"], None
    except Error as e:
        if not skip_errors:
            raise
        return None, None, "%s: %s" % (type(e).__name__, e)


def _concat(frames, paths, empty):
    """One frame of the traces' frames, a categorical `trace` column first (the paths as given); text columns
    keep one categorical type over all traces (the union of their categories)."""
    traces = list(dict.fromkeys(paths))
    parts = []
    for path, df in frames:
        df = df.copy(deep=False)
        df.insert(0, "trace", pd.Categorical.from_codes(np.full(len(df), traces.index(path), np.int32),
                                                        categories=traces))
        parts.append(df)
    if not parts:
        df = empty.copy()
        df.insert(0, "trace", pd.Categorical([], categories=traces))
        return df
    for c in parts[0].columns:
        if isinstance(parts[0][c].dtype, pd.CategoricalDtype) and c != "trace":
            categories = list(dict.fromkeys(x for p in parts for x in p[c].cat.categories))
            for p in parts:
                p[c] = p[c].cat.set_categories(categories)
    return pd.concat(parts, ignore_index=True)


def analyze(name, paths, client=None, start=None, end=None, thread=None, table=None, summary=False, lookahead=None,
            threads=1, errors="raise"):
    """The analysis `name` ("gc", ...: ntidx.analyses()) of many traces on Dask workers, as one pandas DataFrame:
    a categorical `trace` column (the paths as given) first, then the columns of Trace.analyze() with the same
    arguments (each trace's window as Trace.analyze() takes it: "1s" counts from each trace's own sync time).
    One task per trace (the library parallelises and merges inside a trace); `threads`: the library's workers
    per task (1 by default: a Dask worker runs as many tasks at once as it has threads). `client`: a
    distributed.Client (None: dask's default scheduler). df.attrs: "analysis", "table", "stats" ({path: the
    trace's statistics}) and "errors" ({path: "ClassName: message"}). errors="raise" (default): a trace that
    cannot be read raises its ntidx.Error; errors="skip": its rows are left out and its error is in
    df.attrs["errors"]."""
    if errors not in ("raise", "skip"):
        raise ValueError('errors: "raise" or "skip", not %r' % (errors,))
    info = _analysis_info(name)
    table = _analysis.pick_table(info, table, summary)
    paths = list(paths)
    results = _compute([dask.delayed(_analysis_part, pure=False)(p, name, table, start, end, thread, lookahead,
                                                                 threads, errors == "skip") for p in paths], client)
    frames = [(p, r[0]) for p, r in zip(paths, results) if r[0] is not None]
    df = _concat(frames, paths, _analysis.empty_frame(info, table))
    df.attrs = {"analysis": name, "table": table, "stats": {p: r[1] for p, r in zip(paths, results) if r[1]},
                "errors": {p: r[2] for p, r in zip(paths, results) if r[2]}}
    return df


def _analysis_function(info):
    name = info["name"]

    def function(paths, client=None, start=None, end=None, thread=None, table=None, summary=False, lookahead=None,
                 threads=1, errors="raise"):
        return analyze(name, paths, client, start, end, thread, table, summary, lookahead, threads, errors)

    function.__name__ = function.__qualname__ = info["method"]
    function.__doc__ = ("%s of many traces, as one pandas DataFrame with a `trace` column: "
                        "ntidx.dask.analyze(%r, paths, client, ...)." % (info["summary"][:1].upper()
                                                                           + info["summary"][1:], name))
    return function


def _missing_function(pyname, name):
    def function(paths, client=None, *args, **kwargs):
        return analyze(name, paths, client, *args, **kwargs)  # NotImplementedError naming it, before any task

    function.__name__ = function.__qualname__ = pyname
    function.__doc__ = "The %s analysis: not in this build of the ntidx library; raises NotImplementedError." % name
    return function


for _info in _analysis.library_analyses():
    if _info["method"] not in globals():
        globals()[_info["method"]] = _analysis_function(_info)
        __all__.append(_info["method"])
for _pyname, _name in _analysis.CONTRACT.items():
    if _pyname not in globals():
        globals()[_pyname] = _missing_function(_pyname, _name)
        __all__.append(_pyname)
del _info, _pyname, _name
