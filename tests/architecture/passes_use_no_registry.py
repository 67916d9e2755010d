#!/usr/bin/env python3
"""Passes call each other's functions, never the registry
(docs/ARCHITECTURE.md, "Passes").

The registry (lowering/registry.c) sits above every pass and serves the
tools by name; a pass that looked another up in it (gac_pass_find,
gac_run_pass, gac_passes) would make the floor below call the floor above.
So no source of spirv/ or lowering/ but the registry may call them
(comments and strings aside).

Usage: passes_use_no_registry.py SOURCE_DIR; exit 1 with every offence
listed, 0 when there is none."""
import os
import re
import sys

from shared_lowering_names_no_target import strip_comments_and_strings

REGISTRY_CALL = re.compile(r"\b(gac_pass_find|gac_run_pass|gac_passes)\s*\(")
ALLOWED = {os.path.join("lowering", "registry.c")}


def main():
    root = sys.argv[1]
    offences = []
    for top in ("spirv", "lowering"):
        for folder, _, names in os.walk(os.path.join(root, top)):
            for name in sorted(names):
                if not name.endswith((".c", ".h")):
                    continue
                rel = os.path.relpath(os.path.join(folder, name), root)
                if rel in ALLOWED:
                    continue
                code = strip_comments_and_strings(open(os.path.join(root, rel), encoding="utf-8").read())
                for k, line in enumerate(code.splitlines(), 1):
                    for m in REGISTRY_CALL.finditer(line):
                        offences.append(f"{rel}:{k}: calls the registry: {m.group(1)}")
    for o in offences:
        print(o)
    print(f"{len(offences)} offences in spirv/ and lowering/")
    return 1 if offences else 0


if __name__ == "__main__":
    sys.exit(main())
