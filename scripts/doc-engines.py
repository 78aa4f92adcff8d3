#!/usr/bin/env python3
"""The engine lists of README.md and docs/*.md, kept from the registry.

    scripts/doc-engines.py [--write] [ROOT]

A list of engines in a doc sits between <!-- engines --> and
<!-- /engines --> (every engine, in engines/list.h's order) or between
<!-- engines:exact --> and <!-- /engines --> (those that run every timer
at its jiffy), written as the engines' names joined by ", ". Without
--write: prints DOC:LINE for each list that differs from the registry's
(scripts/engines.sh) and exits 1 if any does, or if README.md or
docs/usage.md has no list; with --write: rewrites them. It also checks
that docs/usage.md's module parameters have a row for each of the
engines' parameters (engines/param_list.h), which --write cannot write.
"""
import glob
import os
import re
import subprocess
import sys

MARK = re.compile(r"(<!-- engines(?::(exact))? -->)(.*?)(<!-- /engines -->)",
                  re.S)
# where a reader looks for every engine by name: each must hold a list
MUST = ("README.md", "docs/usage.md")


def registry(root, kind):
    args = [os.path.join(root, "scripts", "engines.sh")]
    if kind:
        args.append("--" + kind)
    return ", ".join(subprocess.run(args, capture_output=True, text=True,
                                    check=True).stdout.split())


# The module parameter of each TWHEEL_PARAM() entry: its last argument.
PARAM = re.compile(r"^TWHEEL_PARAM\((?:[^()]|\([^()]*\))*?,\s*(\w+)\)\s*$",
                   re.M | re.S)


def params_missing(root):
    with open(os.path.join(root, "engines", "param_list.h"),
              encoding="utf-8") as fh:
        names = PARAM.findall(fh.read())
    with open(os.path.join(root, "docs", "usage.md"), encoding="utf-8") as fh:
        usage = fh.read()
    missing = [n for n in names if "| `%s=` |" % n not in usage]
    for n in missing:
        print("docs/usage.md: no row for the module parameter %s= "
              "(engines/param_list.h)" % n)
    return len(missing) + (0 if names else 1)


def main():
    args = [a for a in sys.argv[1:] if a != "--write"]
    write = "--write" in sys.argv[1:]
    root = args[0] if args else \
        os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    want = {None: registry(root, None), "exact": registry(root, "exact")}
    bad = 0
    docs = ["README.md"] + sorted(
        os.path.relpath(p, root)
        for p in glob.glob(os.path.join(root, "docs", "*.md")))
    for doc in docs:
        path = os.path.join(root, doc)
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        lists = list(MARK.finditer(text))
        if doc in MUST and not lists:
            print("%s: no <!-- engines --> list" % doc)
            bad += 1
        for m in lists:
            if m.group(3) != want[m.group(2)] and not write:
                line = text.count("\n", 0, m.start()) + 1
                print("%s:%d: engine list '%s', the registry's '%s'" %
                      (doc, line, m.group(3), want[m.group(2)]))
                bad += 1
        if write:
            new = MARK.sub(lambda m: m.group(1) + want[m.group(2)] + m.group(4),
                           text)
            if new != text:
                with open(path, "w", encoding="utf-8") as fh:
                    fh.write(new)
    if write:
        return 0
    print("doc-engines: %d engine lists off the registry" % bad)
    bad += params_missing(root)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
