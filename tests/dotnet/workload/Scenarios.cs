// The workload's one-off scenarios: every kind of record ntidx's analyses compute (issue 30), run once
// on the main thread while the workers run their rounds, so that each trace of the conformance run
// has them all for TraceEvent and ntidx to agree on:
//   - GCs of every generation and type: induced gen0, gen1 and gen2 (blocking: NonConcurrentGC), a
//     background gen2 (GC.Collect non-blocking) with ephemeral GCs inside it (ForegroundGC, from
//     allocating while it marks a large graph), and the reasons Induced, InducedNotForced (the
//     Optimized mode, GC.AddMemoryPressure), InducedCompacting, the aggressive mode (reason 17, which
//     TraceEvent's GCReason has no name for), AllocSmall and AllocLarge (allocation pressure). The
//     low-memory reasons (LowMemory, InducedLowMemory) come only from Windows' low-memory
//     notification: not reachable on Linux (docs/conformance.md). Server GC is the same workload
//     under DOTNET_gcServer=1 (tools/conformance.sh).
//   - tiered JIT: a small method called hot until it is rejitted at tier 1 (through the
//     instrumented tier of dynamic PGO), and a long loop entered once (on-stack replacement);
//   - exceptions of several types, each message thrown several times, from our code and from the
//     base library, a rethrow and a hardware fault (NullReferenceException);
//   - allocations of every kind: small, large (> 85,000 bytes) and pinned (GC.AllocateArray pinned);
//   - lock contention on a System.Threading.Lock (.NET 9) and on a Monitor;
//   - nested activities (four levels), one continued on another thread after an await, one never
//     stopped.
namespace Ntidx.Workload;

public sealed class WorkloadException : Exception
{
    public WorkloadException(string message) : base(message) { }
}

public static class Scenarios
{
    static readonly Lock NewGate = new();
    static readonly object OldGate = new();
    static object? _keep;
    static long _sink;

    public static void Run()
    {
        Gcs();
        TieredJit();
        Exceptions();
        Allocations();
        Locks();
        Activities();
    }

    // ---- GCs ---------------------------------------------------------------------------------------

    sealed class Node
    {
        public Node? Next;
        public object? Payload;
    }

    static void Gcs()
    {
        GC.Collect(0);
        GC.Collect(1);
        GC.Collect(2);
        GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);

        // A background GC long enough to see ephemeral GCs inside it: a graph of a million objects
        // to mark, and allocations while it runs.
        Node? head = null;
        for (int i = 0; i < 1_000_000; i++)
            head = new Node { Next = head, Payload = (i & 7) == 0 ? new byte[16] : null };
        _keep = head;
        GC.Collect(2, GCCollectionMode.Forced, blocking: false);
        var churn = new List<byte[]>();
        for (int i = 0; i < 40_000; i++)
        {
            churn.Add(new byte[512]);
            if (churn.Count > 2000)
                churn.Clear();
        }
        GC.Collect(2, GCCollectionMode.Optimized, blocking: false);
        GC.AddMemoryPressure(512L << 20);
        GC.RemoveMemoryPressure(512L << 20);
        GC.Collect(2, GCCollectionMode.Aggressive, blocking: true, compacting: true);
        _keep = null;

