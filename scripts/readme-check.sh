#!/usr/bin/env bash
# README.md's "Use it on your own machine" block and docs/usage.md's
# "Using it on your own machine" block, each run as written in a test
# kernel guest as root (sudo there runs its command): their first line,
# the marker "# run by make check: ..." (scripts/doc-blocks.py), is left
# out; make load PARAMS='...' becomes the insmod that make load does and
# a line that is only make is dropped (the guest has no make: the module
# is built), every other line runs as it is. scripts/guest/readme.sh
# checks that README's workload loaded and runs, then runs usage.md's
# block (its load, start, stats read and rmmod taken). Prints the blocks,
# the guest's ok/FAILED lines; exits non-zero on a failure (75: the guest
# did not boot).
#   scripts/readme-check.sh [qemu.sh options...]
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# block_of FILE START: the first indented block after the line matching
# the awk pattern START, less its marker line
block_of() {
	awk -v start="$2" '$0 ~ start { on = 1; next }
		on && /^    / { print substr($0, 5); got = 1; next }
		on && got { exit }' "$1" | sed '1{/^# run by make check:/d}'
}
# in_guest: a block's lines as the guest runs them (make load's insmod for
# make load, no make)
in_guest() {
	sed -e "s|^make && sudo make load PARAMS='\([^']*\)'.*|insmod /lib/twheel/twheel.ko \1 \|\| echo 'FAILED: insmod \1'|" \
		-e "s|^sudo make load PARAMS='\([^']*\)'.*|insmod /lib/twheel/twheel.ko \1 \|\| echo 'FAILED: insmod \1'|" \
		-e '/^make[[:space:]]*\(#.*\)\{0,1\}$/d'
}
block=$(block_of "$TWHEEL_ROOT/README.md" '^\*\*Use it on your own machine\.\*\*')
[ -n "$block" ] || die "README.md: no indented block after **Use it on your own machine.**"
usage=$(block_of "$TWHEEL_ROOT/docs/usage.md" '^## Using it on your own machine$')
[ -n "$usage" ] || die "docs/usage.md: no indented block under ## Using it on your own machine"
printf '%s\n' "$usage" | grep -q "^sudo make load PARAMS='" ||
	die "docs/usage.md's block has no sudo make load PARAMS='...' line"
first=$(printf '%s\n' "$block" | head -n 1)
case "$first" in
"make && sudo make load PARAMS='"*"'") ;;
*) die "README.md: the block's first line is not make && sudo make load PARAMS='...': $first" ;;
esac
echo "README.md's block, run in the guest:"
printf '%s\n' "$block" | sed 's/^/    /'
echo "docs/usage.md's block, run in the guest after it:"
printf '%s\n' "$usage" | sed 's/^/    /'
cmd="printf '#!/bin/sh\\nexec \"\$@\"\\n' >/bin/sudo && chmod +x /bin/sudo
cat >/tmp/usage.sh <<'TWHEEL_USAGE_EOF'
$(printf '%s\n' "$usage" | in_guest)
TWHEEL_USAGE_EOF
{
$(printf '%s\n' "$block" | in_guest)
} >/tmp/readme.out 2>&1
sh /guest/readme.sh"
set +e
"$TWHEEL_ROOT/scripts/qemu.sh" "$@" --no-load -- "$cmd" >"${TMPDIR:-/tmp}/readme-check.$$" 2>&1
rc=$?
set -e
out=${TMPDIR:-/tmp}/readme-check.$$
grep -E '^(ok|FAILED|readme):' "$out" || true
[ $rc -eq 75 ] && { rm -f "$out"; exit 75; }
grep -q '^readme: 0 failures' "$out" || { tail -n 20 "$out"; rm -f "$out"; exit 1; }
rm -f "$out"
