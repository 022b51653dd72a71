// TraceEvent's answers to the questions ntidx's analyses answer (issue 30: `ntidx gc|jit|cpu|
// exceptions|alloc|contention|activities TRACE --format jsonl`), printed one JSON object per record
// with the keys of ntidx's contract, so that tools/conformance_compare_analyses.py can hold the two
// side by side. Everything is TraceEvent's own computation through its public API; the dumper only
// names the fields (TraceEvent's names in snake_case) and, where TraceEvent has no computer of its
// own (allocations, contention, exceptions per type), sums the events TraceEvent parsed.
//
// Times are milliseconds since the trace's sync time (TraceEvent's TimeStampRelativeMSec, PerfView's
// MSec), doubles printed round-trip. Enums by TraceEvent's names.
//
//   gc TRACE          one record per TraceGC of TraceLoadedDotNetRuntime.GC.GCs, after GC.Stats()
//                     (what PerfView's GCStats view shows: Stats() recomputes every complete GC's
//                     end values with all the events read)
//   gc-summary TRACE  TraceEvent's GCStats per process: generation 0, 1 and 2 (GC.Generations()) and
//                     all GCs (GC.Stats(); generation -1), as PerfView's GCStats view sums them
//   jit TRACE         one record per TraceJittedMethod of TraceLoadedDotNetRuntime.JIT.Methods
//   cpu TRACE [--by-thread]
//                     the sample profiler's samples (Microsoft-DotNETCore-SampleProfiler
//                     Thread/Sample) by method, each frame named by TraceEvent's stack source
//                     (MutableTraceEventStackSource.GetFrameName: "module!method", "?!?")
//   cpu-by-thread TRACE  cpu --by-thread (a name of its own for the conformance run)
//   exceptions TRACE  Exception/Start per type, message and throwing method
//   alloc TRACE       GC/AllocationTick per type name and allocation kind
//   contention TRACE  Contention/Start-Stop waits per lock and thread
//   runtime-pass TRACE  the benchmark's reference (tools/bench/bench_answers.sh): TraceEvent's
//                     TraceLoadedDotNetRuntime pass over the whole trace (NeedLoadedDotNetRuntimes(),
//                     Process(), GC.Stats(), the JIT's methods counted); prints its seconds
//   activities TRACE  one record per StartStopActivity of TraceEvent's StartStopActivityComputer
//                     then {"tie":...} for each Start or Stop of one activity id on two threads at
//                     the same timestamp (the comparer compares what follows it loosely)
using System.Globalization;
using System.Text;
using Microsoft.Diagnostics.Symbols;
using Microsoft.Diagnostics.Tracing;
using Microsoft.Diagnostics.Tracing.Analysis;
using Microsoft.Diagnostics.Tracing.Analysis.GC;
using Microsoft.Diagnostics.Tracing.Analysis.JIT;
using Microsoft.Diagnostics.Tracing.Etlx;
using Microsoft.Diagnostics.Tracing.EventPipe;
using Microsoft.Diagnostics.Tracing.Parsers;
using Microsoft.Diagnostics.Tracing.Parsers.Clr;
using Microsoft.Diagnostics.Tracing.Stacks;
using TraceLog = Microsoft.Diagnostics.Tracing.Etlx.TraceLog;
using TraceProcess = Microsoft.Diagnostics.Tracing.Analysis.TraceProcess;

namespace Ntidx.Dumper;

public static class Analyses
{
    public static readonly string[] Names = { "gc", "jit", "cpu", "exceptions", "alloc", "contention", "activities",
                                              "cpu-by-thread", "gc-summary", "runtime-pass" };

