"""The manual pages say what the command does: every subcommand that `ntidx --help` lists has
its page, ntidx(1) names it, every option its --help shows is documented on its page, and
the pages were built (scdoc) into troff.

usage: test_man.py NTIDX SOURCE_DIR BUILD_DIR   (docs/man and the folder of the built pages)
"""
import os
import re
import subprocess
import sys
import unittest

NTIDX, SRC, BUILT = sys.argv[1:4]


def run(*args):
    return subprocess.run([NTIDX, *args], capture_output=True, text=True, check=True).stdout


def commands():
    out = run("--help")
    block = out.split("commands:", 1)[1]
    return [m.group(1) for m in re.finditer(r"^  ([a-z]+) ", block, re.M)]


def options(command):
    """Long and short options of a subcommand's usage text, `--help` aside."""
    out = run(command, "--help")
    opts = out.split("options:", 1)[1]
    found = set(re.findall(r"--([a-z][a-z0-9-]*)", opts))
    found |= {"-" + s for s in re.findall(r"^  -([a-zA-Z])\b(?!,)", opts, re.M)}
    return found - {"help"}


def defined_terms(page):
    """The term lines of a page's OPTIONS section (a synopsis that names an option does not document it)."""
    m = re.search(r"^# OPTIONS\n(.*?)(?=^# |\Z)", page, re.M | re.S)
    if not m:
        return ""
    return "\n".join(l for l in m.group(1).splitlines() if l.startswith("*"))


class ManPages(unittest.TestCase):
    def test_every_command_has_a_page_naming_its_options(self):
        cmds = commands()
        self.assertGreaterEqual(len(cmds), 10)
        main = open(os.path.join(SRC, "ntidx.1.scd")).read()
        for c in cmds:
            with self.subTest(command=c):
                self.assertIn("*%s*\n" % c, main, "ntidx(1) does not list %s" % c)
                page = open(os.path.join(SRC, "ntidx-%s.1.scd" % c)).read()
                self.assertTrue(page.startswith("ntidx-%s(1)\n" % c))
                terms = defined_terms(page)
                for o in sorted(options(c)):
                    spelled = "*%s*" % o if o.startswith("-") and not o.startswith("--") else "*--%s*" % o
                    self.assertIn(spelled, terms, "the OPTIONS of ntidx-%s(1) do not define %s" % (c, spelled))

    def test_pages_built(self):
        names = ["ntidx"] + ["ntidx-" + c for c in commands()]
        for n in names:
            with self.subTest(page=n):
                troff = open(os.path.join(BUILT, n + ".1")).read()
                self.assertIn(".SH NAME", troff)
                self.assertIn(n, troff)

    def test_version(self):
        self.assertRegex(run("--version"), r"^ntidx \d+\.\d+\.\d+\n$")


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
