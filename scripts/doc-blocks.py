#!/usr/bin/env python3
"""Every shell block of README.md and docs/*.md is run by a test, or says
why not.

    scripts/doc-blocks.py [--list] [--no-run] [--timeout S] [ROOT]
    scripts/doc-blocks.py --self-test

A shell block is a fenced block labelled sh, bash, console or shell, or an
unlabelled block (fenced, or indented by four spaces) whose first line
that is not a comment is a command (make, sudo, echo, scripts/..., a
`$ ` prompt, ...). Tables and shown output are not shell blocks. The
block's first line must be one of these comments:

    # run by make check: scripts/doc-blocks.py
        this script runs the block, from the doc, in ROOT (the checkout),
        under bash -e -o pipefail, with a timeout. In a console block
        (lines starting "$ "; a line ending in \\ continues the command)
        each command runs on its own and the lines shown after it are
        compared with what it prints on stdout: line by line,
        trailing blanks ignored, a line "..." standing for any lines.
    # run by make check: scripts/NAME [why]
        another check runs it (it must exist, and name this doc)
    # not run by make check: WHY
        nothing runs it; WHY says why (root on a real machine, QEMU, ...)

Prints FILE:LINE: VERDICT for each block that fails or is unmarked (every
shell block with --list, every block with --list --all), then a summary;
exits 1 on an unmarked block, a failed run or a wrong marker. --no-run
checks the markers only.
"""
import os
import re
import subprocess
import sys
import tempfile
import time

RUN_HERE = "scripts/doc-blocks.py"
MARK_RUN = re.compile(r"^#\s*run by make check:\s*(\S+)(.*)$")
MARK_NOT = re.compile(r"^#\s*not run by make check:\s*(.*)$")
SHELL_LANGS = {"sh", "bash", "console", "shell"}
# a block is commands when its first line that is not a comment begins so
COMMAND = re.compile(
    r"^(\$ |sudo |make( |$)|scripts/|userspace/|\./|echo |cat |cd |git |"
    r"insmod |rmmod |modprobe |dkms |trace-cmd |perf |python3 |apt-get |"
    r"apt |mkdir |cp |ls |grep |tee |mount |dmesg|export |[A-Za-z_]\w*=)")


class Block:
    def __init__(self, doc, line, kind, lang, lines):
        self.doc, self.line, self.kind, self.lang = doc, line, kind, lang
        self.lines = lines      # the block's text, indentation removed

    def first_command(self):
        for l in self.lines:
            s = l.strip()
            if s and not s.startswith("#"):
                return s
        return ""

    def is_shell(self):
        if self.lang in SHELL_LANGS:
            return True
        if self.lang:           # c, json, text, ...
            return False
        return bool(COMMAND.match(self.first_command()))

    def marker(self):
        first = self.lines[0].strip() if self.lines else ""
        m = MARK_RUN.match(first)
        if m:
            return ("run", m.group(1).rstrip(",;:."), m.group(2).strip())
        m = MARK_NOT.match(first)
        if m:
            return ("not", m.group(1).strip(), "")
        return None

    def where(self):
        return "%s:%d" % (self.doc, self.line)


def blocks(doc, text):
    """The code blocks of a markdown text: fenced (```lang) and indented
    (four spaces, after a blank line, outside a fence)."""
    out = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        l = lines[i]
        m = re.match(r"^(\s{0,3})(```+|~~~+)\s*([\w+-]*)", l)
        if m:
            fence, lang = m.group(2), m.group(3).lower()
            j = i + 1
            while j < len(lines) and not lines[j].lstrip().startswith(fence):
                j += 1
            out.append(Block(doc, i + 1, "fenced", lang, lines[i + 1:j]))
            i = j + 1
            continue
        if l.startswith("    ") and l.strip() and (i == 0 or not lines[i - 1].strip()):
            j = i
            while j < len(lines) and (lines[j].startswith("    ") or
                                      (not lines[j].strip() and j + 1 < len(lines) and
                                       lines[j + 1].startswith("    "))):
                j += 1
            out.append(Block(doc, i + 1, "indented", "",
                             [x[4:] for x in lines[i:j]]))
            i = j
            continue
        i += 1
    return out


