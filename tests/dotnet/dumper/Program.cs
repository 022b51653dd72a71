// The reference dumper of ntidx's conformance run: what TraceEvent (PerfView's reader) sees in a
// .nettrace, printed per event as `ntidx dump --format jsonl` prints it, so that a comparer
// (tools/conformance_compare.py) can hold the two side by side.
//
//   dumper dump TRACE            one JSON object per event, in TraceEvent's dispatch order:
//                                {"ts","provider","event_id","event_name","version","thread","fields"}
//                                then {"summary":{"events":N,"lost":N}}; when TraceEvent throws,
//                                {"error":"..."} after the events it dispatched, and exit status 1
//   dumper pass TRACE            the full pass benchmark: EventPipeEventSource.Process() with a
//                                handler that reads every payload value; prints events and seconds
//   dumper etlx TRACE ETLX FROM_MS TO_MS
//                                the random-access route: TraceLog conversion of TRACE to ETLX (time,
//                                size), then the events of [FROM_MS, TO_MS) (milliseconds from the
//                                trace header's sync time, TraceEvent's TimeStampRelativeMSec)
//   dumper names                 every event TraceEvent's runtime parsers name:
//                                "provider<TAB>id<TAB>name<TAB>opcode of its template"
//   dumper samples TRACE ETLX    TraceEvent's CPU samples per frame, as dotnet-trace's speedscope
//                                export builds them (TraceLog, SampleProfilerThreadTimeComputer):
//                                {"samples":N,"frames":{"name":[inclusive,self],...}}, each sample
//                                counted once (its metric, thread time, is not a count); self is
//                                the innermost module!method frame
//   dumper window TRACE FROM TO  the streaming route to the same window: Process() from the start,
//                                stopped at the first event at or past TO
//
// Names are TraceEvent's: every parser PerfView registers for a .nettrace (runtime, rundown,
// private runtime, stress, sample profiler, one-collect's Universal.System and Universal.Events) and, for everything else, the metadata in the trace
// (TraceEvent's dynamic parser). Values: integers and enums as numbers, floating point as
// round-trip numbers ("NaN", "Infinity" as strings), Guid "D", DateTime as UTC ISO-8601 with 7
// decimals, byte[] and arrays as JSON arrays, structs as objects: as ntidx prints them.
using System.Collections;
using System.Diagnostics;
using System.Globalization;
using System.Text;
using Microsoft.Diagnostics.Tracing;
using Microsoft.Diagnostics.Tracing.Etlx;
using Microsoft.Diagnostics.Tracing.EventPipe;
using Microsoft.Diagnostics.Tracing.Parsers;
using Microsoft.Diagnostics.Tracing.Parsers.Clr;
using Microsoft.Diagnostics.Tracing.Stacks;
using Microsoft.Diagnostics.Symbols;

namespace Ntidx.Dumper;

public static class Program
{
#pragma warning disable CS0618 // TimeStampQPC: "discouraged", but it is the trace's own timestamp, which ntidx prints
    public static int Main(string[] args)
    {
        if (args.Length == 1 && args[0] == "names")
            return Names();
        if (args.Length < 2)
            return Usage();
        try
        {
            if (Analyses.Names.Contains(args[0]))
                return Analyses.Run(args[0], args[1], args[2..]);
            switch (args[0])
            {
                case "dump": return Dump(args[1]);
                case "pass": return Pass(args[1]);
                case "etlx" when args.Length == 5:
                    return Etlx(args[1], args[2], double.Parse(args[3], CultureInfo.InvariantCulture),
                                double.Parse(args[4], CultureInfo.InvariantCulture));
                case "window" when args.Length == 4: return Window(args[1], long.Parse(args[2]), long.Parse(args[3]));
                case "samples" when args.Length == 3: return Samples(args[1], args[2]);
                default: return Usage();
            }
        }
        catch (Exception e) when (args[0] != "dump")
        {
            Console.Error.WriteLine($"dumper: {args[1]}: {e.GetType().Name}: {e.Message}");
            return 1;
        }
    }

