#!/usr/bin/env python3
"""
File-level call and include cycles among a tree's C files, as git lists
them: cycles.py [DIR [PREFIX]]. A file calls another if it names a
function the other defines (not static); a cycle is a strongly connected
set of such files, or of files including each other. Regex-based: what
it reports is a place to look. Exit 1 if it found any.
"""
import re, sys, os, itertools, subprocess
root = sys.argv[1] if len(sys.argv) > 1 else '.'
files = [f for f in subprocess.check_output(['git','-C',root,'ls-files','*.c','*.h','*.cc'],text=True).split()]
files = [f for f in files if os.path.exists(os.path.join(root,f))]
sel = sys.argv[2] if len(sys.argv) > 2 else ''
files = [f for f in files if f.startswith(sel)] if sel else files
src = {f: open(os.path.join(root,f), errors='replace').read() for f in files}
def strip(s):
    s = re.sub(r'/\*.*?\*/', '', s, flags=re.S)
    s = re.sub(r'//[^\n]*', '', s)
    s = re.sub(r'"(\\.|[^"\\])*"', '""', s)
    return s
code = {f: strip(s) for f, s in src.items()}
defs = {}
for f, s in code.items():
    if not f.endswith(('.c', '.cc')): continue
    for m in re.finditer(r'^(?!static)[A-Za-z_][\w \*]*?\b(\w+)\s*\([^;{]*\)\s*\{', s, flags=re.M):
        defs.setdefault(m.group(1), f)
edges = {}
for f, s in code.items():
    if not f.endswith(('.c','.cc')): continue
    for name, g in defs.items():
        if g != f and re.search(r'\b%s\s*\(' % re.escape(name), s):
            edges.setdefault(f, {}).setdefault(g, name)
def cycles(edges):
    out = []
    for a in edges:
        for b in edges[a]:
            if a < b and a in edges.get(b, {}):
                out.append((a, edges[a][b], b, edges[b][a]))
    return out
def sccs(g):
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]
    def visit(v):
        index[v] = low[v] = n[0]; n[0] += 1; stack.append(v); on.add(v)
        for w in g.get(v, ()):
            if w not in index:
                visit(w); low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop(); on.discard(w); comp.append(w)
                if w == v: break
            if len(comp) > 1: out.append(sorted(comp))
    for v in list(g):
        if v not in index: visit(v)
    return out
bad = 0
for comp in sccs(edges):
    bad += 1
    print('call cycle among: ' + ', '.join(
        '%s (calls %s)' % (a, ', '.join('%s in %s' % (edges[a][b], b) for b in comp if b in edges.get(a, {})))
        for a in comp))
# includes
inc = {}
base = {os.path.basename(f): f for f in files}
for f, s in src.items():
    for m in re.finditer(r'#include\s+"([^"]+)"', s):
        t = m.group(1)
        cand = [t, os.path.join(os.path.dirname(f), t)]
        for c in cand:
            c = os.path.normpath(c)
            if c in src:
                inc.setdefault(f, set()).add(c); break
# include cycles via DFS
for comp in sccs({k: sorted(v) for k, v in inc.items()}):
    bad += 1
    print('include cycle among: ' + ', '.join(comp))
sys.exit(1 if bad else 0)
