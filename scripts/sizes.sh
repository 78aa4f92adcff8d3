#!/usr/bin/env bash
# The sizes that keep the code readable: no C file of the module (the
# KUnit suites in kunit/ aside) or of the user-space tools over 700 lines,
# twheel.h (the engine contract) over 600, twheel_main.c over 450. Each
# file over its limit is named, with its lines and the limit; exit 1 if
# any is.
#   scripts/sizes.sh [DIR]
set -uo pipefail

root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || exit 2

bad=0
# over FILE LIMIT: complain and count if FILE has more than LIMIT lines
over() {
	local n
	n=$(wc -l <"$1")
	if [ "$n" -gt "$2" ]; then
		echo "sizes: $1 has $n lines, over its limit of $2"
		bad=$((bad + 1))
	fi
}

over twheel.h 600
over twheel_main.c 450
while IFS= read -r f; do
	case $f in
	twheel.h | twheel_main.c | kunit/*) continue ;;
	esac
	over "$f" 700
done < <(git ls-files '*.c' 2>/dev/null || find . -name '*.c' -printf '%P\n')
[ "$bad" -eq 0 ] && echo "sizes: every file within its limit (C files 700, twheel.h 600, twheel_main.c 450)"
[ "$bad" -eq 0 ]
