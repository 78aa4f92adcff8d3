#!/usr/bin/env python3
"""
The module's layer order, and file-level call and include cycles, among a
tree's C files as git lists them: cycles.py [DIR [PREFIX]].

A file calls another if it names a function the other defines (not
static); it reaches another if it names a global variable the other
defines (one a header declares extern); a cycle is a strongly connected
set of such files, or of files including each other.

The module's layers, top to bottom, are its folders (LAYERS below): a
file may include, call or reach files of its own layer or of those below
it, never those above. kunit/ and userspace/ stand outside the order (they
may use any layer; no layer may use them). Each violation is printed as
file:line, what it names, and the layer it reaches up to.

Regex-based: what it reports is a place to look. Exit 1 if it found any
violation or cycle.
"""
import re, sys, os, subprocess

# Top to bottom. The engines' layer holds the contract (twheel.h) and what
# every engine shares (twheel_core.c).
LAYERS = [
    ('main', ['twheel_main.c']),
    ('readout', ['readout/']),
    ('driver', ['driver/']),
    ('shadow', ['shadow/']),
    ('runner', ['runner/']),
    ('engines', ['engines/', 'twheel.h', 'twheel_core.c']),
]
OUTSIDE = ['kunit/', 'userspace/', 'scripts/']


def layer_of(f):
    """The rank of f's layer (0 = the top), None if f is outside."""
    for rank, (_, pats) in enumerate(LAYERS):
        for p in pats:
            if (p.endswith('/') and f.startswith(p)) or f == p:
                return rank
    return None


def outside(f):
    return any(f.startswith(p) for p in OUTSIDE)


root = sys.argv[1] if len(sys.argv) > 1 else '.'
files = subprocess.check_output(['git', '-C', root, 'ls-files', '*.c', '*.h', '*.cc'],
                                text=True).split()
files = [f for f in files if os.path.exists(os.path.join(root, f))]
sel = sys.argv[2] if len(sys.argv) > 2 else ''
files = [f for f in files if f.startswith(sel)] if sel else files
src = {f: open(os.path.join(root, f), errors='replace').read() for f in files}


def strip(s):
    """Comments and string contents out, the lines kept where they were."""
    s = re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'), s, flags=re.S)
    s = re.sub(r'//[^\n]*', '', s)
    s = re.sub(r'"(\\.|[^"\\\n])*"', '""', s)
    return s


code = {f: strip(s) for f, s in src.items()}


def line_at(s, pos):
    return s.count('\n', 0, pos) + 1


# Functions defined (not static), by name: the files defining them (a
# user-space shim may define a name the module defines too).
defs = {}
for f, s in code.items():
    if not f.endswith(('.c', '.cc')):
        continue
    for m in re.finditer(r'^(?!static)[A-Za-z_][\w \*]*?\b(\w+)\s*\([^;{]*\)\s*\{', s, flags=re.M):
        defs.setdefault(m.group(1), []).append(f)

# Global variables: a name a header declares extern, and the C file that
# defines it at file scope.
gvars = {}
externs = set()
for f, s in code.items():
    if f.endswith('.h'):
        for m in re.finditer(r'^extern\s[^;(]*?\b(\w+)\s*(\[[^\]]*\])?\s*;', s, flags=re.M):
            externs.add(m.group(1))
for name in externs:
    pat = re.compile(r'^(?!extern|static|#)(?:[A-Za-z_][\w \*]*?\b|DEFINE_\w+\()%s\b\s*(\[[^\]]*\])?\s*[)=;]'
                     % re.escape(name), flags=re.M)
    for f, s in code.items():
        if f.endswith('.c') and pat.search(s):
            gvars.setdefault(name, []).append(f)


def pick(callers_file, owners):
    """Of the files defining a name, the one callers_file means."""
    own = [g for g in owners if g != callers_file]
    if not own or callers_file in owners:
        return None
    if layer_of(callers_file) is not None:
        # the module's name, never a user-space shim's of the same name
        own = [g for g in own if layer_of(g) is not None]
    return own[0] if own else None


edges = {}          # f -> {g: name}: calls and reaches
first_use = {}      # (f, g) -> (line, name, what)
for f, s in code.items():
    if not f.endswith(('.c', '.cc')):
        continue
    for table, what, fmt in ((defs, 'calls', r'\b%s\s*\('), (gvars, 'reaches', r'\b%s\b')):
        for name, owners in table.items():
            g = pick(f, owners)
            if g is None:
                continue
            m = re.search(fmt % re.escape(name), s)
            if not m:
                continue
            edges.setdefault(f, {}).setdefault(g, name)
            first_use.setdefault((f, g), (line_at(s, m.start()), name, what))


def sccs(g):
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in g.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))
    sys.setrecursionlimit(10000)
    for v in list(g):
        if v not in index:
            visit(v)
    return out


# includes, with the line of each
inc = {}
inc_line = {}
for f, s in src.items():
    for m in re.finditer(r'^\s*#\s*include\s+"([^"]+)"', s, flags=re.M):
        t = m.group(1)
        for c in (t, os.path.join(os.path.dirname(f), t)):
            c = os.path.normpath(c)
            if c in src:
                inc.setdefault(f, set()).add(c)
                inc_line.setdefault((f, c), line_at(s, m.start()))
                break

print('layer order enforced, top to bottom, each using only itself and those below: ' +
      ' > '.join('%s (%s)' % (name, ' '.join(pats)) for name, pats in LAYERS) +
      '; outside it: ' + ' '.join(OUTSIDE))

bad = 0
violations = []
for f in sorted(set(inc) | set(edges)):
    lf = layer_of(f)
    for g in sorted(inc.get(f, ())):
        lg = layer_of(g)
        if lf is not None and (outside(g) or (lg is not None and lg < lf)):
            violations.append('%s:%d: includes %s (layer %s, above %s)' % (
                f, inc_line[(f, g)], g, LAYERS[lg][0] if lg is not None else 'outside',
                LAYERS[lf][0]))
    for g in sorted(edges.get(f, ())):
        lg = layer_of(g)
        if lf is not None and (outside(g) or (lg is not None and lg < lf)):
            line, name, what = first_use[(f, g)]
            violations.append('%s:%d: %s %s of %s (layer %s, above %s)' % (
                f, line, what, name, g, LAYERS[lg][0] if lg is not None else 'outside',
                LAYERS[lf][0]))
for v in violations:
    print('order violation: ' + v)
bad += len(violations)

ncycles = 0
for comp in sccs(edges):
    ncycles += 1
    print('call cycle among: ' + ', '.join(
        '%s (calls %s)' % (a, ', '.join('%s in %s' % (edges[a][b], b)
                                        for b in comp if b in edges.get(a, {})))
        for a in comp))
for comp in sccs({k: sorted(v) for k, v in inc.items()}):
    ncycles += 1
    print('include cycle among: ' + ', '.join(comp))
bad += ncycles
print('%d order violations, %d cycles' % (len(violations), ncycles))
sys.exit(1 if bad else 0)
