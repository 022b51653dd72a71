"""The package as pip installs it (issue 28, point 1): a wheel built from pyproject.toml (meson-python, offline:
--no-build-isolation --no-index), installed into a fresh venv made from /usr/bin/python3
--system-site-packages (numpy, pandas and dask are Debian's), and the module's tests run there.

usage: test_wheel.py SOURCE_ROOT NTIDX TRACES_DIR

- The wheel is a platform wheel holding the package alone (the extension, its Python files, _ntidx.pyi and
  py.typed), no command, header or library; it declares numpy and pandas, and dask as the extra [dask].
- In the venv, `import ntidx` is the installed package (no PYTHONPATH), ntidx.__version__ is the project's
  (`ntidx --version`), and test_frames.py and test_sql_module.py pass with the venv's interpreter.
"""

import email.parser
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
import zipfile

SRC = NTIDX = TRACES = SCRATCH = None
HERE = os.path.dirname(os.path.abspath(__file__))


def run(*cmd, env=None, cwd=None):
    e = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "LD_PRELOAD")}
    e.update(env or {})
    p = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, env=e, cwd=cwd)
    if p.returncode != 0:
        raise AssertionError("%s exited %d:\n%s\n%s" % (" ".join(map(str, cmd)), p.returncode, p.stdout[-3000:],
                                                        p.stderr[-3000:]))
    return p.stdout


class Wheel(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dist = os.path.join(SCRATCH, "dist")
        # built from a copy of the sources under SCRATCH: meson-python writes beside pyproject.toml, and
        # nothing is written into the source tree
        src = os.path.join(SCRATCH, "src")
        shutil.copytree(SRC, src, symlinks=True,
                        ignore=lambda d, names: [n for n in names if n.startswith(("build", ".git", ".mesonpy"))
                                                 and d == SRC])
        run("/usr/bin/python3", "-m", "pip", "wheel", "--no-build-isolation", "--no-index", "--no-deps",
            "-w", cls.dist, src, env={"TMPDIR": SCRATCH})
        wheels = [f for f in os.listdir(cls.dist) if f.endswith(".whl")]
        assert len(wheels) == 1, wheels
        cls.wheel = os.path.join(cls.dist, wheels[0])
        cls.venv = os.path.join(SCRATCH, "venv")
        run("/usr/bin/python3", "-m", "venv", "--system-site-packages", cls.venv)
        cls.py = os.path.join(cls.venv, "bin", "python")
        run(cls.py, "-m", "pip", "install", "--no-index", "--no-deps", cls.wheel)

    def test_wheel_contents(self):
        name = os.path.basename(self.wheel)
        self.assertRegex(name, r"^ntidx-[0-9.]+-cp3\d+-cp3\d+-linux_x86_64\.whl$")  # a platform wheel
        with zipfile.ZipFile(self.wheel) as z:
            files = z.namelist()
            meta = email.parser.Parser().parsestr(
                z.read(next(f for f in files if f.endswith(".dist-info/METADATA"))).decode())
        package = sorted(f for f in files if not f.startswith("ntidx-"))
        self.assertTrue(all(f.startswith("ntidx/") for f in package), package)
        for f in ("ntidx/__init__.py", "ntidx/_frame.py", "ntidx/_sql.py", "ntidx/dask.py", "ntidx/_ntidx.pyi",
                  "ntidx/py.typed"):
            self.assertIn(f, package)
        self.assertTrue(any(f.startswith("ntidx/_ntidx.") and f.endswith(".so") for f in package))
        requires = meta.get_all("Requires-Dist")
        self.assertIn("numpy", requires)
        self.assertIn("pandas", requires)
        self.assertTrue(any(r.startswith("dask") and 'extra == "dask"' in r for r in requires), requires)

    def test_installed_and_versioned(self):
        out = run(self.py, "-c", "import ntidx, sys; print(ntidx.__file__); print(ntidx.__version__)",
                  cwd=SCRATCH).split("\n")
        self.assertTrue(out[0].startswith(self.venv + os.sep), out[0])
        version = run(NTIDX, "--version").split()[-1]
        self.assertEqual(out[1], version)

    def test_module_tests_pass_in_the_venv(self):
        for test in ("test_frames.py", "test_sql_module.py"):
            with self.subTest(test=test):
                run(self.py, os.path.join(HERE, test), NTIDX, TRACES, cwd=SCRATCH)


if __name__ == "__main__":
    SRC, NTIDX, TRACES = sys.argv[1:4]
    del sys.argv[1:4]
    with tempfile.TemporaryDirectory(prefix="ntidx-wheel-") as SCRATCH:
        unittest.main()