def console_steps(lines):
    """[(command, [expected lines])] of a console block: "$ " lines and
    their continuations are the command, the lines up to the next "$ "
    what it prints. Comment lines before the first command are skipped."""
    steps = []
    i = 0
    while i < len(lines):
        l = lines[i]
        if l.startswith("$ "):
            cmd = [l[2:]]
            while cmd[-1].rstrip().endswith("\\") and i + 1 < len(lines):
                i += 1
                cmd.append(lines[i])
            steps.append(["\n".join(cmd), []])
        elif steps:
            steps[-1][1].append(l)
        i += 1
    for s in steps:
        while s[1] and not s[1][-1].strip():
            s[1].pop()
    return steps


def matches(expected, got):
    """expected lines (a "..." line: any lines) against got lines; None
    when they match, else the first expected line that did not."""
    exp = [l.rstrip() for l in expected]
    got = [l.rstrip() for l in got]

    def go(i, j):
        if i == len(exp):
            return None if j == len(got) else "(more output: %r)" % got[j]
        if exp[i] == "...":
            for k in range(j, len(got) + 1):
                if go(i + 1, k) is None:
                    return None
            return exp[i + 1] if i + 1 < len(exp) else None
        if j < len(got) and got[j] == exp[i]:
            return go(i + 1, j + 1)
        return exp[i]
    sys.setrecursionlimit(max(10000, 4 * (len(exp) + len(got))))
    return go(0, 0)


def run(block, root, timeout):
    """Runs a block marked as run here; returns (ok, note)."""
    env = dict(os.environ, LC_ALL="C", TERM="dumb")
    env.pop("MAKEFLAGS", None)
    env.pop("MAKELEVEL", None)
    body = [l for l in block.lines[1:]]
    if any(l.startswith("$ ") for l in body):
        steps = console_steps(body)
    else:
        steps = [("\n".join(body), None)]
    for cmd, expected in steps:
        try:
            p = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", cmd],
                               cwd=root, env=env, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               timeout=timeout)
        except subprocess.TimeoutExpired:
            return False, "timed out after %d s: %s" % (timeout, cmd.split("\n")[0])
        got = p.stdout.decode("utf-8", "replace").split("\n")
        if got and got[-1] == "":
            got.pop()
        err = [l for l in p.stderr.decode("utf-8", "replace").split("\n") if l]
        if p.returncode != 0:
            tail = " | ".join((got + err)[-3:])
            return False, "exit %d: %s: %s" % (p.returncode, cmd.split("\n")[0], tail)
        if expected:
            bad = matches(expected, got)
            if bad is not None:
                return False, "%s: shown output differs at %r%s" % (
                    cmd.split("\n")[0], bad, " (stderr: %s)" % " | ".join(err[-3:]) if err else "")
    return True, "%d command(s)%s" % (len(steps), ", output compared"
                                      if any(e for _, e in steps) else "")


def verdict(block, root, do_run, timeout):
    """(ok, text) for a shell block."""
    m = block.marker()
    if m is None:
        return False, "unmarked shell block (first line: %r): mark it '# run by make check: CHECK' " \
            "or '# not run by make check: WHY'" % block.first_command()[:60]
    kind, what, rest = m
    if kind == "not":
        if not what:
            return False, "not run, and no reason given"
        return True, "not run: " + what
    if what == RUN_HERE:
        if not do_run:
            return True, "run here (not with --no-run)"
        t = time.time()
        ok, note = run(block, root, timeout)
        return ok, "run here, %s in %.1f s: %s" % ("ok" if ok else "FAILED", time.time() - t, note)
    path = os.path.join(root, what)
    if not os.path.isfile(path):
        return False, "run by %s, which is not a file" % what
    with open(path, encoding="utf-8", errors="replace") as fh:
        if os.path.basename(block.doc) not in fh.read():
            return False, "run by %s, which does not name %s" % (what, block.doc)
    return True, "run by " + what + (" " + rest if rest else "")


def docs(root):
    out = ["README.md"]
    d = os.path.join(root, "docs")
    out += sorted("docs/" + f for f in os.listdir(d) if f.endswith(".md"))
    return out


