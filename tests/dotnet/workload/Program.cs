// The workload of ntidx's conformance run: a .NET 10 program that makes the runtime write the events
// real traces carry, so that ntidx can be held against TraceEvent on traces the real writer made.
//
//   workload [--threads N] [--iterations N] [--mb N --watch FILE] [--seconds S] [--forever]
//
// What it does, on N worker threads (default 4) plus the thread pool:
//   - the runtime's providers: allocations (GC/AllocationTick past every 100 KB), induced and
//     natural GCs, thrown and caught exceptions, lock contention, thread-pool work items and
//     timers, generic instantiations over new types (type loads), dynamic methods (JIT, loader);
//   - once, on the main thread, every kind of record ntidx's analyses compute (Scenarios.cs: GCs
//     of every generation and type, JIT tiers, exceptions, allocation kinds, contention, nested
//     activities);
//   - its own EventSources: "Ntidx-Workload" (manifest events with every parameter type
//     EventSource writes: all primitives, string, Guid, DateTime, IntPtr, byte[], enums, arrays,
//     opcodes, Start/Stop activities, a related activity id) and "Ntidx-TraceLogging"
//     (self-describing events through EventSource.Write: anonymous types, nested [EventData]
//     classes, arrays of them, decimal, TimeSpan, DateTimeOffset, nullable values, a bool last).
// The trace's size: --iterations N rounds per worker, or with --watch FILE, rounds until FILE (the
// trace the runtime or dotnet-trace streams out) reaches --mb megabytes; --forever runs until
// killed (the conformance run kills it mid-run for a truncated trace); --seconds caps the time.
// Every value is derived from the round number and the worker, so runs differ only in timing.
using System.Diagnostics.Tracing;
using System.Reflection.Emit;

namespace Ntidx.Workload;

public enum Color : byte { Red = 1, Green = 2, Blue = 3 }

[Flags]
public enum Access : ulong { None = 0, Read = 1, Write = 2, Execute = 0x100000000 }

[EventSource(Name = "Ntidx-Workload")]
public sealed class WorkloadSource : EventSource
{
    public static readonly WorkloadSource Log = new();

    public static class Tasks
    {
        public const EventTask Work = (EventTask)1;
        public const EventTask Message = (EventTask)2;
        public const EventTask Step = (EventTask)3;
        public const EventTask Wait = (EventTask)4;
    }

    public static class Opcodes
    {
        public const EventOpcode Custom = (EventOpcode)24;
        public const EventOpcode Other = (EventOpcode)42;
    }

    public static class Keywords
    {
        public const EventKeywords Data = (EventKeywords)1;
        public const EventKeywords Activity = (EventKeywords)2;
    }

    [Event(1, Keywords = Keywords.Data)]
    public void Primitives(bool b, byte u8, sbyte i8, char c, short i16, ushort u16, int i32, uint u32,
                           long i64, ulong u64, float f32, double f64)
    {
        if (IsEnabled())
            WriteEvent(1, b, u8, i8, c, i16, u16, i32, u32, i64, u64, f32, f64);
    }

    [Event(2, Keywords = Keywords.Data, Level = EventLevel.Verbose)]
    public void Strings(string text, string empty, string unicode, int after) => WriteEvent(2, text, empty, unicode, after);

    [Event(3, Keywords = Keywords.Data)]
    public void GuidTime(Guid id, DateTime when, IntPtr pointer)
    {
        if (IsEnabled())
            WriteEvent(3, id, when, pointer);
    }

    [Event(4, Keywords = Keywords.Data)]
    public void Bytes(byte[] data, int after) => WriteEvent(4, data, after);

    [Event(6, Keywords = Keywords.Data)]
    public void Enums(Color color, Access access, int after)
    {
        if (IsEnabled())
            WriteEvent(6, color, access, after);
    }

    [Event(7, Keywords = Keywords.Activity, Task = Tasks.Work, Opcode = EventOpcode.Start)]
    public void WorkStart(int item, string what) => WriteEvent(7, item, what);

