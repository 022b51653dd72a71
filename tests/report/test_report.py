#!/usr/bin/env python3
"""`ntidx report`: one self-contained HTML page of a window's analyses.

Data: the page's data (the JSON inside it) holds every table of each analysis exactly as the analysis's
own command gives it (`ntidx gc --format json` ...), for the whole trace and for a window; --rows caps the
rows and says how many there were; strings from the trace cannot close the page's script element.
Command: -o through the output helper (stdout with -o -, OUT replaced whole, nothing left on failure, a
write error said), usage errors.
Browser: the page opened in Debian's Chromium (headless, every request aborted) renders with no console
error and no request, draws one mark per record of each chart's data, shows a tooltip with the numbers,
zooms, shows the trace's hostile strings as text, and leaves a screenshot in the build directory.

usage: test_report.py NTIDX EDGE_TRACE_WRITER GOLDEN_TRACE TRACES_DIR BUILD_DIR [unittest args]
"""
import json
import math
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest

NTIDX = EDGE = GOLDEN = TRACES = BUILD = None
CORE3 = "eventpipe-dotnetcore3.0-win-x64-objver4.nettrace"
V3 = "eventpipe-dotnetcore2.1-linux-x64-objver3.netperf"  # no GC, lock or activity events
HERE = os.path.dirname(os.path.abspath(__file__))
BROWSER = os.path.join(HERE, "browser")
EVIL_PROVIDER = "Evil</script><script>document.title='owned'</script><!--"
EVIL_NAME = "Req<img src=x onerror=\"document.title='owned'\">"
# What the page asks of an analysis beyond the registry's defaults, as its command's options: the CPU's call tree
COMMAND_ARGS = {"cpu": ["--tree"]}
# The pages whose screenshot the browser test saves: the one that draws every chart
SCREENSHOTS = {"analyses"}
# report.js's SECTIONS: (analysis, section id)
SECTION_ORDER = [("gc", "gc"), ("gc", "heap"), ("cpu", "cpu"), ("exceptions", "exceptions"), ("alloc", "alloc"),
                 ("jit", "jit"), ("contention", "contention"), ("activities", "activities")]
DATA_OPEN = '<script type="application/json" id="ntidx-data">'


def run(*args, check=True):
    p = subprocess.run([NTIDX, *args], capture_output=True)
    if check and p.returncode != 0:
        raise AssertionError(f"ntidx {' '.join(args)} exited {p.returncode}: {p.stderr.decode(errors='replace')}")
    return p


def page_data(html):
    """The JSON inside the page, as the page's script reads it (the text of the data element)."""
    start = html.index(DATA_OPEN) + len(DATA_OPEN)
    end = html.index("</script>", start)
    return html[start:end], json.loads(html[start:end])


def tables(analysis):
    """{table name: [row dicts]} of an analysis of the page's data."""
    out = {}
    for t in analysis["tables"]:
        names = [c["name"] for c in t["columns"]]
        types = {c["name"]: c["type"] for c in t["columns"]}
        rows = []
        for r in t["rows"]:
            d = dict(zip(names, r))
            # integers past 2^53 are written as strings of their digits; the commands write the numbers
            for k, v in d.items():
                if isinstance(v, str) and types[k] in ("int", "uint"):
                    d[k] = int(v)
            rows.append(d)
        out[t["name"]] = rows
    return out


