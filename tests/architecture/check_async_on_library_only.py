#!/usr/bin/env python3
"""--check-async stands on the library only (docs/ARCHITECTURE.md).

The checker (analysis/check_async/) is an analysis, not a lowering: like
SPIRV-Tools' opt passes over its IR, it sees the module through the
library (spirv/, whose API is include/gac/) and nothing else. So a source of
analysis/ may include system headers, the library's public headers (gac/...)
and headers of its own folder; never a header of lowering/ (lower_util.h,
lowering.h, a target's) nor one of spirv/'s private ones. A test in the
other direction is not needed: nothing under analysis/ is on the
lowering's include path.

Usage: check_async_on_library_only.py SOURCE_DIR; exit 1 with every offence
listed, 0 when there is none."""
import os
import re
import sys


def headers_under(folder):
    found = set()
    for dirpath, _, files in os.walk(folder):
        found.update(f for f in files if f.endswith(".h"))
    return found


def main():
    root = sys.argv[1]
    analysis = os.path.join(root, "analysis")
    lowering_headers = headers_under(os.path.join(root, "lowering"))
    spirv_private = {f for f in os.listdir(os.path.join(root, "spirv")) if f.endswith(".h")}
    offences, checked = [], 0
    for dirpath, _, files in sorted(os.walk(analysis)):
        for name in sorted(files):
            if not name.endswith((".c", ".h")):
                continue
            checked += 1
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root)
            for k, line in enumerate(open(path, encoding="utf-8").read().splitlines(), 1):
                m = re.match(r'\s*#\s*include\s*([<"])([^>"]+)[>"]', line)
                if not m:
                    continue
                quote, header = m.group(1), m.group(2)
                base = os.path.basename(header)
                # A header of its own folder (not one reached by ../).
                resolved = os.path.realpath(os.path.join(dirpath, header))
                own = os.path.exists(resolved) and os.path.dirname(resolved) == os.path.realpath(dirpath)
                if base in lowering_headers and not own:
                    offences.append(f"{rel}:{k}: includes a lowering header: {header}")
                elif base in spirv_private and not header.startswith("gac/") and not own:
                    offences.append(f"{rel}:{k}: includes a private header of spirv/: {header}")
                elif quote == '"' and not header.startswith("gac/") and not own:
                    offences.append(f"{rel}:{k}: includes a header from outside its folder and gac/: {header}")
    for o in offences:
        print(o)
    print(f"{len(offences)} offences in {checked} files of analysis/")
    return 1 if offences or not checked else 0


if __name__ == "__main__":
    sys.exit(main())
