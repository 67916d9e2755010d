#!/usr/bin/env python3
"""LLVM only where it is used (docs/ARCHITECTURE.md).

Loading libLLVM and running its static constructors made every gac-opt run
2.4x spirv-opt's time; only libgac-llvm.so, which the GPU emitters open on
first use, may link it. Each file given (the SPIR-V tools, libgac.so) must
need no LLVM library, as readelf -d lists what it needs.

Usage: links_no_llvm.py FILE...; exit 1 naming each offender, 0 if none."""
import re
import subprocess
import sys

bad = []
for path in sys.argv[1:]:
    dynamic = subprocess.run(["readelf", "-d", path], capture_output=True, text=True, check=True).stdout
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", dynamic)
    bad += [f"{path} needs {lib}" for lib in needed if re.match(r"libLLVM", lib)]
print("\n".join(bad) if bad else f"{len(sys.argv) - 1} files need no LLVM library")
sys.exit(1 if bad else 0)
