#!/usr/bin/env python3
"""ntidx export: each format checked against what its consumer expects.

usage: test_export.py NTIDX TRACES_DIR [TestClass ...]

- chrome: the Trace Event Format's JSON Object Format (the Perfetto UI and
  chrome://tracing): parses, required keys and types, one instant event per
  event of the same `ntidx query`, in order, with `ts` in microseconds since the
  sync time (checked against the query's ticks), names, categories, threads and
  args equal to the query's; thread_name metadata for V6 threads, process_name.
- speedscope: the structure speedscope's importer reads (profiles per thread;
  evented: opens and closes nested, at times that never go back; sampled:
  samples and weights of equal length; frame indices in range, root first),
  each sample at its time as the query gives it (the sampling interval long),
  sample counts per thread equal to the query's, units, frames named from the
  trace's method events, and named as TraceEvent names them (each frame's
  counts on the .NET Core 3.0 trace against TraceEvent's), an error instead of an empty profile when the
  window has no samples; and (SpeedscopeSchema) validation against the
  file-format schema the speedscope npm package publishes, with ajv
  (tests/export/schema: package.json + package-lock.json, install.sh).
- csv, jsonl: byte for byte what `ntidx query --format csv|jsonl` prints.
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "bench"))
import speedscope_compare  # noqa: E402  (spans() and samples_of(): an evented profile's samples)

NTIDX = None
TRACES = None
HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA_DIR = os.path.join(HERE, "schema")
GOLDEN = os.path.join(HERE, "..", "dotnet", "golden")
REAL = "only_managed_samples.nettrace"
SAMPLER = "Microsoft-DotNETCore-SampleProfiler"


def run(*args, check=True):
    p = subprocess.run([NTIDX, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if check and p.returncode != 0:
        raise AssertionError(f"ntidx {' '.join(args)} exited {p.returncode}: {p.stderr.decode(errors='replace')}")
    return p


class Workdir:
    """Traces (real ones by path, generated ones here) and their indexes in a temporary directory."""

    def __init__(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def path(self, name):
        return os.path.join(self.dir, name)

    def index_of(self, trace):
        return self.path(os.path.basename(trace) + ".ntidx")

    def generated(self, version):
        p = self.path(f"gen{version}.nettrace")
        if not os.path.exists(p):
            run("gen", "-o", p, "--format-version", str(version), "--events", "3000", "--threads", "4", "--seed", "7")
        return p

    def export(self, trace, fmt, *args, name=None):
        out = self.path(name or f"{os.path.basename(trace)}.{fmt}")
        run("export", trace, "--format", fmt, "-o", out, "--index", self.index_of(trace), *args)
        return out

    def query(self, trace, *args, fmt="jsonl", raw=False):
        out = run("query", trace, "--format", fmt, "--index", self.index_of(trace), *args).stdout
        if raw:
            return out
        return [json.loads(line) for line in out.splitlines()]

    def info(self, trace):
        return json.loads(run("info", trace, "--json").stdout)


WORK = None


def real(name):
    return os.path.join(TRACES, name)


def real_traces():
    return sorted(os.path.join(TRACES, f) for f in os.listdir(TRACES) if not f.endswith(".ntidx"))


def has_samples(trace):
    """Whether the trace has sample-profiler samples with a stack (the default speedscope export)."""
    return any(e["stack_id"] for e in WORK.query(trace, "--provider", SAMPLER, "--event", "0"))


def load(path):
    with open(path, "rb") as f:
        return json.loads(f.read().decode("utf-8"))  # strict UTF-8: a viewer's JSON.parse reads it so


def us(info, ticks):
    """What `ts` must be: microseconds since the sync time, from the query's raw ticks."""
    return (ticks - info["sync_ticks"]) * 1e6 / info["tick_frequency"]