    /// TraceEvent's names of the runtime's events, from its parsers' templates (EnumerateTemplates is
    /// not public: reached by reflection). The runtime's events are named by these parsers, not by
    /// the trace, so this is the whole specification of their names, used or not in a trace.
    static int Names()
    {
        using var source = new EventPipeEventSource(new MemoryStream());
        var parsers = new TraceEventParser[]
        {
            source.Clr, new ClrRundownTraceEventParser(source), new ClrPrivateTraceEventParser(source),
            new ClrStressTraceEventParser(source), new SampleProfilerTraceEventParser(source),
            new UniversalSystemTraceEventParser(source),
        };
        var enumerate = typeof(TraceEventParser).GetMethod("EnumerateTemplates",
            System.Reflection.BindingFlags.NonPublic | System.Reflection.BindingFlags.Instance)!;
        var rows = new SortedSet<string>(StringComparer.Ordinal);
        foreach (var parser in parsers)
        {
            Action<TraceEvent> add = t => rows.Add($"{t.ProviderName}\t{(int)t.ID}\t{t.EventName}\t{(int)t.Opcode}");
            enumerate.Invoke(parser, new object?[] { null, add });
        }
        foreach (var row in rows)
            Console.WriteLine(row);
        return 0;
    }

    static int Usage()
    {
        Console.Error.WriteLine("usage: dumper dump TRACE | names | pass TRACE | etlx TRACE ETLX FROM_MS TO_MS | " +
                                "window TRACE FROM TO | samples TRACE ETLX | " +
                                "gc|jit|cpu|exceptions|alloc|contention|activities TRACE (cpu: [--by-thread])");
        return 2;
    }

    /// Every parser PerfView uses for a .nettrace (their templates decode the runtime's events), the
    /// trace's own metadata for the rest (the dynamic parser), and the handler on AllEvents, which
    /// TraceEvent calls once for every event it dispatches, whichever template decoded it.
    static void Subscribe(TraceEventDispatcher source, Action<TraceEvent> handler)
    {
        Action<TraceEvent> none = _ => { };
        source.Clr.All += none;
        source.Clr.GCDynamicEvent.All += none;
        new ClrRundownTraceEventParser(source).All += none;
        new ClrPrivateTraceEventParser(source).All += none;
        new ClrStressTraceEventParser(source).All += none;
        new SampleProfilerTraceEventParser(source).All += none;
        // The trace's own metadata before the Universal parsers: they answer for events of any provider
        // they are asked about, and asked first they left every EventSource event unnamed
        // ("Provider(guid)/EventID(1)", no fields).
        source.Dynamic.All += none;
        // PerfView's TraceLog reads V6 traces of one-collect (dotnet-trace collect-linux) with these
        new UniversalSystemTraceEventParser(source).All += none;
        new UniversalEventsTraceEventParser(source).All += none;
        source.AllEvents += handler;
    }