class Work:
    """Copies of the traces in a temporary folder: indexes are written beside them."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="ntidx-report-test-")
        self.golden = self.copy(GOLDEN, "analyses.nettrace")
        self.core3 = self.copy(os.path.join(TRACES, CORE3), CORE3)
        self.v3 = self.copy(os.path.join(TRACES, V3), V3)
        # a file name that is markup too: the page names its trace
        self.edge = os.path.join(self.dir, "edge<!--<b>.nettrace")
        subprocess.run([EDGE, self.edge], check=True)

    def copy(self, src, name):
        dst = os.path.join(self.dir, name)
        shutil.copyfile(src, dst)
        return dst

    def path(self, name):
        return os.path.join(self.dir, name)

    def report(self, trace, name, *args):
        out = self.path(name)
        run("report", trace, "-o", out, *args)
        with open(out, encoding="utf-8") as f:
            return f.read()


WORK = None


class Data(unittest.TestCase):
    def check_same_as_command(self, trace, *window):
        html = WORK.report(trace, "same.html", *window)
        _, data = page_data(html)
        names = [a["name"] for a in data["analyses"]]
        # every analysis the page has a section for is in the library now
        self.assertEqual(sorted(set(names) & {n for n, _ in SECTION_ORDER}), sorted({n for n, _ in SECTION_ORDER}))
        self.assertIn("cpu_tree", tables(next(a for a in data["analyses"] if a["name"] == "cpu")))
        # listings (a row per sample) are summed up by their sections, not carried whole
        self.assertNotIn("cpu_samples", names)
        for a in data["analyses"]:
            doc = json.loads(run(a["name"], trace, "--format", "json", *COMMAND_ARGS.get(a["name"], []),
                                 *window).stdout)
            got = tables(a)
            self.assertEqual(sorted(got), sorted(k for k, v in doc.items() if isinstance(v, list)), a["name"])
            for name, rows in got.items():
                self.assertEqual(rows, doc[name], f"{a['name']}: table {name}")
                t = next(t for t in a["tables"] if t["name"] == name)
                self.assertEqual(t["row_count"], len(doc[name]))
            for k in ("events", "field_errors", "unmatched", "incomplete"):
                self.assertEqual(a["stats"][k], doc["stats"][k], f"{a['name']}: stats {k}")
        return data

    def test_whole_trace_as_the_commands_give_it(self):
        data = self.check_same_as_command(WORK.golden)
        self.assertTrue(data["window"]["whole_trace"])
        gc = tables(next(a for a in data["analyses"] if a["name"] == "gc"))["gc"]
        self.assertEqual(len(gc), 26)
        info = data["trace"]
        self.assertEqual(info["name"], "analyses.nettrace")
        self.assertEqual(info["size"], os.path.getsize(WORK.golden))
        self.assertEqual(info["format_version"], 4)
        self.assertLess(info["first_ms"], info["last_ms"])
        self.assertEqual(data["window"]["from_ms"], info["first_ms"])
        self.assertEqual(data["window"]["to_ms"], info["last_ms"])

    def test_window_as_the_commands_give_it(self):
        data = self.check_same_as_command(WORK.golden, "--from", "200ms", "--to", "900ms")
        self.assertFalse(data["window"]["whole_trace"])
        self.assertAlmostEqual(data["window"]["from_ms"], 200.0, places=6)
        self.assertAlmostEqual(data["window"]["to_ms"], 900.0, places=6)
        gc = tables(next(a for a in data["analyses"] if a["name"] == "gc"))["gc"]
        self.assertTrue(gc)
        # the GC analysis takes a GC whose pause starts in the window
        self.assertTrue(all(200 <= g["pause_start_relative_ms"] < 900 for g in gc), gc)
        self.assertLess(len(gc), 26)

    def test_core3_as_the_commands_give_it(self):
        self.check_same_as_command(WORK.core3)

    def test_rows_cap(self):
        _, data = page_data(WORK.report(WORK.golden, "rows.html", "--rows", "3"))
        gc = next(a for a in data["analyses"] if a["name"] == "gc")
        t = next(t for t in gc["tables"] if t["name"] == "gc")
        self.assertEqual(len(t["rows"]), 3)
        self.assertEqual(t["row_count"], 26)
        full = tables(gc)["gc"]
        doc = json.loads(run("gc", WORK.golden, "--format", "json").stdout)
        self.assertEqual(full, doc["gc"][:3], "the first rows, in the table's order")

    def test_strings_cannot_break_the_page(self):
        html = WORK.report(WORK.edge, "edge.html")
        text, data = page_data(html)
        self.assertNotIn("<", text, "no '<' inside the data element: nothing there can end it")
        # the template closes two script elements; the trace's strings close none
        self.assertEqual(html.lower().count("</script"), 2)
        acts = tables(next(a for a in data["analyses"] if a["name"] == "activities"))
        self.assertEqual({a["provider"] for a in acts["activities"]}, {EVIL_PROVIDER})
        self.assertTrue(all(EVIL_NAME in a["name"] for a in acts["activities"]), acts["activities"])
        self.assertEqual(data["trace"]["name"], "edge<!--<b>.nettrace")

    def test_edge_records(self):
        """The edge trace holds what the charts must draw apart: a GC without GC/HeapStats, one cut off, an
        activity and a wait that never stop."""
        _, data = page_data(WORK.report(WORK.edge, "edge.html"))
        an = {a["name"]: tables(a) for a in data["analyses"]}
        gcs = an["gc"]["gc"]
        self.assertEqual([g["number"] for g in gcs], [1, 2, 3, 4])
        # a blocking GC is complete at the RestartEE/Stop after its GC/HeapStats: #2 never is
        self.assertEqual([g["is_complete"] for g in gcs], [True, False, True, False])
        self.assertLess(gcs[1]["heap_size_after_mb"], 0, "no GC/HeapStats: no size after")
        self.assertEqual([w["is_complete"] for w in an["contention"]["contention_waits"]], [True, False])
        self.assertEqual([a["is_complete"] for a in an["activities"]["activities"]], [True, False])


class Command(unittest.TestCase):
    def test_stdout(self):
        file_html = WORK.report(WORK.golden, "file.html")
        p = run("report", WORK.golden, "-o", "-")
        self.assertEqual(p.stdout.decode("utf-8"), file_html)
        self.assertEqual(p.stderr, b"")

    def test_replaces_out_whole(self):
        out = WORK.path("replace.html")
        with open(out, "w") as f:
            f.write("old")
        p = run("report", WORK.golden, "-o", out)
        self.assertIn(b"report written to", p.stderr)
        with open(out, encoding="utf-8") as f:
            html = f.read()
        self.assertTrue(html.startswith("<!DOCTYPE html>"))
        self.assertTrue(html.rstrip().endswith("</html>"))
        self.assertEqual([f for f in os.listdir(WORK.dir) if ".tmp" in f], [], "no temporary left beside OUT")

    def test_unreadable_trace_leaves_out_alone(self):
        bad = WORK.path("not-a-trace.nettrace")
        with open(bad, "wb") as f:
            f.write(b"this is not a trace" * 10)
        out = WORK.path("kept.html")
        with open(out, "w") as f:
            f.write("kept")
        p = run("report", bad, "-o", out, check=False)
        self.assertEqual(p.returncode, 1, p.stderr)
        with open(out) as f:
            self.assertEqual(f.read(), "kept")
        p = run("report", WORK.path("missing.nettrace"), "-o", WORK.path("none.html"), check=False)
        self.assertEqual(p.returncode, 1)
        self.assertFalse(os.path.exists(WORK.path("none.html")))
        self.assertEqual([f for f in os.listdir(WORK.dir) if ".tmp" in f], [])

    def test_usage(self):
        self.assertEqual(run("report", WORK.golden, check=False).returncode, 2, "-o is required")
        p = run("report", WORK.golden, "-o", WORK.path("x.html"), "--rows", "many", check=False)
        self.assertEqual(p.returncode, 2)
        self.assertIn(b"--rows", p.stderr)
        p = run("report", "--help")
        self.assertIn(b"-o", p.stdout)
        self.assertIn(b"--rows", p.stdout)
        self.assertIn(b"report", run("--help").stdout)

    def test_write_error(self):
        self.assertTrue(os.path.exists("/dev/full"))
        p = run("report", WORK.golden, "-o", "/dev/full", check=False)
        self.assertEqual(p.returncode, 1)
        self.assertIn(b"cannot write", p.stderr)


def expected_marks(data):
    """The marks each chart must draw, from the page's data: one per record."""
    an = {a["name"]: tables(a) for a in data["analyses"]}
    gcs = an.get("gc", {}).get("gc", [])
    marks = {
        "#gc-pauses rect.gc-pause": len(gcs),
        "#gc-pauses rect.gc-span": sum(g["type"] == "BackgroundGC" and g["duration_ms"] is not None for g in gcs),
        "#heap-chart circle.heap-point": sum(g["heap_size_after_mb"] is not None and g["heap_size_after_mb"] >= 0
                                             for g in gcs),
        "#contention-waits rect.wait": len(an.get("contention", {}).get("contention_waits", [])),
        "#activities-chart rect.activity": len(an.get("activities", {}).get("activities", [])),
    }
    top = 15  # bars of report.js's top-N charts
    samples = an["cpu"]["cpu_summary"][0]["samples"]
    marks["#cpu-top rect.cpu-bar"] = min(top, len(an["cpu"]["cpu"])) if samples else 0
    # a bar per node of the call tree the page holds (the heaviest --rows of them: a tree themselves)
    marks["#flame-graph rect.flame-node"] = len(an["cpu"]["cpu_tree"]) if samples else 0
    marks["#jit-chart rect.jit-bar"] = len(an["jit"]["jit"])
    marks["#alloc-chart rect.alloc-bar"] = min(top, len(an["alloc"]["alloc"]))
    marks["#exceptions-chart rect.exception-bar"] = min(top, len({e["type"] for e in an["exceptions"]["exceptions"]}))
    return marks


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path}: not a PNG"
    return struct.unpack(">II", head[16:24])