class Chrome(unittest.TestCase):
    def check(self, trace, *window, v6_names=False):
        info = WORK.info(trace)
        out = WORK.export(trace, "chrome", *window, name=os.path.basename(trace) + "".join(window).replace("/", "_") + ".json")
        doc = load(out)
        for k in ("traceEvents", "displayTimeUnit", "otherData"):
            self.assertIn(k, doc)
        self.assertEqual(doc["displayTimeUnit"], "ms")
        self.assertIsInstance(doc["traceEvents"], list)
        events = [e for e in doc["traceEvents"] if e["ph"] != "M"]
        meta = [e for e in doc["traceEvents"] if e["ph"] == "M"]
        expected = WORK.query(trace, *window)
        self.assertEqual(len(events), len(expected), "one instant event per event of the query")
        self.assertEqual(doc["otherData"]["events"], len(expected))
        pid = info["process_id"]
        for e, q in zip(events, expected):
            for k in ("name", "cat", "ph", "s", "pid", "tid", "ts", "args"):
                self.assertIn(k, e)
            self.assertEqual(e["ph"], "i")
            self.assertEqual(e["s"], "t")
            self.assertIsInstance(e["ts"], (int, float))
            self.assertIsInstance(e["pid"], int)
            self.assertIsInstance(e["tid"], int)
            self.assertIsInstance(e["args"], dict)
            # ts: microseconds since the sync time, written to the nanosecond (%.3f)
            self.assertAlmostEqual(e["ts"], us(info, q["ts"]), delta=0.0006 + 1e-9 * abs(e["ts"]))
            self.assertEqual(e["name"], q["event_name"] or f"EventID({q['event_id']})")
            self.assertEqual(e["cat"], q["provider"])
            self.assertEqual(e["tid"], q["thread"])
            if not v6_names:
                self.assertEqual(e["pid"], pid)
            args = dict(e["args"])
            if q["stack_id"]:
                self.assertEqual(args.pop("stack_id"), q["stack_id"])
            if "fields" in q:
                self.assertEqual(args, q["fields"])
            else:
                self.assertEqual(args, {"field_error": q["field_error"]})
        ts = [e["ts"] for e in events]
        self.assertEqual(ts, sorted(ts), "time order")
        for m in meta:
            for k in ("name", "pid", "tid", "args"):
                self.assertIn(k, m)
            self.assertIn(m["name"], ("thread_name", "process_name"))
            self.assertIsInstance(m["args"]["name"], str)
            self.assertTrue(m["args"]["name"])
        return doc, events, meta

    def test_real_traces_whole(self):
        for trace in real_traces():
            with self.subTest(trace=os.path.basename(trace)):
                doc, events, meta = self.check(trace)
                self.assertFalse([m for m in meta if m["name"] == "thread_name"], "no thread names before V6")

    def test_ts_against_dump(self):
        # The unit check the other way round: `ntidx dump` (no index, no query) ticks to microseconds.
        trace = real(REAL)
        info = WORK.info(trace)
        dumped = [json.loads(line) for line in run("dump", trace, "--format", "jsonl", "--order", "time").stdout.splitlines()]
        doc = load(WORK.export(trace, "chrome", name="dump-check.json"))
        events = [e for e in doc["traceEvents"] if e["ph"] != "M"]
        self.assertEqual(len(events), len(dumped))
        for i in (0, 1, 2, len(dumped) // 2, len(dumped) - 1):
            d = dumped[i]
            self.assertAlmostEqual(events[i]["ts"], (d["ts"] - info["sync_ticks"]) / info["tick_frequency"] * 1e6,
                                   delta=0.001)
            self.assertEqual((events[i]["name"], events[i]["tid"]), (d["event_name"], d["thread"]))
        # 1 s after the sync time is 1,000,000 us: the first event at or after --from 1s
        win = load(WORK.export(trace, "chrome", "--from", "1s", name="from1s.json"))
        first = next(e for e in win["traceEvents"] if e["ph"] != "M")
        self.assertGreaterEqual(first["ts"], 1e6)
        self.assertLess(first["ts"], 1e6 + 10000)

    def test_window_and_filters(self):
        trace = real(REAL)
        for window in (("--from", "1s", "--to", "2500ms"), ("--from", "10.4s"), ("--to", "3ms"),
                       ("--event", "Thread/Sample", "--from", "5s", "--to", "6s"),
                       ("--provider", "Microsoft-Windows-DotNETRuntime", "--thread", "1464618", "--to", "1s")):
            with self.subTest(window=window):
                doc, events, meta = self.check(trace, *window)
                self.assertTrue(events)

    def test_process_name(self):
        # The ProcessInfo event of the rundown names the program, found also for a window far before it.
        for window in ((), ("--from", "1s", "--to", "2s")):
            doc, events, meta = self.check(real(REAL), *window)
            names = [m for m in meta if m["name"] == "process_name"]
            self.assertEqual(len(names), 1)
            self.assertEqual(names[0]["args"]["name"], "NoNativeStacks")
            self.assertEqual(names[0]["pid"], 60178)

    def test_v6_thread_names(self):
        trace = WORK.generated(6)
        doc, events, meta = self.check(trace, v6_names=True)
        named = {(m["pid"], m["tid"]): m["args"]["name"] for m in meta if m["name"] == "thread_name"}
        threads = {(e["pid"], e["tid"]) for e in events}
        self.assertTrue(threads)
        self.assertEqual(set(named), threads, "every V6 thread of the trace is named once")
        self.assertEqual(len([m for m in meta if m["name"] == "thread_name"]), len(named))
        for name in named.values():
            self.assertRegex(name, r"^(\.NET |Main).* #\d+$")  # ntidx gen's thread names

    def test_v5_generated(self):
        doc, events, meta = self.check(WORK.generated(5))
        self.assertFalse([m for m in meta if m["name"] == "thread_name"])


def method_names(trace):
    """Namespace.Name of every method the trace's method events report, read through `ntidx dump`."""
    out = run("dump", trace, "--format", "jsonl").stdout
    names = set()
    for line in out.splitlines():
        e = json.loads(line)
        if e["event_id"] in (143, 144) and e["provider"].startswith("Microsoft-Windows-DotNETRuntime"):
            f = e.get("fields", {})
            if "MethodName" in f:
                ns = f.get("MethodNamespace", "")
                names.add(f"{ns}.{f['MethodName']}" if ns else f["MethodName"])
    return names


class Speedscope(unittest.TestCase):
    def check_structure(self, doc):
        """What speedscope's importer reads of a file (importSpeedscopeProfiles)."""
        self.assertEqual(doc["$schema"], "https://www.speedscope.app/file-format-schema.json")
        frames = doc["shared"]["frames"]
        for f in frames:
            self.assertIsInstance(f["name"], str)
            self.assertTrue(f["name"])
        self.assertTrue(doc["profiles"], "no empty profile: an export without samples fails")
        for p in doc["profiles"]:
            if p["type"] == "evented":
                self.assertEqual(p["unit"], "milliseconds")
                events = p["events"]
                self.assertTrue(events)
                self.assertEqual(p["startValue"], events[0]["at"])
                self.assertEqual(p["endValue"], events[-1]["at"])
                ats = [e["at"] for e in events]
                self.assertEqual(ats, sorted(ats), "the importer wants times that never go back")
                for e in events:
                    self.assertIn(e["type"], ("O", "C"))
                    self.assertTrue(0 <= e["frame"] < len(frames))
                speedscope_compare.spans(p)  # opens and closes nest, nothing left open
            else:
                self.assertEqual(p["type"], "sampled")
                self.assertEqual(p["unit"], "none")
                self.assertEqual(len(p["samples"]), len(p["weights"]))
                self.assertLessEqual(p["startValue"], p["endValue"])
                for smp in p["samples"]:
                    self.assertTrue(smp, "samples without a stack are left out")
                    for i in smp:
                        self.assertTrue(0 <= i < len(frames))
        self.assertTrue(0 <= doc["activeProfileIndex"] < len(doc["profiles"]))
        return frames

    def test_real_samples(self):
        trace = real(REAL)
        info = WORK.info(trace)
        doc = load(WORK.export(trace, "speedscope"))
        frames = self.check_structure(doc)
        samples = [e for e in WORK.query(trace, "--provider", SAMPLER, "--event", "0") if e["stack_id"]]
        self.assertTrue(samples)
        per_thread = {}
        for e in samples:
            per_thread.setdefault(e["thread"], []).append(e)
        # one profile per thread, with that thread's samples, each at its own time: the profile's time axis
        # is the trace's (they were laid one after another, 7.4 s of samples over 10.4 s)
        profiles = {int(p["name"].split()[-1]): p for p in doc["profiles"]}
        self.assertEqual(set(profiles), set(per_thread))
        interval = 1.0  # ms: the trace's 1,000,000 ns sampling interval
        got_all = []
        for tid, p in profiles.items():
            self.assertEqual(p["type"], "evented")
            got = speedscope_compare.samples_of(p, interval)
            got_all += got
            self.assertEqual(len(got), len(per_thread[tid]))
            # where each sample starts: at its time, or where the one before it ends when it comes earlier
            # (or within a thousandth of an interval after that end)
            end = None
            for (at, stack, _), e in zip(got, per_thread[tid]):
                t = us(info, e["ts"]) / 1000
                want = t if end is None or t > end + interval / 1000 else end
                self.assertAlmostEqual(at, want, delta=1e-5)
                end = want + interval
            self.assertAlmostEqual(p["startValue"], us(info, per_thread[tid][0]["ts"]) / 1000, delta=1e-5)
            self.assertAlmostEqual(p["endValue"], end, delta=1e-5)
            span = (per_thread[tid][-1]["ts"] - per_thread[tid][0]["ts"]) * 1000 / info["tick_frequency"]
            self.assertGreaterEqual(p["endValue"] - p["startValue"], span)
        # frames resolve to the methods the trace's load/rundown events report
        known = method_names(trace)
        used = [i for _, stack, _ in got_all for i in stack]
        named = [i for i in used if frames[i]["name"] != "?!?"]
        self.assertGreater(len(named) / len(used), 0.5, f"{len(named)} of {len(used)} sample frames named")
        # addresses no method covers: one frame, named as dotnet-trace's speedscope export names it
        self.assertLessEqual(sum(f["name"] == "?!?" for f in frames), 1)
        for f in frames:
            if f["name"] == "?!?":
                continue
            method = f["name"].split("!", 1)[-1].split("(", 1)[0]
            self.assertIn(method, known)
        # the program's own code and its entry point at the root of every stack
        roots = {frames[stack[0]]["name"] for _, stack, _ in got_all}
        self.assertEqual(roots, {"NoNativeStacks!NoNativeStacks.Program.Main(class System.String[])"})

    def test_window(self):
        trace = real(REAL)
        doc = load(WORK.export(trace, "speedscope", "--from", "2s", "--to", "3s", name="window.speedscope"))
        self.check_structure(doc)
        n = len([e for e in WORK.query(trace, "--provider", SAMPLER, "--event", "0", "--from", "2s", "--to", "3s")
                 if e["stack_id"]])
        self.assertGreater(n, 0)
        self.assertEqual(sum(len(speedscope_compare.samples_of(p, 1.0)) for p in doc["profiles"]), n)
        self.assertTrue(all(2000 <= p["startValue"] and p["endValue"] <= 3001 for p in doc["profiles"]))
        # the method names come from the rundown at the end of the trace, outside the window
        frames = doc["shared"]["frames"]
        self.assertTrue(all(f["name"] != "?!?" for f in frames))

    def test_real_traces(self):
        for trace in real_traces():
            with self.subTest(trace=os.path.basename(trace)):
                if has_samples(trace):
                    self.check_structure(load(WORK.export(trace, "speedscope")))
                else:
                    self.check_no_samples(trace)

    def check_no_samples(self, trace, *args):
        out = WORK.path("nothing.speedscope")
        p = run("export", trace, "--format", "speedscope", "-o", out, "--index", WORK.index_of(trace), *args,
                check=False)
        self.assertEqual(p.returncode, 1, p.stderr)
        err = p.stderr.decode()
        self.assertIn("no samples to export", err)
        self.assertIn("--event", err)
        self.assertFalse(os.path.exists(out), "no empty profile is written")
        self.assertEqual([f for f in os.listdir(WORK.dir) if ".tmp." in f], [])

    def test_no_samples_is_an_error(self):
        """A trace without the sample profiler (or a window without samples, or events without stacks):
        exit 1 with how to pick events, not an empty profile."""
        self.check_no_samples(WORK.generated(6))
        self.check_no_samples(real(REAL), "--from", "100s", "--to", "200s")
        self.check_no_samples(WORK.generated(6), "--event", "GCAllocationTick", "--from", "1000s", "--to", "2000s")

    def test_traceevent_frame_names(self):
        # Frames named as TraceEvent's stack source names them, on the .NET Core 3.0 trace (no rundown):
        # methods whose module was loaded before the trace began are "ManagedModule!...", modules whose
        # load event TraceEvent met first are lower case ("system.private.xml!..."). Each frame's
        # inclusive and self counts against TraceEvent's (tests/dotnet/golden, `dumper cpu`).
        trace = real("eventpipe-dotnetcore3.0-win-x64-objver4.nettrace")
        doc = load(WORK.export(trace, "speedscope", name="core30.speedscope"))
        names = [f["name"] for f in doc["shared"]["frames"]]
        inc, exc = {}, {}
        interval = speedscope_compare.interval_of(doc["profiles"])
        for p in doc["profiles"]:
            for _, s, _ in speedscope_compare.samples_of(p, interval):  # evented: its spans cut into samples
                for n in {names[i] for i in s}:
                    inc[n] = inc.get(n, 0) + 1
                if s:
                    exc[names[s[-1]]] = exc.get(names[s[-1]], 0) + 1
        with open(os.path.join(GOLDEN, "eventpipe-dotnetcore3.0.cpu.traceevent.jsonl"), encoding="utf-8") as f:
            te = {r["method"]: [r["inclusive"], r["exclusive"]] for r in map(json.loads, f)}
        self.assertIn("ManagedModule!EventGenerator.Program.Main(class System.String[])", te)
        self.assertEqual({n: [inc[n], exc.get(n, 0)] for n in inc}, te)

    def test_other_events_stacks(self):
        # --event picks the events whose stacks make the samples: weights 1, unit none.
        trace = WORK.generated(6)
        doc = load(WORK.export(trace, "speedscope", "--event", "GCAllocationTick", name="alloc.speedscope"))
        self.check_structure(doc)
        n = len([e for e in WORK.query(trace, "--event", "GCAllocationTick") if e["stack_id"]])
        self.assertGreater(n, 0)
        self.assertEqual(sum(len(p["samples"]) for p in doc["profiles"]), n)
        for p in doc["profiles"]:
            self.assertEqual(p["type"], "sampled")
            self.assertEqual(p["unit"], "none")
            self.assertEqual(p["endValue"] - p["startValue"], len(p["samples"]))
            self.assertRegex(p["name"], r"^\S.* \(thread \d+\)$")  # V6 thread names


class SpeedscopeSchema(unittest.TestCase):
    """Validation with ajv against the schema shipped in the speedscope npm package."""

    @classmethod
    def setUpClass(cls):
        p = subprocess.run([os.path.join(SCHEMA_DIR, "install.sh")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True)
        if p.returncode != 0:
            raise AssertionError(f"installing the speedscope schema and ajv failed: {p.stderr}")

    def validate(self, *files):
        return subprocess.run(["node", os.path.join(SCHEMA_DIR, "validate.mjs"), *files], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)

    def test_exports_validate(self):
        files = [WORK.export(t, "speedscope", name=os.path.basename(t) + ".schema.speedscope") for t in real_traces()
                 if has_samples(t)]
        files.append(WORK.export(real(REAL), "speedscope", "--from", "1s", "--to", "1500ms", name="w.speedscope"))
        files.append(WORK.export(WORK.generated(6), "speedscope", "--event", "GCAllocationTick", name="g6.speedscope"))
        files.append(WORK.export(WORK.generated(5), "speedscope", "--provider", "Contoso-TypeZoo", name="g5.speedscope"))
        p = self.validate(*files)
        self.assertEqual(p.returncode, 0, p.stdout)
        self.assertIn("speedscope 1.25.0 schema", p.stdout)

    def test_validator_rejects(self):
        # The validator is not vacuous: an evented profile without events, an event of an unknown type, a
        # sampled profile without weights, or an unknown unit, is refused.
        doc = load(WORK.export(real(REAL), "speedscope", name="reject.speedscope"))
        evented = doc["profiles"][0]
        sampled = load(WORK.export(WORK.generated(6), "speedscope", "--event", "GCAllocationTick",
                                   name="reject2.speedscope"))
        bad = [dict(doc, profiles=[{k: v for k, v in evented.items() if k != "events"}]),
               dict(doc, profiles=[dict(evented, events=[dict(evented["events"][0], type="X")])]),
               dict(sampled, profiles=[{k: v for k, v in sampled["profiles"][0].items() if k != "weights"}]),
               dict(doc, profiles=[dict(evented, unit="ms")])]
        for i, bad in enumerate(bad):
            path = WORK.path(f"bad{i}.json")
            with open(path, "w") as f:
                json.dump(bad, f)
            p = self.validate(path)
            self.assertNotEqual(p.returncode, 0, p.stdout)


class Rows(unittest.TestCase):
    def test_same_as_query(self):
        for trace in (real(REAL), WORK.generated(6), real("eventpipe-dotnetcore3.0-win-x64-objver4.nettrace")):
            for args in ((), ("--from", "1ms", "--to", "20ms"), ("--event", "0"), ("--thread", "1464011")):
                for fmt in ("csv", "jsonl"):
                    with self.subTest(trace=os.path.basename(trace), args=args, fmt=fmt):
                        out = WORK.export(trace, fmt, *args, name="rows." + fmt)
                        with open(out, "rb") as f:
                            self.assertEqual(f.read(), WORK.query(trace, *args, fmt=fmt, raw=True))


class Command(unittest.TestCase):
    def test_usage_errors(self):
        trace = real(REAL)
        out = WORK.path("never.json")
        for args in ((trace, "-o", out), (trace, "--format", "chrome"), (trace, "--format", "svg", "-o", out),
                     (trace, "--format", "chrome", "-o", out, "--from", "soon"), ("--format", "chrome", "-o", out)):
            with self.subTest(args=args):
                self.assertEqual(run("export", *args, check=False).returncode, 2)
        self.assertFalse(os.path.exists(out))

    def test_unreadable_trace(self):
        out = WORK.path("none.json")
        p = run("export", WORK.path("missing.nettrace"), "--format", "chrome", "-o", out, check=False)
        self.assertEqual(p.returncode, 1)
        self.assertFalse(os.path.exists(out))

    def test_stdout_and_replace(self):
        trace = real(REAL)
        p = run("export", trace, "--format", "chrome", "-o", "-", "--to", "1ms", "--index", WORK.index_of(trace))
        self.assertTrue(json.loads(p.stdout)["traceEvents"])
        out = WORK.path("replace.json")
        with open(out, "w") as f:
            f.write("old")
        run("export", trace, "--format", "chrome", "-o", out, "--to", "1ms", "--index", WORK.index_of(trace))
        self.assertEqual(load(out), json.loads(p.stdout))
        self.assertEqual([f for f in os.listdir(WORK.dir) if ".tmp." in f], [], "no temporary file left")

    def test_write_error(self):
        if not os.path.exists("/dev/full"):
            self.skipTest("no /dev/full")
        p = run("export", real(REAL), "--format", "jsonl", "-o", "/dev/full", "--index", WORK.index_of(real(REAL)),
                check=False)
        self.assertEqual(p.returncode, 1)
        self.assertIn(b"cannot write", p.stderr)


if __name__ == "__main__":
    NTIDX, TRACES = sys.argv[1], sys.argv[2]
    WORK = Workdir()
    unittest.main(argv=[sys.argv[0], "-v", *sys.argv[3:]])