    [Event(8, Keywords = Keywords.Activity, Task = Tasks.Work, Opcode = EventOpcode.Stop)]
    public void WorkStop(int item, long result) => WriteEvent(8, item, result);

    [Event(9, Keywords = Keywords.Data, Task = Tasks.Message, Opcode = EventOpcode.Send)]
    public void MessageSend(Guid relatedActivityId, int size)
    {
        if (IsEnabled())
            WriteEventWithRelatedActivityId(9, relatedActivityId, size);
    }

    [Event(10, Keywords = Keywords.Data, Task = Tasks.Message, Opcode = EventOpcode.Receive)]
    public void MessageReceive(int size) => WriteEvent(10, size);

    [Event(11, Keywords = Keywords.Data, Opcode = Opcodes.Custom)]
    public void Tagged(int value) => WriteEvent(11, value);

    [Event(12, Keywords = Keywords.Data, Opcode = Opcodes.Other, Version = 3)]
    public void Versioned(long value, string note) => WriteEvent(12, value, note);

    [Event(13, Keywords = Keywords.Data, Level = EventLevel.Warning)]
    public void Empty() => WriteEvent(13);

    [Event(14, Keywords = Keywords.Data)]
    public void Large(string blob, int length) => WriteEvent(14, blob, length);

    // Activities nested in Work (another task name: EventSource stops an activity of the same name
    // when a new one starts inside it, unless it is declared recursive)
    [Event(15, Keywords = Keywords.Activity, Task = Tasks.Step, Opcode = EventOpcode.Start)]
    public void StepStart(int step) => WriteEvent(15, step);

    [Event(16, Keywords = Keywords.Activity, Task = Tasks.Step, Opcode = EventOpcode.Stop)]
    public void StepStop(int step) => WriteEvent(16, step);

    [Event(17, Keywords = Keywords.Activity, Task = Tasks.Wait, Opcode = EventOpcode.Start)]
    public void WaitStart(int step) => WriteEvent(17, step);

    [Event(18, Keywords = Keywords.Activity, Task = Tasks.Wait, Opcode = EventOpcode.Stop)]
    public void WaitStop(int step) => WriteEvent(18, step);
}

[EventData]
public class Point
{
    public int X { get; set; }
    public int Y { get; set; }
}

[EventData]
public class Shape
{
    public string Name { get; set; } = "";
    public Point Origin { get; set; } = new();
    public Point[] Corners { get; set; } = Array.Empty<Point>();
    public double Area { get; set; }
}

[EventData]
public class Order
{
    public long Id { get; set; }
    public string Customer { get; set; } = "";
    public decimal Amount { get; set; }
    public Shape Package { get; set; } = new();
    public int[] Quantities { get; set; } = Array.Empty<int>();
    public byte[] Signature { get; set; } = Array.Empty<byte>();
    public Guid Tracking { get; set; }
    public DateTime Placed { get; set; }
    public TimeSpan Wait { get; set; }
    public DateTimeOffset Promised { get; set; }
    public Color Color { get; set; }
    public bool Paid { get; set; }
    public char Grade { get; set; }
    public float Weight { get; set; }
    public ushort Priority { get; set; }
    public sbyte Delta { get; set; }
    public ulong Flags { get; set; }
}

public sealed class TraceLoggingSource : EventSource
{
    public static readonly TraceLoggingSource Log = new();

    private TraceLoggingSource() : base("Ntidx-TraceLogging", EventSourceSettings.EtwSelfDescribingEventFormat) { }

    // Arrays are written only in the self-describing format (a manifest EventSource refuses them).
    [Event(1, Keywords = (EventKeywords)1)]
    public void Arrays(int[] ints, long[] longs, double[] doubles, short[] shorts, UIntPtr upointer)
    {
        if (IsEnabled())
            WriteEvent(1, ints, longs, doubles, shorts, upointer);
    }