    public static int Run(string analysis, string path, string[] options)
    {
        var stdout = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false), 1 << 20);
        var w = new JsonLines(stdout);
        int rc = analysis switch
        {
            "gc" => Gc(path, w),
            "gc-summary" => GcSummary(path, w),
            "runtime-pass" => RuntimePass(path),
            "jit" => Jit(path, w),
            "cpu" => Cpu(path, w, options.Contains("--by-thread")),
            "cpu-by-thread" => Cpu(path, w, true),
            "exceptions" => Exceptions(path, w),
            "alloc" => Alloc(path, w),
            "contention" => Contention(path, w),
            "activities" => Activities(path, w),
            _ => 2,
        };
        stdout.Flush();
        return rc;
    }

    // ---- GC and JIT: TraceLoadedDotNetRuntime ----------------------------------------------------

    static List<(TraceProcess Process, TraceLoadedDotNetRuntime Runtime)> LoadedRuntimes(string path)
    {
        var source = new EventPipeEventSource(path);
        source.NeedLoadedDotNetRuntimes();
        source.Process();
        var runtimes = new List<(TraceProcess, TraceLoadedDotNetRuntime)>();
        foreach (var process in source.Processes())
        {
            var runtime = process.LoadedDotNetRuntime();
            if (runtime != null)
                runtimes.Add((process, runtime));
        }
        return runtimes;
    }

    static int Gc(string path, JsonLines w)
    {
        foreach (var (process, runtime) in LoadedRuntimes(path))
        {
            runtime.GC.Stats(); // PerfView's GCStats: recomputes the end values of every complete GC
            foreach (TraceGC gc in runtime.GC.GCs)
            {
                w.Begin();
                w.Int("number", gc.Number);
                w.Int("generation", gc.Generation);
                w.Str("type", gc.Type.ToString());
                w.Str("reason", gc.Reason.ToString());
                w.Num("start_relative_ms", gc.StartRelativeMSec);
                w.Num("duration_ms", gc.DurationMSec);
                w.Num("pause_start_relative_ms", gc.PauseStartRelativeMSec);
                w.Num("pause_duration_ms", gc.PauseDurationMSec);
                w.Num("suspend_duration_ms", gc.SuspendDurationMSec);
                w.Num("heap_size_before_mb", gc.HeapSizeBeforeMB);
                w.Num("heap_size_after_mb", gc.HeapSizeAfterMB);
                w.Num("promoted_mb", gc.PromotedMB);
                w.Bool("is_complete", gc.IsComplete);
                w.Int("pid", process.ProcessID);
                w.End();
            }
        }
        return 0;
    }

    /// What a program written against TraceLoadedDotNetRuntime pays before its first answer: the whole
    /// trace read with the runtime's computers attached (GCs, JIT, the process), then the GC rollup.
    static int RuntimePass(string path)
    {
        var sw = System.Diagnostics.Stopwatch.StartNew();
        long gcs = 0, methods = 0;
        foreach (var (_, runtime) in LoadedRuntimes(path))
        {
            runtime.GC.Stats();
            gcs += runtime.GC.GCs.Count;
            methods += runtime.JIT.Methods.Count;
        }
        Console.WriteLine($"traceevent runtime-pass: {gcs} GCs, {methods} jitted methods, " +
                          $"{sw.Elapsed.TotalSeconds.ToString("F3", CultureInfo.InvariantCulture)} s");
        return 0;
    }

    static int GcSummary(string path, JsonLines w)
    {
        foreach (var (process, runtime) in LoadedRuntimes(path))
        {
            GCStats all = runtime.GC.Stats();
            GCStats[] gens = runtime.GC.Generations();
            for (int gen = 0; gen <= 3; gen++)
            {
                GCStats s = gen < 3 ? gens[gen] : all;
                w.Begin();
                w.Int("pid", process.ProcessID);
                w.Int("generation", gen < 3 ? gen : -1);
                w.Int("count", s.Count);
                w.Int("num_induced", s.NumInduced);
                w.Num("total_pause_time_ms", s.TotalPauseTimeMSec);
                w.Num("mean_pause_duration_ms", s.MeanPauseDurationMSec);
                w.Num("max_pause_duration_ms", s.MaxPauseDurationMSec);
                w.Num("max_suspend_duration_ms", s.MaxSuspendDurationMSec);
                // PerfView's GCStats report: every generation's pause over the process's duration (TraceEvent
                // sets ProcessDuration only in the rollup of all GCs: Generations()' is 0)
                w.Num("gc_pause_time_percentage", all.ProcessDuration == 0 ? 0 : s.TotalPauseTimeMSec * 100 / all.ProcessDuration);
                w.Num("total_allocated_mb", s.TotalAllocatedMB);
                w.Num("total_promoted_mb", s.TotalPromotedMB);
                w.Num("total_size_after_mb", s.TotalSizeAfterMB);
                w.Num("mean_size_after_mb", s.MeanSizeAfterMB);
                w.Num("process_duration_ms", all.ProcessDuration);
                w.End();
            }
        }
        return 0;
    }

    static int Jit(string path, JsonLines w)
    {
        foreach (var (_, runtime) in LoadedRuntimes(path))
        {
            foreach (TraceJittedMethod m in runtime.JIT.Methods)
            {
                w.Begin();
                w.Str("method_name", m.MethodName);
                w.Int("il_size", m.ILSize);
                w.Int("native_size", m.NativeSize);
                w.Num("jit_time_ms", m.CompileCpuTimeMSec);
                w.Str("optimization_tier", m.OptimizationTier.ToString());
                w.Num("start_relative_ms", m.StartTimeMSec);
                w.End();
            }
        }
        return 0;
    }

    // ---- CPU, exceptions, activities: TraceLog (stacks, frame names, the activity computers) ------

    /// TraceLog's conversion of the trace (its call stacks and method names come from the trace's
    /// own method events) in a temporary ETLX file, removed afterwards.
    static T WithTraceLog<T>(string path, Func<TraceLog, T> use)
    {
        string etlx = Path.Combine(Path.GetTempPath(), "ntidx-dumper-" + Environment.ProcessId + "-" + Guid.NewGuid().ToString("N") + ".etlx");
        try
        {
            TraceLog.CreateFromEventPipeDataFile(path, etlx);
            using var log = new TraceLog(etlx);
            return use(log);
        }
        finally
        {
            File.Delete(etlx);
        }
    }

    /// The code frames of an event's stack, leaf first, each named as TraceEvent's stack source names
    /// it, with whether TraceLog found a method for its address (managed code).
    static List<(string Name, bool HasMethod)> Frames(TraceLog log, MutableTraceEventStackSource stacks, TraceEvent data)
    {
        var frames = new List<(string, bool)>();
        for (var i = data.CallStackIndex(); i != CallStackIndex.Invalid; i = log.CallStacks.Caller(i))
        {
            var address = log.CallStacks.CodeAddressIndex(i);
            string name = stacks.GetFrameName(stacks.GetFrameIndex(address), false);
            frames.Add((name, log.CodeAddresses.MethodIndex(address) != MethodIndex.Invalid));
        }
        return frames;
    }

    const string SampleProfiler = "Microsoft-DotNETCore-SampleProfiler";

    static int Cpu(string path, JsonLines w, bool byThread)
    {
        return WithTraceLog(path, log =>
        {
            var stacks = new MutableTraceEventStackSource(log);
            double intervalMs = log.SampleProfileInterval.TotalMilliseconds;
            // (thread or -1, method) -> [inclusive, exclusive]
            var counts = new Dictionary<(int, string), long[]>();
            var seen = new HashSet<string>(StringComparer.Ordinal);
            foreach (TraceEvent data in log.Events)
            {
                if (data.ProviderName != SampleProfiler || (int)data.ID != 0)
                    continue;
                int thread = byThread ? data.ThreadID : -1;
                var frames = Frames(log, stacks, data);
                seen.Clear();
                for (int f = 0; f < frames.Count; f++)
                {
                    var key = (thread, frames[f].Name);
                    if (!counts.TryGetValue(key, out var c))
                        counts[key] = c = new long[2];
                    if (seen.Add(frames[f].Name))
                        c[0]++;
                    if (f == 0)
                        c[1]++;
                }
            }
            foreach (var kv in counts.OrderBy(kv => kv.Key.Item1).ThenBy(kv => kv.Key.Item2, StringComparer.Ordinal))
            {
                w.Begin();
                w.Str("method", kv.Key.Item2);
                w.Int("inclusive", kv.Value[0]);
                w.Int("exclusive", kv.Value[1]);
                w.Num("inclusive_ms", kv.Value[0] * intervalMs);
                w.Num("exclusive_ms", kv.Value[1] * intervalMs);
                if (byThread)
                    w.Int("thread", kv.Key.Item1);
                w.End();
            }
            return 0;
        });
    }

    static int Exceptions(string path, JsonLines w)
    {
        return WithTraceLog(path, log =>
        {
            var stacks = new MutableTraceEventStackSource(log);
            // (type, message, thrown_by) -> count, first, last, in order of first appearance
            var groups = new Dictionary<(string, string, string?), (long Count, double First, double Last)>();
            var order = new List<(string, string, string?)>();
            foreach (TraceEvent e in log.Events)
            {
                if (e is not ExceptionTraceData data || data.Opcode != TraceEventOpcode.Start)
                    continue;
                string? thrownBy = ThrownBy(Frames(log, stacks, data));
                var key = (data.ExceptionType, data.ExceptionMessage, thrownBy);
                double t = data.TimeStampRelativeMSec;
                if (groups.TryGetValue(key, out var g))
                    groups[key] = (g.Count + 1, Math.Min(g.First, t), Math.Max(g.Last, t));
                else
                {
                    groups[key] = (1, t, t);
                    order.Add(key);
                }
            }
            foreach (var key in order)
            {
                var g = groups[key];
                w.Begin();
                w.Str("type", key.Item1);
                w.Str("message", key.Item2);
                w.Int("count", g.Count);
                w.Num("first_relative_ms", g.First);
                w.Num("last_relative_ms", g.Last);
                w.Str("thrown_by", key.Item3);
                w.End();
            }
            return 0;
        });
    }

    /// The method that threw: the innermost frame of the Exception/Start stack that TraceLog knows a
    /// method for, past the runtime's managed exception dispatch (since .NET 9 the event fires inside
    /// System.Private.CoreLib's System.Runtime.EH, the innermost frame of every such stack).
    static string? ThrownBy(List<(string Name, bool HasMethod)> frames)
    {
        foreach (var (name, hasMethod) in frames)
        {
            if (hasMethod && !name.StartsWith(ExceptionDispatch, StringComparison.Ordinal))
                return name;
        }
        return null;
    }

    const string ExceptionDispatch = "System.Private.CoreLib!System.Runtime.EH.";

    static int Activities(string path, JsonLines w)
    {
        return WithTraceLog(path, log =>
        {
            var source = log.Events.GetSource();
            using var symbols = new SymbolReader(TextWriter.Null) { SymbolPath = "" };
            var computer = new StartStopActivityComputer(source, new ActivityComputer(source, symbols));
            var started = new List<(StartStopActivity Activity, string Provider, int Thread)>();
            var stopped = new HashSet<StartStopActivity>();
            computer.Start += (activity, data) => started.Add((activity, data.ProviderName, data.ThreadID));
            computer.Stop += (activity, data) => stopped.Add(activity);
            var ties = new SameTimeStartStops();
            source.AllEvents += ties.See;
            source.Process();
            foreach (var (a, provider, thread) in started)
            {
                w.Begin();
                w.Str("provider", provider);
                w.Str("name", a.TaskName);
                w.Str("activity_id", a.ActivityID.ToString("D"));
                w.Str("parent_activity_id", a.Creator?.ActivityID.ToString("D"));
                w.Int("thread", thread);
                w.Num("start_relative_ms", a.StartTimeRelativeMSec);
                w.Num("duration_ms", a.DurationMSec);
                w.Bool("is_complete", stopped.Contains(a));
                w.End();
            }
            ties.Write(w);
            return 0;
        });
    }

    /// Starts and Stops of one activity id on two threads at the same timestamp. TraceEvent takes
    /// events of equal time from its heap of thread queues in an order that hangs on the heap's
    /// history; ntidx keeps file order. When both events name the same id (the runtime's
    /// ExceptionCatch events all carry the zero id of a thread outside any activity) the two orders
    /// pair them differently, so the comparer needs to know where this happened
    /// (docs/conformance.md): {"tie":{"relative_ms","threads":[A,B],"activity_id"}} after the records.
    sealed class SameTimeStartStops
    {
        long _ts = long.MinValue;
        readonly List<(int Thread, int Pid, Guid Id)> _atTs = new();
        readonly List<(double Ms, int A, int B, Guid Id)> _ties = new();

        public void See(TraceEvent data)
        {
            if (data.Opcode != TraceEventOpcode.Start && data.Opcode != TraceEventOpcode.Stop)
                return;
            // of the runtime's Starts and Stops the computer takes only ExceptionCatch's
            if (data.ProviderGuid == ClrTraceEventParser.ProviderGuid && data.TaskName != "ExceptionCatch")
                return;
#pragma warning disable CS0618 // TimeStampQPC: the trace's own timestamp, what ties are made of
            long ts = data.TimeStampQPC;
#pragma warning restore CS0618
            if (ts != _ts)
            {
                _ts = ts;
                _atTs.Clear();
            }
            foreach (var (thread, pid, id) in _atTs)
                if (thread != data.ThreadID && pid == data.ProcessID && id == data.ActivityID)
                    _ties.Add((data.TimeStampRelativeMSec, thread, data.ThreadID, id));
            _atTs.Add((data.ThreadID, data.ProcessID, data.ActivityID));
        }

        public void Write(JsonLines w)
        {
            foreach (var (ms, a, b, id) in _ties)
                w.Raw("{\"tie\":{\"relative_ms\":" + ms.ToString("R", CultureInfo.InvariantCulture) + ",\"threads\":[" +
                      a.ToString(CultureInfo.InvariantCulture) + "," + b.ToString(CultureInfo.InvariantCulture) +
                      "],\"activity_id\":\"" + id.ToString("D") + "\"}}");
        }
    }

    // ---- allocations and contention: the events as TraceEvent's runtime parser reads them --------

    static int Alloc(string path, JsonLines w)
    {
        var totals = new Dictionary<(string, GCAllocationKind), long[]>();
        using (var source = new EventPipeEventSource(path))
        {
            source.Clr.GCAllocationTick += data =>
            {
                var key = (data.TypeName, data.AllocationKind);
                if (!totals.TryGetValue(key, out var t))
                    totals[key] = t = new long[2];
                t[0]++;
                t[1] += data.AllocationAmount64;
            };
            source.Process();
        }
        foreach (var kv in totals.OrderBy(kv => kv.Key.Item1, StringComparer.Ordinal).ThenBy(kv => kv.Key.Item2))
        {
            w.Begin();
            w.Str("type_name", kv.Key.Item1);
            w.Str("kind", kv.Key.Item2.ToString());
            w.Int("count", kv.Value[0]);
            w.Int("bytes", kv.Value[1]);
            w.End();
        }
        return 0;
    }

    static int Contention(string path, JsonLines w)
    {
        // A wait: a thread's Contention/Start and its next Contention/Stop. Its length is the stop's
        // DurationNs where the runtime writes one (ContentionStop version 1 and later), else the stop's
        // time minus the start's. The lock is the start's LockID (version 2, .NET 8 and later; 0 before).
        var pending = new Dictionary<int, (double Time, ulong Lock)>();
        var waits = new Dictionary<(ulong, int), (long Count, double Total, double Max)>();
        using (var source = new EventPipeEventSource(path))
        {
            source.Clr.ContentionStart += data => pending[data.ThreadID] = (data.TimeStampRelativeMSec, data.LockID);
            source.Clr.ContentionStop += data =>
            {
                if (!pending.Remove(data.ThreadID, out var start))
                    return;
                double ms = data.Version >= 1 ? data.DurationNs / 1e6 : data.TimeStampRelativeMSec - start.Time;
                var key = (start.Lock, data.ThreadID);
                waits.TryGetValue(key, out var s);
                waits[key] = (s.Count + 1, s.Total + ms, Math.Max(s.Max, ms));
            };
            source.Process();
        }
        foreach (var kv in waits.OrderBy(kv => kv.Key.Item1).ThenBy(kv => kv.Key.Item2))
        {
            w.Begin();
            w.UInt("lock_id", kv.Key.Item1);
            w.Int("thread", kv.Key.Item2);
            w.Int("count", kv.Value.Count);
            w.Num("total_wait_ms", kv.Value.Total);
            w.Num("max_wait_ms", kv.Value.Max);
            w.End();
        }
        return 0;
    }
}