        // allocation pressure: gen0 budgets (AllocSmall) and the large object heap's (AllocLarge)
        var small = new List<object>();
        for (int i = 0; i < 400_000; i++)
        {
            small.Add(new byte[64 + i % 64]);
            if (small.Count > 20_000)
                small.Clear();
        }
        var large = new List<byte[]>();
        for (int i = 0; i < 200; i++)
        {
            large.Add(new byte[200_000]);
            if (large.Count > 20)
                large.Clear();
        }
        GC.KeepAlive(small);
        GC.KeepAlive(large);
    }

    // ---- tiered JIT --------------------------------------------------------------------------------

    static int Hot(int x) => (x * 31) ^ (x >> 3);

    static long Loop(int n)
    {
        long s = 0;
        for (int i = 0; i < n; i++)
            s += (i * 7) ^ (s >> 5);
        return s;
    }

    static void TieredJit()
    {
        // tier 0 -> instrumented -> tier 1: calls past the call-counting threshold, spread over more
        // than the tiering delay (100 ms) so that the background compiler promotes it
        long s = 0;
        for (int round = 0; round < 40; round++)
        {
            for (int i = 0; i < 200; i++)
                s += Hot(i + round);
            Thread.Sleep(10);
        }
        // on-stack replacement: a loop at tier 0 runs long enough to jump to optimized code
        s += Loop(20_000_000);
        Interlocked.Add(ref _sink, s);
    }

    // ---- exceptions --------------------------------------------------------------------------------

    static void Throw(string message) => throw new WorkloadException(message);

    static void Exceptions()
    {
        var map = new Dictionary<string, int> { ["present"] = 1 };
        for (int i = 0; i < 3; i++)
        {
            try { _sink += int.Parse("not a number"); } catch (FormatException) { }
            try { _sink += map["missing"]; } catch (KeyNotFoundException) { }
            try { Throw("custom failure"); } catch (WorkloadException) { }
            try { Throw("custom failure " + (i % 2)); } catch (WorkloadException) { }
        }
        try
        {
            try { Throw("rethrown"); }
            catch (WorkloadException) { throw; }
        }
        catch (WorkloadException) { }
        for (int i = 0; i < 2; i++)
        {
            try
            {
                string? nothing = i < 0 ? "never" : null;
                _sink += nothing!.Length;
            }
            catch (NullReferenceException) { }
        }
        try
        {
            try { Throw("inner"); }
            catch (WorkloadException e) { throw new InvalidOperationException("outer", e); }
        }
        catch (InvalidOperationException) { }
    }

    // ---- allocations -------------------------------------------------------------------------------

    static void Allocations()
    {
        // the pinned object heap: an allocation tick per ~100 KB allocated there
        var pinned = new List<byte[]>();
        for (int i = 0; i < 40; i++)
            pinned.Add(GC.AllocateArray<byte>(30_000, pinned: true));
        var strings = new List<string>();
        for (int i = 0; i < 20_000; i++)
            strings.Add(new string('s', 20 + i % 40));
        GC.KeepAlive(pinned);
        GC.KeepAlive(strings);
    }

    // ---- locks -------------------------------------------------------------------------------------

    static void Locks()
    {
        // three threads take turns holding each lock for a millisecond: the others block (a thread
        // that only spins before it gets the lock writes no contention events)
        var threads = new List<Thread>();
        for (int t = 0; t < 3; t++)
        {
            threads.Add(new Thread(() =>
            {
                for (int i = 0; i < 8; i++)
                {
                    lock (NewGate)
                    {
                        Thread.Sleep(1);
                        _sink++;
                    }
                }
            }) { Name = "lock-" + t });
            threads.Add(new Thread(() =>
            {
                for (int i = 0; i < 8; i++)
                {
                    lock (OldGate)
                    {
                        Thread.Sleep(1);
                        _sink--;
                    }
                }
            }) { Name = "monitor-" + t });
        }
        foreach (var t in threads)
            t.Start();
        foreach (var t in threads)
            t.Join();
    }

    // ---- activities --------------------------------------------------------------------------------

    static void Activities()
    {
        // Work > Request (TraceLogging) > Step > Wait, the Wait continued after an await on a
        // thread-pool thread: its Stop is written on another thread than its Start
        var log = WorkloadSource.Log;
        for (int i = 0; i < 3; i++)
        {
            log.WorkStart(1_000_000 + i, "outer " + i);
            TraceLoggingSource.Log.Request(i, () =>
            {
                log.StepStart(i);
                Task.Run(async () =>
                {
                    log.WaitStart(i);
                    await Task.Delay(2);
                    log.WaitStop(i);
                }).Wait();
                log.StepStop(i);
            });
            log.WorkStop(1_000_000 + i, i);
        }
    }

    /// A Start whose Stop never comes: the last thing the workload writes (an incomplete activity).
    public static void NeverStopped() => WorkloadSource.Log.WorkStart(-1, "never stopped");
}
