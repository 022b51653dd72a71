#!/usr/bin/env python3
"""Write a C (or C++) file that includes every public header given, then defines one function."""
import sys

out, headers = sys.argv[1], sys.argv[2:]
with open(out, "w") as f:
    for h in headers:
        f.write(f"#include <ntidx/{h}>\n")
    f.write("int header_test_all(void);\nint header_test_all(void) { return 0; }\n")