    public void Emit(int round, int worker)
    {
        if (!IsEnabled())
            return;
        var order = Data.MakeOrder(round, worker);
        Write("Order", new EventSourceOptions { Level = EventLevel.Informational, Keywords = (EventKeywords)1 }, order);
        Write("Point", new Point { X = round, Y = -worker });
        Write("Anonymous", new
        {
            Round = round,
            Worker = worker,
            Name = "w" + worker,
            Ratio = round / 7.0,
            Nested = new { A = (byte)round, B = (long)round * 1000003, C = new[] { 1.5f, -2.5f, (float)round } },
            Maybe = round % 2 == 0 ? (int?)round : null,
            Pair = new KeyValuePair<string, int>("k" + round % 5, round),
        });
        Write("Batch", new EventSourceOptions { Opcode = EventOpcode.Info },
              new { Items = new[] { new Point { X = 1, Y = 2 }, new Point { X = round, Y = worker } }, Count = 2 });
        // A bool last: EventSource writes it as one byte under metadata that says Boolean (four bytes).
        // (TraceEvent misreads the fields after a bool that is not last, so the comparison has none.)
        Write("Flagged", new { Name = "w" + worker, Count = round, Ratio = round / 4.0, Ok = round % 2 == 0 });
    }

    public void Request(int round, Action body)
    {
        if (!IsEnabled())
        {
            body();
            return;
        }
        var start = new EventSourceOptions { Opcode = EventOpcode.Start, Keywords = (EventKeywords)2 };
        var stop = new EventSourceOptions { Opcode = EventOpcode.Stop, Keywords = (EventKeywords)2 };
        EventActivityOptions none = EventActivityOptions.None;
        start.ActivityOptions = none;
        Write("Request", start, new { Round = round, Path = "/api/item/" + round });
        body();
        Write("Request", stop, new { Round = round, Status = 200 + round % 3 });
    }
}

public static class Data
{
    public static Order MakeOrder(int round, int worker)
    {
        var shape = new Shape
        {
            Name = "box" + (round % 13),
            Origin = new Point { X = round, Y = worker },
            Corners = Enumerable.Range(0, 1 + round % 4).Select(i => new Point { X = i, Y = i * round }).ToArray(),
            Area = round * 0.25,
        };
        return new Order
        {
            Id = (long)round << 20 | (uint)worker,
            Customer = "customer-" + round % 97 + "-\u00e9\u4e2d",
            Amount = round * 1.01m,
            Package = shape,
            Quantities = Enumerable.Range(0, round % 6).ToArray(),
            Signature = Enumerable.Range(0, round % 17).Select(i => (byte)(i * 31 + round)).ToArray(),
            Tracking = Guid(round, worker),
            Placed = new DateTime(2024, 1, 1, 0, 0, 0, DateTimeKind.Utc).AddSeconds(round),
            Wait = TimeSpan.FromMilliseconds(round * 3),
            Promised = new DateTimeOffset(2025, 6, 1, 12, 0, 0, TimeSpan.Zero).AddMinutes(round),
            Color = (Color)(1 + round % 3),
            Paid = round % 2 == 1,
            Grade = (char)('A' + round % 5),
            Weight = round * 0.5f,
            Priority = (ushort)(round % 65536),
            Delta = (sbyte)(round % 256 - 128),
            Flags = (ulong)round * 0x9E3779B97F4A7C15UL,
        };
    }

    public static Guid Guid(int round, int worker)
    {
        Span<byte> b = stackalloc byte[16];
        for (int i = 0; i < 16; i++)
            b[i] = (byte)(round * 7 + worker * 13 + i * 29);
        return new Guid(b);
    }
}

public class Holder<T>
{
    public T? Value;
    public override string ToString() => typeof(T).Name + ":" + Value;
}

public static class Program
{
    static readonly object Gate = new();
    static readonly Lock NewGate = new();
    static long _shared;
    static volatile bool _stop;
    static readonly Type[] TypeArgs =
    {
        typeof(int), typeof(long), typeof(string), typeof(Guid), typeof(DateTime), typeof(Point), typeof(Shape),
        typeof(Order), typeof(byte), typeof(double), typeof(Color), typeof(Access), typeof(decimal), typeof(char),
        typeof(TimeSpan), typeof(Uri), typeof(Version), typeof(object), typeof(short), typeof(float),
    };

