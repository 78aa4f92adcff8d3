#!/usr/bin/env python3
"""Every path of the checkout that README.md, docs/*.md and
results/README.md name must exist in the tree.

    scripts/doc-paths.py [ROOT]

A path is a word that starts with one of the checkout's top-level folders
(scripts/guest/smoke.sh, engines/*.c, docs/) or is a markdown link's
target (relative to the doc). Globs must match a file. What a build or a
run makes (userspace/build/, results written elsewhere) is listed in
GENERATED. Lines between <!-- example paths --> and <!-- /example paths -->
name files of an example that is not in the tree (an engine's addition)
and are not checked. Prints DOC:LINE: PATH for each missing one; exits 1
if any.
"""
import glob
import os
import re
import subprocess
import sys

# made by a build or a run, not kept in git
GENERATED = ("userspace/build/", "twheel.ko", "twheel_kunit.ko")


def tracked(root):
    out = subprocess.run(["git", "-C", root, "ls-files"], capture_output=True,
                         text=True, check=True).stdout.split("\n")
    files = {f for f in out if f}
    dirs = set()
    for f in files:
        parts = f.split("/")
        for i in range(1, len(parts)):
            dirs.add("/".join(parts[:i]))
    return files, dirs


def exists(path, files, dirs):
    path = path.rstrip("/")
    if any(c in path for c in "*?["):
        pat = re.compile(glob.translate(path) if hasattr(glob, "translate")
                         else fnmatch_re(path))
        return any(pat.match(f) for f in files)
    return path in files or path in dirs


def fnmatch_re(pat):
    import fnmatch
    return fnmatch.translate(pat)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else \
        os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    files, dirs = tracked(root)
    tops = sorted({d for d in dirs if "/" not in d} - {"results"} | {"results"})
    word = re.compile(r"(?<![\w./~$-])((?:%s)/[\w./*?-]*)" %
                      "|".join(re.escape(t) for t in tops))
    link = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
    docs = ["README.md", "results/README.md"] + \
        sorted(f for f in files if f.startswith("docs/") and f.endswith(".md"))
    bad = 0
    for doc in docs:
        base = os.path.dirname(doc)
        with open(os.path.join(root, doc), encoding="utf-8") as fh:
            example = False
            for n, line in enumerate(fh, 1):
                if "<!-- example paths -->" in line:
                    example = True
                if "<!-- /example paths -->" in line:
                    example = False
                if example:
                    continue
                found = []
                for m in word.finditer(line):
                    found.append(m.group(1).rstrip(".,:;)'\""))
                for m in link.finditer(line):
                    t = m.group(1)
                    if re.match(r"^[a-z]+:", t):
                        continue
                    found.append(os.path.normpath(os.path.join(base, t)))
                for p in found:
                    if p.startswith(GENERATED) or exists(p, files, dirs):
                        continue
                    print("%s:%d: %s is not in the tree" % (doc, n, p))
                    bad += 1
    print("doc-paths: %d missing of the paths %d docs name" % (bad, len(docs)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
