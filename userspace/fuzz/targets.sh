#!/bin/sh
# Prints the differential fuzzer's targets, one per engine of the registry
# (scripts/engines.sh), on one line: fuzz-<target> is built for each. An
# engine whose model (fuzz/models/<name>.c) has a line
# "/* fuzz variants: A B */" has a target per variant instead, <name>A and
# <name>B, built with FZ_VARIANT=A and B (the modern wheel's depths).
#   fuzz/targets.sh          the targets: classic modern8 modern9 ...
#   fuzz/targets.sh --rules  target:engine:variant for each (variant 0: none)
# fuzz-trace and fuzz-input, the trace replay's targets, are not an engine's:
# not listed (fuzz.sh runs them too).
here=$(dirname "$0")
case "${1:-}" in
"") rules=0 ;;
--rules) rules=1 ;;
-h|--help) sed -n '2,8s/^# \{0,1\}//p' "$0"; exit 0 ;;
*) echo "targets.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
esac
engines=$("$here/../../scripts/engines.sh") || exit 2
sep=
for e in $engines; do
	variants=
	[ -f "$here/models/$e.c" ] &&
		variants=$(sed -n 's|^/\* fuzz variants: \([0-9 ]*\) \*/$|\1|p' "$here/models/$e.c")
	for v in ${variants:-0}; do
		t=$e
		[ "$v" = 0 ] || t=$e$v
		[ $rules = 1 ] && t=$t:$e:$v
		printf '%s%s' "$sep" "$t"
		sep=' '
	done
done
echo
