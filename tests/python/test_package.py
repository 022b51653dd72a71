"""The package's typing and version (issue 28, point 1), without building a wheel (test_wheel.py does that).

usage: test_package.py NTIDX   (the package on PYTHONPATH)

- _ntidx.pyi names every public and private name of the extension, every method and attribute of its classes,
  and nothing it lacks; py.typed is beside it.
- ntidx.__version__ is the project's version (`ntidx --version`).
"""

import ast
import os
import subprocess
import sys
import unittest

import ntidx
from ntidx import _ntidx

NTIDX = None


def stub():
    path = os.path.join(os.path.dirname(ntidx.__file__), "_ntidx.pyi")
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    names, classes = set(), {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            names.add(node.name)
            classes[node.name] = {n.name if isinstance(n, ast.FunctionDef) else n.target.id
                                  for n in node.body if isinstance(n, (ast.FunctionDef, ast.AnnAssign))}
        elif isinstance(node, ast.FunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
    return names, classes


class Package(unittest.TestCase):
    def test_stub_names_the_extension(self):
        names, classes = stub()
        have = {n for n in dir(_ntidx) if not n.startswith("__")}
        self.assertEqual(have, names)
        for name, members in classes.items():
            cls = getattr(_ntidx, name)
            if issubclass(cls, BaseException):
                continue
            own = {k for k in vars(cls) if not k.startswith("__") or k in ("__iter__", "__next__", "__enter__",
                                                                          "__exit__")}
            self.assertEqual(own, members - {"__init__"}, name)
        self.assertTrue(os.path.exists(os.path.join(os.path.dirname(ntidx.__file__), "py.typed")))

    def test_version(self):
        out = subprocess.run([NTIDX, "--version"], capture_output=True, text=True, check=True).stdout
        self.assertEqual(ntidx.__version__, out.split()[-1])
        self.assertIn("__version__", ntidx.__all__)


if __name__ == "__main__":
    NTIDX = sys.argv[1]
    del sys.argv[1]
    unittest.main()