    public static int Main(string[] args)
    {
        int threads = 4, iterations = 200, seconds = 3600;
        long mb = 0;
        string? watch = null;
        bool forever = false;
        for (int i = 0; i < args.Length; i++)
        {
            switch (args[i])
            {
                case "--threads": threads = int.Parse(args[++i]); break;
                case "--iterations": iterations = int.Parse(args[++i]); break;
                case "--mb": mb = long.Parse(args[++i]); break;
                case "--watch": watch = args[++i]; break;
                case "--seconds": seconds = int.Parse(args[++i]); break;
                case "--forever": forever = true; break;
                default:
                    Console.Error.WriteLine($"workload: unknown argument {args[i]}");
                    return 2;
            }
        }
        if (mb > 0 && watch == null)
        {
            Console.Error.WriteLine("workload: --mb needs --watch FILE (the trace being written)");
            return 2;
        }

        foreach (EventSource source in new EventSource[] { WorkloadSource.Log, TraceLoggingSource.Log })
        {
            if (source.ConstructionException != null)
            {
                Console.Error.WriteLine($"workload: {source.Name}: {source.ConstructionException.Message}");
                return 1;
            }
        }
        var deadline = DateTime.UtcNow.AddSeconds(seconds);
        var workers = new Thread[threads];
        long rounds = 0;
        for (int w = 0; w < threads; w++)
        {
            int worker = w;
            workers[w] = new Thread(() =>
            {
                for (int round = 0; !_stop; round++)
                {
                    if (mb == 0 && !forever && round >= iterations)
                        break;
                    Round(round, worker);
                    Interlocked.Increment(ref rounds);
                }
            }) { Name = "worker-" + w, IsBackground = true };
            workers[w].Start();
        }
        // Every kind of record the analyses compute, once, while the workers run (Scenarios.cs).
        Scenarios.Run();
        // The size watch: the trace file grows while the runtime (streaming) or dotnet-trace writes it.
        while (workers.Any(t => t.IsAlive))
        {
            Thread.Sleep(50);
            if (DateTime.UtcNow > deadline)
                _stop = true;
            if (watch != null && mb > 0 && File.Exists(watch) && new FileInfo(watch).Length >= mb * 1024 * 1024)
                _stop = true;
        }
        foreach (var t in workers)
            t.Join();
        Scenarios.NeverStopped();
        Console.Error.WriteLine($"workload: {rounds} rounds on {threads} threads, shared={_shared}");
        return 0;
    }

