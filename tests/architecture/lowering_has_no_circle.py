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

Every file is its own node, also where one concept is split over several
files that share a private header (the pipeliner, lowering/pipeline/; the
checker, analysis/check_async/): the header shares their types, and their
calls still run one way, from the pass down to a base file that calls
none of them (pipeline_base.c; check_async_value.c above the checker's
view of the CFG).

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
    calls = re.compile(r"\b(" + "|".join(map(re.escape, defined_in)) + r")\s*\(")
    graph = defaultdict(set)
    for f, text in code.items():
        for m in calls.finditer(text):
            g = defined_in[m.group(1)]
            if g != f:
                graph[f].add(g)
    return sorted(sources), graph


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
        if f.startswith(shared):
            for g in sorted(graph[f]):
                if any(g.startswith(os.path.join("lowering", t) + os.sep) for t in TARGETS):
                    offences.append(f"{f} calls into a target: {g}")
    for o in offences:
        print(o)
    print(f"{len(nodes)} files, {sum(len(v) for v in graph.values())} arrows, {len(offences)} offences")
    return 1 if offences else 0


if __name__ == "__main__":
    sys.exit(main())
