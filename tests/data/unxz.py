#!/usr/bin/env python3
"""Decompress one committed .xz file into the build directory: unxz.py IN OUT.

The sample traces are in the repository compressed (tests/data/README.md) and the tests read
their decompressed copies in the build directory. OUT is written under a temporary name one
folder up (so that the traces' folder, which tests list, never holds anything but traces, even
after an interrupted build), made read-only (the tests read these files and must not change
them), then renamed into place. Python's lzma: nothing to install beyond Python.
"""
import lzma
import os
import shutil
import sys
import tempfile


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: unxz.py IN.xz OUT")
    src, dst = sys.argv[1], os.path.abspath(sys.argv[2])
    fd, tmp = tempfile.mkstemp(prefix=os.path.basename(dst) + ".tmp.", dir=os.path.dirname(os.path.dirname(dst)))
    try:
        with os.fdopen(fd, "wb") as out, lzma.open(src, "rb") as f:
            shutil.copyfileobj(f, out, 1 << 20)
        os.chmod(tmp, 0o444)
        os.replace(tmp, dst)
    except BaseException:
        os.unlink(tmp)
        raise


if __name__ == "__main__":
    main()