class Browser(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # Debian's Chromium, node and playwright-core, as tools/setup-deps.sh installs them: missing is a
        # failure that says so (never a skip), and the test installs nothing itself
        check = subprocess.run([os.path.join(BROWSER, "install.sh"), "--check"], capture_output=True, text=True)
        if check.returncode != 0:
            raise AssertionError("the browser test cannot run:\n" + check.stderr)
        cls.pages = {
            "analyses": WORK.report(WORK.golden, "report-analyses.html"),
            "edge": WORK.report(WORK.edge, "report-edge.html"),
            "core3": WORK.report(WORK.core3, "report-core3.html"),
            # a window, and --rows leaving rows out of every table (3 of the window's 4 exception rows)
            "window": WORK.report(WORK.golden, "report-window.html", "--from", "250ms", "--to", "900ms", "--rows", "3"),
            "empty": WORK.report(WORK.v3, "report-empty.html"),
        }
        args = []
        for name in cls.pages:
            # the pages and the screenshot stay in the build directory, to be looked at; one screenshot, of the
            # page that draws every chart: a whole page's screenshot is what costs the most time
            html = os.path.join(BUILD, f"report-{name}.html")
            shutil.copyfile(WORK.path(f"report-{name}.html"), html)
            shot = os.path.join(BUILD, f"report-{name}.png")
            if os.path.exists(shot):
                os.remove(shot)  # one left by an earlier run must not pass for this run's
            args += [html, shot if name in SCREENSHOTS else "-"]
        p = subprocess.run(["node", os.path.join(BROWSER, "render.mjs"), *args], capture_output=True, text=True,
                           timeout=240)
        if p.returncode != 0:
            raise AssertionError(f"render.mjs exited {p.returncode}: {p.stderr}")
        results = [json.loads(line) for line in p.stdout.splitlines() if line.strip()]
        cls.results = dict(zip(cls.pages, results))
        assert len(results) == len(cls.pages), p.stdout + p.stderr

    def check_page(self, name):
        r = self.results[name]
        _, data = page_data(self.pages[name])
        self.assertEqual(r["pageErrors"], [], name)
        self.assertEqual(r["console"], [], name)
        self.assertEqual(r["requests"], [], f"{name}: the page asked for something outside itself")
        self.assertTrue(r["rendered"], name)
        self.assertEqual(r["text_flaws"], [], name)
        for sel, n in expected_marks(data).items():
            self.assertEqual(r["marks"][sel], n, f"{name}: {sel}")
        for sel, n in r["marks"].items():
            if sel not in expected_marks(data):
                self.assertEqual(n, 0, f"{name}: {sel}: marks of an analysis the page has no data for")
        # a section per analysis: the page's known ones in its order, then any other as its tables
        names = [a["name"] for a in data["analyses"]]
        known = [(n, i) for n, i in SECTION_ORDER if n in names]
        self.assertEqual(r["sections"], [i for _, i in known] + [n for n in names if n not in dict(known)])
        if name in SCREENSHOTS:
            shot = os.path.join(BUILD, f"report-{name}.png")
            self.assertTrue(os.path.exists(shot), shot)
            self.assertGreater(os.path.getsize(shot), 20000, f"{shot}: too small to show a page")
            w, h = png_size(shot)
            self.assertGreaterEqual(w, 1280)
            self.assertGreater(h, 900, "the whole page, not only the first screen")
        return r, data

    def test_analyses_trace(self):
        r, data = self.check_page("analyses")
        self.assertEqual(r["title"], "ntidx report: analyses.nettrace")
        self.assertGreater(r["marks"]["#gc-pauses rect.gc-pause"], 0)
        self.assertGreater(r["marks"]["#gc-pauses rect.gc-span"], 0, "the trace has background GCs")
        gc1 = tables(next(a for a in data["analyses"] if a["name"] == "gc"))["gc"][0]
        # the tooltip of the first pause gives its numbers
        self.assertIn(f"GC #{gc1['number']}", r["tooltip"])
        self.assertIn(f"{gc1['pause_duration_ms']:.3f} ms", r["tooltip"])
        self.assertIn(str(gc1["reason"]), r["tooltip"])
        self.assertTrue(r["zoom"].startswith("Zoomed to"), r["zoom"])
        self.assertTrue(r["unzoom"].startswith("Showing"), r["unzoom"])

    def test_edge_trace(self):
        r, _ = self.check_page("edge")
        self.assertEqual(r["title"], "ntidx report: edge<!--<b>.nettrace", "no script of the trace's ran")
        self.assertIn(EVIL_PROVIDER, r["text"], "the provider's name shown as text")
        self.assertIn("incomplete", r["text"])

    def test_core3_trace(self):
        r, _ = self.check_page("core3")
        self.assertEqual(r["marks"]["#gc-pauses rect.gc-pause"], 478)

    def test_nothing_to_show(self):
        """A trace without the events of any analysis: each section says what it needs, no chart draws."""
        r, _ = self.check_page("empty")
        self.assertEqual(sum(r["marks"].values()), 0)
        self.assertIn("No GC in this window", r["text"])
        self.assertIn("No contended lock in this window", r["text"])
        self.assertIn("No activity in this window", r["text"])

    def test_window(self):
        r, data = self.check_page("window")
        self.assertIn("250.000 – 900.000 ms", r["text"])
        exceptions = next(t for a in data["analyses"] if a["name"] == "exceptions" for t in a["tables"])
        self.assertEqual((len(exceptions["rows"]), exceptions["row_count"]), (3, 4))
        # the exceptions' counts are of the rows the page holds, and say so
        self.assertIn("At least", r["text"])
        self.assertIn("in the 3 of 4 rows the page holds", r["text"])
        self.assertEqual(r["marks"]["#flame-graph rect.flame-node"], 3, "the 3 heaviest nodes, a tree")


if __name__ == "__main__":
    NTIDX, EDGE, GOLDEN, TRACES, BUILD = sys.argv[1:6]
    WORK = Work()
    try:
        unittest.main(argv=[sys.argv[0], "-v", *sys.argv[6:]])
    finally:
        shutil.rmtree(WORK.dir, ignore_errors=True)
