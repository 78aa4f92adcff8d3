#!/bin/sh
# Prints twheel's engines, one line, space-separated, from the one list
# (engines/list.h): every script that needs them reads them here.
#   scripts/engines.sh          every engine, in the order of their kinds
#   scripts/engines.sh --exact  those that run every timer at its jiffy
#   scripts/engines.sh --fast   those with inlined fast paths
# -h/--help prints this. Exit 2 on an unknown option or no list found.
list=$(dirname "$0")/../engines/list.h
case "${1:-}" in
"") want='.' ;;
--exact) want='EXACT' ;;
--fast) want='FAST' ;;
-h|--help) sed -n '2,7s/^# \{0,1\}//p' "$0"; exit 0 ;;
*) echo "engines.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
esac
[ -r "$list" ] || { echo "engines.sh: cannot read $list" >&2; exit 2; }
sed -n 's/^TWHEEL_ENGINE(\([a-z_0-9]*\), *[A-Z_0-9]*, *\([A-Z]*\), *\([A-Z]*\)).*/\1 \2 \3/p' "$list" |
	awk -v w="$want" '$0 ~ w { printf "%s%s", sep, $1; sep = " " } END { print "" }'