    static void Round(int round, int worker)
    {
        var log = WorkloadSource.Log;
        int seed = round * 31 + worker;
        log.Primitives(round % 2 == 0, (byte)seed, (sbyte)-seed, (char)('a' + seed % 26), (short)-seed, (ushort)seed,
                       -seed * 1000, (uint)seed * 3000000000u / 7u, -(long)seed * 1000000007L, (ulong)seed * 0x9E3779B97F4A7C15UL,
                       seed / 3.0f, seed / 7.0);
        log.Primitives(false, 0, sbyte.MinValue, '\u00e9', short.MinValue, ushort.MaxValue, int.MinValue, uint.MaxValue,
                       long.MinValue, ulong.MaxValue, float.Epsilon, double.MaxValue);
        log.Strings("round " + round + " worker " + worker, "", "\u4e2d\u6587 \u00e9t\u00e9 \U0001F600 \"q\" \\ \t", seed);
        log.GuidTime(Data.Guid(round, worker), new DateTime(2020, 2, 29, 23, 59, 59, DateTimeKind.Utc).AddTicks(seed * 12345L),
                     (IntPtr)(seed * 4096L));
        log.Bytes(Enumerable.Range(0, seed % 40).Select(i => (byte)(i + seed)).ToArray(), seed);
        TraceLoggingSource.Log.Arrays(Enumerable.Range(0, round % 7).Select(i => i * seed).ToArray(), new[] { long.MinValue, (long)seed, long.MaxValue },
                   new[] { 0.5, -seed / 3.0 }, new short[] { (short)seed, -1 },
                   (UIntPtr)(ulong)(seed * 65536L));
        log.Enums((Color)(1 + seed % 3), (Access)(seed % 2 == 0 ? 3UL : 0x100000001UL), seed);
        log.Tagged(seed);
        log.Versioned(seed * 11L, "v3");
        log.Empty();
        if (round % 10 == 0)
            log.Large(new string((char)('A' + worker % 26), 500 + seed % 3000), seed);

        // An activity: EventSource assigns the Start/Stop pair an activity id (TplEventSource's
        // TasksFlowActivityIds keyword, enabled by the session, turns the tracker on).
        log.WorkStart(seed, "item " + seed);
        var related = Data.Guid(seed, 99);
        log.MessageSend(related, seed % 1000);
        log.MessageReceive(seed % 1000);
        TraceLoggingSource.Log.Request(round, () => TraceLoggingSource.Log.Emit(round, worker));
        log.WorkStop(seed, (long)seed * seed);

        // Allocations: an allocation tick every ~100 KB; some survive a while (gen1/gen2 GCs).
        var keep = new List<object>();
        for (int i = 0; i < 40; i++)
        {
            keep.Add(new byte[1024 + (seed + i) % 4096]);
            keep.Add(new string('x', 64 + i));
            keep.Add(new Holder<int> { Value = i });
        }
        if (round % 5 == 0)
            keep.Add(new byte[90_000]); // large object heap
        if (round % 50 == 49 && worker == 0)
            GC.Collect(round % 150 == 149 ? 2 : 0);

        // Exceptions, thrown and caught.
        if (round % 3 == 0)
        {
            try
            {
                Thrower(seed);
            }
            catch (InvalidOperationException) { }
            catch (ArgumentException) { }
        }

        // Contention: workers fight over one Monitor and one System.Threading.Lock (.NET 9).
        for (int i = 0; i < 4; i++)
        {
            lock (Gate)
            {
                _shared += seed;
                Thread.SpinWait(2000);
            }
            lock (NewGate)
            {
                _shared -= seed;
                Thread.SpinWait(1000);
            }
        }

        // The thread pool: work items and a short task chain.
        if (round % 2 == 0)
        {
            var done = new CountdownEvent(4);
            for (int i = 0; i < 4; i++)
                ThreadPool.QueueUserWorkItem(s => { Interlocked.Add(ref _shared, (int)s!); done.Signal(); }, i);
            Task.Run(() => Task.Delay(1).ContinueWith(_ => Interlocked.Increment(ref _shared))).Wait();
            done.Wait();
        }

        // Type loads and JIT: a generic type over a type argument and a fresh dynamic method.
        if (round < 200 || round % 100 == 0)
        {
            var arg = TypeArgs[(round + worker) % TypeArgs.Length];
            var holder = Activator.CreateInstance(typeof(Holder<>).MakeGenericType(typeof(Holder<>).MakeGenericType(arg)));
            _ = holder!.ToString();
            if (round % 20 == 0)
                JitOne(seed);
        }
        GC.KeepAlive(keep);
    }

    static void Thrower(int seed)
    {
        if (seed % 2 == 0)
            throw new InvalidOperationException("workload exception " + seed);
        throw new ArgumentException("bad argument " + seed, "seed");
    }

    static void JitOne(int seed)
    {
        var m = new DynamicMethod("Dyn" + seed, typeof(int), new[] { typeof(int) });
        var il = m.GetILGenerator();
        il.Emit(OpCodes.Ldarg_0);
        il.Emit(OpCodes.Ldc_I4, seed);
        il.Emit(OpCodes.Add);
        il.Emit(OpCodes.Ret);
        var f = (Func<int, int>)m.CreateDelegate(typeof(Func<int, int>));
        Interlocked.Add(ref _shared, f(1));
    }
}
