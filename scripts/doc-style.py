#!/usr/bin/env python3
"""The prose of README.md and docs/*.md: no paragraph over 15 lines, no
history.

    scripts/doc-style.py [ROOT]
    scripts/doc-style.py --self-test

A paragraph is a run of prose lines outside code blocks (fenced, or
indented by four spaces after a blank line), tables and headings; a list
item starts a paragraph of its own. History is a date of a past run
(YYYY-MM-DD) or a phrase that tells the docs' past ("since fixed", "used
to", "the old name", ...): that is git's and the results' provenance
lines' business (a line that quotes a provenance line, "Measured <date>
with ...", is one). Prints FILE:LINE: what, for each; exits 1 if any.
"""
import os
import re
import sys

MAX_LINES = 15
HISTORY = re.compile(
    r"\b(since fixed|used to|the old name|as it always did|at this landing|"
    r"once brought|three days earlier|until recently|formerly|"
    r"since the last (run|change|landing|commit))\b", re.I)
DATE = re.compile(r"\b20\d\d-[01]\d-[0-3]\d\b")
PROVENANCE = re.compile(r"Measured 20\d\d-[01]\d-[0-3]\d with `")
ITEM = re.compile(r"^\s*([-*+]|\d+[.)])\s")


def prose(text):
    """(line number, line) of each prose line, None for a break."""
    lines = text.split("\n")
    fence = None
    prev_blank = True
    in_indented = False
    for n, l in enumerate(lines, 1):
        s = l.strip()
        m = re.match(r"^\s{0,3}(```+|~~~+)", l)
        if fence:
            if l.lstrip().startswith(fence):
                fence = None
            yield n, None
            prev_blank = False
            continue
        if m:
            fence = m.group(1)
            yield n, None
            continue
        if not s:
            prev_blank = True
            yield n, None
            continue
        if l.startswith("    ") and (prev_blank or in_indented) and not ITEM.match(l):
            in_indented = True
            prev_blank = False
            yield n, None
            continue
        in_indented = False
        prev_blank = False
        if s.startswith("|") or s.startswith("#") or s.startswith("<!--"):
            yield n, None
            continue
        yield n, l


def check(doc, text):
    out = []
    start, count = None, 0

    def close():
        if start is not None and count > MAX_LINES:
            out.append("%s:%d: a paragraph of %d lines (at most %d)" % (doc, start, count, MAX_LINES))
    numbered = False
    for n, l in prose(text):
        item = l is not None and ITEM.match(l)
        if item and item.group(1)[0].isdigit() and start is not None and not numbered \
                and not item.group(1).startswith("1"):
            item = None     # "256) a tick" inside a paragraph: no list (CommonMark)
        if l is None or item:
            numbered = bool(item) and item.group(1)[0].isdigit()
            close()
            start, count = (None, 0) if l is None else (n, 1)
        else:
            if start is None:
                start = n
            count += 1
        if l is None:
            continue
        m = HISTORY.search(l)
        if m:
            out.append("%s:%d: history: %r" % (doc, n, m.group(0)))
        if DATE.search(l) and not PROVENANCE.search(l):
            out.append("%s:%d: history: a date (%s)" % (doc, n, DATE.search(l).group(0)))
    close()
    return out


def self_test():
    para = "\n".join("word %d" % i for i in range(16))
    assert check("t", para) == ["t:1: a paragraph of 16 lines (at most 15)"]
    assert check("t", "\n".join("word" for _ in range(15))) == []
    items = "\n".join(("- item" if i % 5 == 0 else "  more") for i in range(20))
    assert check("t", items) == [], check("t", items)
    code = "text\n\n" + "\n".join("    code" for _ in range(20)) + "\n\nend"
    assert check("t", code) == []
    fenced = "```\n" + "\n".join("x" for _ in range(20)) + "\n```"
    assert check("t", fenced) == []
    table = "\n".join("| a | b |" for _ in range(20))
    assert check("t", table) == []
    assert check("t", "It took 3 s on 2026-11-27.") == ["t:1: history: a date (2026-11-27)"]
    assert check("t", "Measured 2026-11-27 with `x`; guest: ...") == []
    assert check("t", "a bug (since fixed)") == ["t:1: history: 'since fixed'"]
    assert check("t", "    on 2026-11-27\n") == []
    wrapped = "\n".join(("256) a tick" if i == 8 else "word") for i in range(16))
    assert check("t", wrapped) == ["t:1: a paragraph of 16 lines (at most 15)"]
    print("doc-style: self-test passed")
    return 0


def main():
    if "--self-test" in sys.argv[1:]:
        return self_test()
    rest = [a for a in sys.argv[1:] if not a.startswith("--")]
    root = rest[0] if rest else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    docs = ["README.md"] + sorted("docs/" + f for f in os.listdir(os.path.join(root, "docs"))
                                  if f.endswith(".md"))
    bad = []
    for doc in docs:
        with open(os.path.join(root, doc), encoding="utf-8") as fh:
            bad += check(doc, fh.read())
    for b in sorted(bad, key=lambda b: (b.split(":")[0], int(b.split(":")[1]))):
        print(b)
    print("doc-style: %d finding(s) in %d docs (paragraphs over %d lines, history)"
          % (len(bad), len(docs), MAX_LINES))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
