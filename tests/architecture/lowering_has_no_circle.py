#!/usr/bin/env python3
"""The lowering's (and analysis/'s) files form no circle, and no arrow runs from the shared
lowering into a target (docs/ARCHITECTURE.md).

An arrow runs from file A to file B when A calls a function B defines
(not static). Hooks a target hands the shared lowering (lower_target.h)
are pointers, not calls, so the shared code asking a target draws none.
Files on a circle are one knot: none can be read, tested or changed
without the others. The target interface keeps calls one way: a target
calls the shared lowering, and the shared lowering reaches a target only
through its hooks, so an arrow from common/ or pipeline/ into a target is
the start of such a knot and is refused too.

In lowering/ every file is its own node: the pipeliner's files
(lowering/pipeline/) share a private header for their types, but their
calls run one way, from the pass down to pipeline_base.c. In analysis/,
one concept split over several files (--check-async) is one room: its files
share a private header (one of their folder's headers that no file of
another folder includes), and may still call each other both ways, as one
file's functions may. The rooms must form no circle.

Usage: lowering_has_no_circle.py SOURCE_DIR; exit 1 listing every circle
and every such arrow, 0 when there is none."""
import os
import re
import sys
from collections import defaultdict

from shared_lowering_names_no_target import strip_comments_and_strings

TARGETS = ("opencl", "ptx", "amdgcn")
DEFINITION = re.compile(r"^(?!static\b)[A-Za-z_][\w *]*?\b([A-Za-z_]\w*)\s*\([^;{]*\)\s*\{", re.M)


def arrows(root):
    sources = []
    for top in ("lowering", "analysis"):  # analysis/: --check-async, which the lowering must not need
        for folder, _, names in os.walk(os.path.join(root, top)):
            sources += [os.path.relpath(os.path.join(folder, n), root) for n in names if n.endswith(".c")]
    code = {f: strip_comments_and_strings(open(os.path.join(root, f), encoding="utf-8").read()) for f in sources}
    defined_in = {}
    for f, text in code.items():
        for m in DEFINITION.finditer(text):
            defined_in.setdefault(m.group(1), f)
    rooms = rooms_of(root, sources)
    calls = re.compile(r"\b(" + "|".join(map(re.escape, defined_in)) + r")\s*\(")
    graph = defaultdict(set)
    for f, text in code.items():
        for m in calls.finditer(text):
            g = defined_in[m.group(1)]
            if rooms[g] != rooms[f]:
                graph[rooms[f]].add(rooms[g])
    return sorted(set(rooms.values())), graph


def rooms_of(root, sources):
    """Each source's room: the sources sharing a private header are one
    room, named by its files joined with '+'; any other source is its own."""
    include = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
    includes = {f: set(include.findall(open(os.path.join(root, f), encoding="utf-8").read())) for f in sources}
    users = defaultdict(set)  # a header of a source's own folder -> the folders whose sources include it
    for f, names in includes.items():
        for h in names:
            if os.path.exists(os.path.join(root, os.path.dirname(f), h)):
                users[(os.path.dirname(f), h)].add(f)
    everywhere = defaultdict(set)  # header name -> folders of every source including it
    for f, names in includes.items():
        for h in names:
            everywhere[os.path.basename(h)].add(os.path.dirname(f))
    parent = {f: f for f in sources}

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for (folder, h), fs in users.items():
        if folder.startswith("lowering"):
            continue
        if everywhere[os.path.basename(h)] == {folder} and len(fs) > 1:
            fs = sorted(fs)
            for g in fs[1:]:
                parent[find(g)] = find(fs[0])
    members = defaultdict(list)
    for f in sources:
        members[find(f)].append(f)
    return {f: "+".join(sorted(members[find(f)])) for f in sources}


def circles(nodes, graph):
    """Strongly connected components of more than one file (Tarjan)."""
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10000)
    for v in nodes:
        if v not in index:
            visit(v)
    return found


def main():
    nodes, graph = arrows(sys.argv[1])
    offences = [f"a circle of {len(c)} files: {' '.join(c)}" for c in circles(nodes, graph)]
    shared = tuple(os.path.join("lowering", d) + os.sep for d in ("common", "pipeline"))
    for f in nodes:
        if all(part.startswith(shared) for part in f.split("+")):
            for g in sorted(graph[f]):
                if any(part.startswith(os.path.join("lowering", t) + os.sep) for t in TARGETS for part in g.split("+")):
                    offences.append(f"{f} calls into a target: {g}")
    for o in offences:
        print(o)
    print(f"{len(nodes)} rooms, {sum(len(v) for v in graph.values())} arrows, {len(offences)} offences")
    return 1 if offences else 0


if __name__ == "__main__":
    sys.exit(main())
