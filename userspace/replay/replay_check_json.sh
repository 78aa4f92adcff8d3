#!/usr/bin/env bash
# --format=json against its schema, docs/replay-schema.json (replay_check.sh
# runs it): one "PASS <name>" or "FAIL <name>" line per check, exit 1 if any
# failed.
#  - the json of every trace in traces/, of the 6.12 trace without idx=
#    and cpu= (the oracle unchecked: every key there, null), of the perf
#    trace without its CPU column, and of a name that is not UTF-8, has
#    every key of the schema, no other, each of its type (a validator of
#    the schema's keywords written here on python3's standard library:
#    type, enum, properties, required, additionalProperties, items,
#    minItems, maxItems, $ref; the schema may use no other);
#  - the validator finds a key left out, one added and one of the wrong
#    type.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=$here/../build/replay
schema=$here/../../docs/replay-schema.json
fail=0
result() { [ "$1" = 0 ] && echo "PASS $2" || { echo "FAIL $2"; fail=1; }; }
bad() { echo "replay-check: $*" >&2; return 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fails=0
n=0
for f in "$here"/traces/*; do
	n=$((n + 1))
	"$bin" --no-callgrind -r 1 -f json "$f" >"$tmp/$n.json" 2>/dev/null ||
		{ bad "$f: exit $?"; fails=1; }
done
gzip -dc "$here/traces/guest-tcp.trace_pipe.gz" | sed -E 's/ bucket_expiry=[0-9]+ cpu=[0-9]+ idx=[0-9]+//' >"$tmp/pre48.txt"
gzip -dc "$here/traces/guest-tcp.perf.gz" | sed -E 's/ \[[0-9]+\] / /' >"$tmp/nocpu.txt"
"$bin" --no-callgrind -r 1 -f json "$tmp/pre48.txt" >"$tmp/pre48.json" 2>/dev/null || fails=1
"$bin" --no-callgrind -r 1 -f json "$tmp/nocpu.txt" >"$tmp/nocpu.json" 2>/dev/null || fails=1
"$bin" --no-callgrind -r 1 -e modern -f json -n "$(printf 'n\xff\xfe\x01')" \
	"$here/traces/oracle.tracefs" >"$tmp/name.json" 2>/dev/null || fails=1
python3 - "$schema" "$tmp"/*.json <<'PY' || fails=1
import copy, json, sys

KNOWN = {"$schema", "$id", "title", "description", "type", "enum", "properties",
         "required", "additionalProperties", "items", "minItems", "maxItems", "$ref", "$defs"}

def known(s, at):
    """Every keyword of the schema is one this validator checks."""
    if not isinstance(s, dict):
        return
    extra = set(s) - KNOWN
    if extra:
        sys.exit("replay-check: schema at %s: keywords not checked here: %s" % (at, sorted(extra)))
    for k in ("properties", "$defs"):
        for name, sub in s.get(k, {}).items():
            known(sub, at + "/" + name)
    if "items" in s:
        known(s["items"], at + "/items")

def is_type(x, t):
    if t == "null":
        return x is None
    if t == "boolean":
        return isinstance(x, bool)
    if t == "integer":
        return isinstance(x, int) and not isinstance(x, bool)
    if t == "number":
        return isinstance(x, (int, float)) and not isinstance(x, bool)
    if t == "string":
        return isinstance(x, str)
    if t == "array":
        return isinstance(x, list)
    if t == "object":
        return isinstance(x, dict)
    sys.exit("replay-check: schema: unknown type %r" % t)

def check(x, s, root, at, errs):
    if "$ref" in s:
        node = root
        for part in s["$ref"].lstrip("#/").split("/"):
            node = node[part]
        return check(x, node, root, at, errs)
    if "type" in s:
        ts = s["type"] if isinstance(s["type"], list) else [s["type"]]
        if not any(is_type(x, t) for t in ts):
            errs.append("%s: %r is not %s" % (at, x, "/".join(ts)))
            return
    if "enum" in s and not any(type(x) is type(e) and x == e for e in s["enum"]):
        errs.append("%s: %r is none of %r" % (at, x, s["enum"]))
    if isinstance(x, dict):
        props = s.get("properties", {})
        for k in s.get("required", []):
            if k not in x:
                errs.append("%s: no key %s" % (at, k))
        for k, v in x.items():
            if k in props:
                check(v, props[k], root, at + "." + k, errs)
            elif s.get("additionalProperties", True) is False:
                errs.append("%s: key %s is not in the schema" % (at, k))
    if isinstance(x, list):
        if len(x) < s.get("minItems", 0) or len(x) > s.get("maxItems", len(x)):
            errs.append("%s: %d items" % (at, len(x)))
        for i, v in enumerate(x):
            if "items" in s:
                check(v, s["items"], root, "%s[%d]" % (at, i), errs)

schema = json.load(open(sys.argv[1]))
known(schema, "#")
ok = True
docs = []
for path in sys.argv[2:]:
    d = json.load(open(path))
    docs.append(d)
    errs = []
    check(d, schema, schema, path, errs)
    for e in errs[:10]:
        print("replay-check: json:", e, file=sys.stderr)
    ok &= not errs
# each kind of row and object met at least once
rows = [r for d in docs for r in d["results"]]
ok &= any(r["engine"] == "kernel" and r["late_b_p50"] is not None for r in rows)
ok &= any(r["engine"] == "kernel" and r["deferrable"] is None for r in rows)
ok &= any(d["oracle"]["disagreements"] for d in docs)
ok &= any(not d["oracle"]["checked"] for d in docs)
ok &= any(d["cpus"] is None for d in docs)
# the validator finds what it is for
d = docs[0]
for name, broken in (("left out", lambda d: d["results"][0].pop("late_b_p50")),
                     ("added", lambda d: d["oracle"].update(extra=1)),
                     ("a string for a number", lambda d: d["results"][-1].update(adds="1")),
                     ("true for an integer", lambda d: d.update(lines=True)),
                     ("a third verdict line", lambda d: list(d["verdicts"].values())[0].append("x"))):
    e = copy.deepcopy(d)
    broken(e)
    errs = []
    check(e, schema, schema, "#", errs)
    if not errs:
        print("replay-check: json: the validator missed a key", name, file=sys.stderr)
        ok = False
sys.exit(0 if ok else 1)
PY
result $fails replay-json-schema
exit $fail