/// One JSON object per line, keys in the order written; strings and numbers as Program prints them.
sealed class JsonLines
{
    readonly TextWriter _out;
    readonly StringBuilder _b = new(256);
    bool _first;

    public JsonLines(TextWriter output) => _out = output;

    /// A line written as it is (already JSON).
    public void Raw(string line)
    {
        _out.Write(line);
        _out.Write('\n');
    }

    public void Begin()
    {
        _b.Clear().Append('{');
        _first = true;
    }

    public void End()
    {
        _b.Append('}');
        _out.Write(_b);
        _out.Write('\n');
    }

    StringBuilder Key(string key)
    {
        if (!_first)
            _b.Append(',');
        _first = false;
        Program.Str(_b, key);
        return _b.Append(':');
    }

    public void Str(string key, string? value)
    {
        Key(key);
        if (value == null)
            _b.Append("null");
        else
            Program.Str(_b, value);
    }

    public void Int(string key, long value) => Key(key).Append(value.ToString(CultureInfo.InvariantCulture));
    public void UInt(string key, ulong value) => Key(key).Append(value.ToString(CultureInfo.InvariantCulture));
    public void Num(string key, double value) => Program.Double(Key(key), value);
    public void Bool(string key, bool value) => Key(key).Append(value ? "true" : "false");
}
