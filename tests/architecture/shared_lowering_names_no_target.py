#!/usr/bin/env python3
"""The shared lowering names no target (docs/ARCHITECTURE.md).

lowering/common/ (and the pipeliner, lowering/pipeline/) is what every
target shares: it asks the target interface (lowering/common/lower_target.h),
and each target (lowering/opencl/, ptx/, amdgcn/) answers from its own
folder, as LLVM's lib/Transforms never includes lib/Target and Mesa's nir/
never includes src/amd. So no source of lowering/common/ or
lowering/pipeline/, nor a header of lowering/ itself that one includes
(lowering.h), may include a target's header (one of those folders', or
gac/ptx.h, gac/amdgcn.h), nor name a target in an identifier. Comments
and string literals (diagnostics may name a target for the user) do not
count.

Usage: shared_lowering_names_no_target.py SOURCE_DIR; exit 1 with every
offence listed, 0 when there is none."""
import os
import re
import sys

# Words of an identifier (its parts between underscores) that name a
# target or a target's own hardware; and pairs of parts that do.
TARGET_WORD = re.compile(r"ptx|nvptx|nvvm|cuda|hip|amdgcn|amdgpu|gfx\d+\w*|sm\d+|mbar\w*|vmcnt|lds|pingpong")
TARGET_PAIRS = {("cp", "async"), ("ping", "pong"), ("opencl", "strategy"), ("strategy", "ptx"),
                ("strategy", "amdgcn")}


def names_target(ident):
    parts = [p for p in ident.lower().split("_") if p]
    if any(TARGET_WORD.fullmatch(p) for p in parts):
        return True
    if any(a == "sm" and b.isdigit() for a, b in zip(parts, parts[1:])):
        return True
    return any(pair in TARGET_PAIRS for pair in zip(parts, parts[1:]))
TARGETS = ("opencl", "ptx", "amdgcn")
TARGET_PUBLIC_HEADERS = ("gac/ptx.h", "gac/amdgcn.h")


def strip_comments_and_strings(text):
    """The code with comments, string and character literals blanked (lines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (j - i - 1) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def main():
    root = sys.argv[1]
    shared_folders = ("common", "pipeline")
    target_headers = set()
    for t in TARGETS:
        for name in os.listdir(os.path.join(root, "lowering", t)):
            if name.endswith(".h"):
                target_headers.add(name)
    # What the shared lowering sees: its own files, and the headers of
    # lowering/ itself (lowering.h, ...) that they include, which could
    # otherwise declare a target's entry points for them.
    files = [(f"lowering/{d}/{n}", os.path.join(root, "lowering", d, n)) for d in shared_folders
             for n in sorted(os.listdir(os.path.join(root, "lowering", d))) if n.endswith((".c", ".h"))]
    included = set()
    for _, path in files:
        for line in open(path, encoding="utf-8"):
            m = re.match(r'\s*#\s*include\s*"([^"]+)"', line)
            if m and os.path.isfile(os.path.join(root, "lowering", m.group(1))):
                included.add(m.group(1))
    files += [(f"lowering/{h}", os.path.join(root, "lowering", h)) for h in sorted(included)]
    offences = []
    for shown, path in files:
        name = shown
        text = open(path, encoding="utf-8").read()
        for k, line in enumerate(text.splitlines(), 1):
            m = re.match(r'\s*#\s*include\s*[<"]([^>"]+)[>"]', line)
            if m and (os.path.basename(m.group(1)) in target_headers or m.group(1) in TARGET_PUBLIC_HEADERS):
                offences.append(f"{name}:{k}: includes a target's header: {m.group(1)}")
        code = strip_comments_and_strings(text)
        for k, line in enumerate(code.splitlines(), 1):
            if line.lstrip().startswith("#include"):
                continue
            for ident in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", line):
                if names_target(ident):
                    offences.append(f"{name}:{k}: names a target: {ident}")
    for o in offences:
        print(o)
    print(f"{len(offences)} offences in lowering/common/ and lowering/pipeline/")
    return 1 if offences else 0


if __name__ == "__main__":
    sys.exit(main())