def self_test():
    md = "\n".join([
        "text", "", "    make help", "x", "", "    # not run by make check: root",
        "    sudo insmod twheel.ko", "x", "", "    keys   a table", "",
        "```sh", "echo hi", "```", "", "```c", "int x;", "```", "",
        "```console", "# run by make check: scripts/doc-blocks.py",
        "$ printf 'a\\nb\\nc\\n'", "a", "...", "c", "$ echo x \\", "  y", "x y", "```", ""])
    b = blocks("t.md", md)
    assert [(x.line, x.kind, x.is_shell()) for x in b] == [
        (3, "indented", True), (6, "indented", True), (10, "indented", False),
        (12, "fenced", True), (16, "fenced", False), (20, "fenced", True)], \
        [(x.line, x.kind, x.is_shell()) for x in b]
    assert b[0].marker() is None and b[1].marker() == ("not", "root", "")
    assert b[5].marker() == ("run", RUN_HERE, "")
    steps = console_steps(b[5].lines[1:])
    assert steps == [["printf 'a\\nb\\nc\\n'", ["a", "...", "c"]],
                     ["echo x \\\n  y", ["x y"]]], steps
    assert matches(["a", "...", "c"], ["a", "b", "b2", "c"]) is None
    assert matches(["a", "...", "c"], ["a", "c"]) is None
    assert matches(["a", "c"], ["a", "b"]) == "c"
    assert matches(["a"], ["a", "b"]) is not None
    assert matches(["...", "b"], ["a", "b "]) is None
    with tempfile.TemporaryDirectory() as d:
        ok, note = run(b[5], d, 10)
        assert ok, note
        ok, note = run(Block("t.md", 1, "fenced", "console",
                             ["# run by make check: scripts/doc-blocks.py",
                              "$ echo no", "yes"]), d, 10)
        assert not ok and "differs" in note, note
        ok, note = run(Block("t.md", 1, "fenced", "sh",
                             ["# run by make check: scripts/doc-blocks.py", "false", "true"]), d, 10)
        assert not ok and "exit 1" in note, note
        ok, note = run(Block("t.md", 1, "fenced", "console",
                             ["# run by make check: scripts/doc-blocks.py",
                              "$ echo out; echo err >&2", "out"]), d, 10)
        assert ok, note
    print("doc-blocks: self-test passed")
    return 0


def main():
    args = sys.argv[1:]
    if "--self-test" in args:
        return self_test()
    listing = "--list" in args
    every = "--all" in args
    do_run = "--no-run" not in args
    timeout = 300
    if "--timeout" in args:
        timeout = int(args[args.index("--timeout") + 1])
        del args[args.index("--timeout"):args.index("--timeout") + 2]
    rest = [a for a in args if not a.startswith("--")]
    root = rest[0] if rest else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    start = time.time()
    counts = {"shell": 0, "here": 0, "other": 0, "not": 0, "bad": 0, "text": 0}
    for doc in docs(root):
        with open(os.path.join(root, doc), encoding="utf-8") as fh:
            text = fh.read()
        for b in blocks(doc, text):
            if not b.is_shell():
                counts["text"] += 1
                if listing and every:
                    print("%s: text (%s), not a shell block" % (b.where(), b.lang or b.kind))
                continue
            counts["shell"] += 1
            ok, note = verdict(b, root, do_run, timeout)
            if not ok:
                counts["bad"] += 1
            elif note.startswith("run here"):
                counts["here"] += 1
            elif note.startswith("run by"):
                counts["other"] += 1
            else:
                counts["not"] += 1
            if listing or not ok:
                print("%s: %s%s" % (b.where(), "" if ok else "FAIL: ", note))
            sys.stdout.flush()
    print("doc-blocks: %(shell)d shell blocks: %(here)d run here, %(other)d run by another check, "
          "%(not)d not run (marked why), %(bad)d failed or unmarked; %(text)d other blocks" % counts
          + "; %.1f s" % (time.time() - start))
    return 1 if counts["bad"] else 0


if __name__ == "__main__":
    sys.exit(main())