    static int Dump(string path)
    {
        var stdout = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false), 1 << 20);
        var line = new StringBuilder(1024);
        long events = 0;
        int rc = 0;
        EventPipeEventSource? source = null;
        try
        {
            source = new EventPipeEventSource(path);
            Subscribe(source, data =>
            {
                line.Clear();
                WriteEvent(line, data);
                stdout.Write(line);
                stdout.Write('\n');
                events++;
            });
            source.Process();
            line.Clear();
            line.Append("{\"summary\":{\"events\":").Append(events).Append(",\"lost\":").Append(source.EventsLost).Append("}}");
            stdout.Write(line);
            stdout.Write('\n');
        }
        catch (Exception e)
        {
            line.Clear();
            line.Append("{\"error\":");
            Str(line, e.GetType().Name + ": " + e.Message);
            line.Append(",\"events\":").Append(events).Append('}');
            stdout.Write(line);
            stdout.Write('\n');
            rc = 1;
        }
        finally
        {
            source?.Dispose();
        }
        stdout.Flush();
        return rc;
    }

    static void WriteEvent(StringBuilder b, TraceEvent data)
    {
        b.Append("{\"ts\":").Append(data.TimeStampQPC);
        b.Append(",\"provider\":");
        Str(b, data.ProviderName);
        b.Append(",\"event_id\":").Append((int)data.ID);
        b.Append(",\"event_name\":");
        Str(b, data.EventName);
        b.Append(",\"version\":").Append(data.Version);
        b.Append(",\"thread\":").Append(data.ThreadID);
        string[] names;
        try
        {
            names = data.PayloadNames ?? Array.Empty<string>();
        }
        catch (Exception e)
        {
            b.Append(",\"field_error\":");
            Str(b, e.Message);
            b.Append('}');
            return;
        }
        var fields = new StringBuilder();
        fields.Append('{');
        for (int i = 0; i < names.Length; i++)
        {
            if (i > 0)
                fields.Append(',');
            Str(fields, names[i]);
            fields.Append(':');
            try
            {
                Value(fields, data.PayloadValue(i), 0);
            }
            catch (Exception e)
            {
                b.Append(",\"field_error\":");
                Str(b, $"{names[i]}: {e.GetType().Name}: {e.Message}");
                b.Append('}');
                return;
            }
        }
        fields.Append('}');
        b.Append(",\"fields\":").Append(fields).Append('}');
    }

    static void Value(StringBuilder b, object? v, int depth)
    {
        if (depth > 64)
            throw new InvalidDataException("nesting too deep");
        switch (v)
        {
            case null: b.Append("null"); break;
            case bool x: b.Append(x ? "true" : "false"); break;
            case string s: Str(b, s); break;
            case char c: Str(b, c.ToString()); break;
            case Enum e:
                if (Convert.GetTypeCode(e) is TypeCode.UInt64 or TypeCode.UInt32 or TypeCode.UInt16 or TypeCode.Byte)
                    b.Append(Convert.ToUInt64(e, CultureInfo.InvariantCulture));
                else
                    b.Append(Convert.ToInt64(e, CultureInfo.InvariantCulture));
                break;
            case float f: Double(b, f); break;
            case double d: Double(b, d); break;
            case sbyte or short or int or long: b.Append(Convert.ToInt64(v, CultureInfo.InvariantCulture)); break;
            case byte or ushort or uint or ulong: b.Append(Convert.ToUInt64(v, CultureInfo.InvariantCulture)); break;
            case IntPtr p: b.Append((long)p); break;
            case UIntPtr p: b.Append((ulong)p); break;
            case decimal m: b.Append(m.ToString(CultureInfo.InvariantCulture)); break;
            case Guid g: Str(b, g.ToString("D")); break;
            case DateTime t:
                Str(b, t.ToUniversalTime().ToString("yyyy-MM-dd'T'HH:mm:ss.fffffff'Z'", CultureInfo.InvariantCulture));
                break;
            case IDictionary<string, object> obj:
            {
                b.Append('{');
                bool first = true;
                foreach (var kv in obj)
                {
                    if (!first)
                        b.Append(',');
                    first = false;
                    Str(b, kv.Key);
                    b.Append(':');
                    Value(b, kv.Value, depth + 1);
                }
                b.Append('}');
                break;
            }
            case IEnumerable list:
            {
                b.Append('[');
                bool first = true;
                foreach (var item in list)
                {
                    if (!first)
                        b.Append(',');
                    first = false;
                    Value(b, item, depth + 1);
                }
                b.Append(']');
                break;
            }
            default: Str(b, v.ToString() ?? ""); break;
        }
    }

    internal static void Double(StringBuilder b, double d)
    {
        if (double.IsNaN(d))
            b.Append("\"NaN\"");
        else if (double.IsInfinity(d))
            b.Append(d > 0 ? "\"Infinity\"" : "\"-Infinity\"");
        else
            b.Append(d.ToString("R", CultureInfo.InvariantCulture));
    }

    /// A JSON string; everything outside printable ASCII as \uXXXX (UTF-16 code units as they are).
    internal static void Str(StringBuilder b, string? s)
    {
        b.Append('"');
        foreach (char c in s ?? "")
        {
            if (c == '"' || c == '\\')
                b.Append('\\').Append(c);
            else if (c < 0x20 || c > 0x7e)
                b.Append("\\u").Append(((int)c).ToString("x4"));
            else
                b.Append(c);
        }
        b.Append('"');
    }

    // ---- benchmarks (tools/bench/conformance_bench.sh) ----

    static int Pass(string path)
    {
        var sw = Stopwatch.StartNew();
        long events = 0, values = 0;
        using (var source = new EventPipeEventSource(path))
        {
            Subscribe(source, data =>
            {
                events++;
                var names = data.PayloadNames;
                for (int i = 0; i < names.Length; i++)
                    if (data.PayloadValue(i) != null)
                        values++;
            });
            source.Process();
        }
        Console.WriteLine($"traceevent pass: {events} events, {values} values, {sw.Elapsed.TotalSeconds:F3} s");
        return 0;
    }

    static int Etlx(string path, string etlx, double fromMs, double toMs)
    {
        var sw = Stopwatch.StartNew();
        TraceLog.CreateFromEventPipeDataFile(path, etlx);
        double convert = sw.Elapsed.TotalSeconds;
        long size = new FileInfo(etlx).Length;
        sw.Restart();
        long events = 0;
        using (var log = new TraceLog(etlx))
        {
            double open = sw.Elapsed.TotalSeconds;
            sw.Restart();
            // TraceLog's own window: it seeks to the first event at fromMs.
            foreach (var e in log.Events.FilterByTime(fromMs, toMs))
            {
                if (e.TimeStampRelativeMSec >= toMs)
                    break;
                events++;
                var names = e.PayloadNames;
                for (int i = 0; i < names.Length; i++)
                    _ = e.PayloadValue(i);
            }
            Console.WriteLine($"traceevent etlx: convert {convert:F3} s, etlx {size} bytes, open {open:F6} s, " +
                              $"window {events} events {sw.Elapsed.TotalSeconds:F6} s");
        }
        return 0;
    }

    static int Samples(string path, string etlx)
    {
        TraceLog.CreateFromEventPipeDataFile(path, etlx);
        using var log = new TraceLog(etlx);
        var stacks = new MutableTraceEventStackSource(log);
        using var symbols = new SymbolReader(TextWriter.Null) { SymbolPath = "" };
        new SampleProfilerThreadTimeComputer(log, symbols).GenerateThreadTimeStacks(stacks);
        var frames = new SortedDictionary<string, long[]>(StringComparer.Ordinal);
        long n = 0;
        var seen = new HashSet<string>();
        stacks.ForEach(sample =>
        {
            n++;
            seen.Clear();
            bool leaf = true;
            for (var i = sample.StackIndex; i != StackSourceCallStackIndex.Invalid; i = stacks.GetCallerIndex(i))
            {
                string name = stacks.GetFrameName(stacks.GetFrameIndex(i), false);
                if (!frames.TryGetValue(name, out var c))
                    frames[name] = c = new long[2];
                if (seen.Add(name))
                    c[0]++;
                // self: the innermost code frame ("module!method"), not the computer's own
                // UNMANAGED_CODE_TIME / CPU_TIME leaves
                if (leaf && name.Contains('!'))
                {
                    c[1]++;
                    leaf = false;
                }
            }
        });
        var b = new StringBuilder();
        b.Append("{\"samples\":").Append(n).Append(",\"frames\":{");
        bool first = true;
        foreach (var kv in frames)
        {
            if (!first)
                b.Append(',');
            first = false;
            Str(b, kv.Key);
            b.Append(":[").Append(kv.Value[0]).Append(',').Append(kv.Value[1]).Append(']');
        }
        b.Append("}}");
        Console.WriteLine(b.ToString());
        return 0;
    }

    static int Window(string path, long from, long to)
    {
        var sw = Stopwatch.StartNew();
        long events = 0;
        using (var source = new EventPipeEventSource(path))
        {
            Subscribe(source, data =>
            {
                long ts = data.TimeStampQPC;
                if (ts >= to)
                {
                    source.StopProcessing();
                    return;
                }
                if (ts >= from)
                {
                    events++;
                    var names = data.PayloadNames;
                    for (int i = 0; i < names.Length; i++)
                        _ = data.PayloadValue(i);
                }
            });
            source.Process();
        }
        Console.WriteLine($"traceevent window: {events} events {sw.Elapsed.TotalSeconds:F6} s");
        return 0;
    }
}
