#!/usr/bin/env bash
# README.md's "Use it on your own machine" block, run as written in a test
# kernel guest as root (sudo there runs its command): its first line, the
# marker "# run by make check: ..." (scripts/doc-blocks.py), is left out;
# the next line's make load PARAMS= becomes the insmod that make load does
# (the guest has no make), every other line runs as it is; then
# scripts/guest/readme.sh checks that the workload loaded and runs. Prints
# the block, the guest's ok/FAILED lines; exits non-zero on a failure (75:
# the guest did not boot).
#   scripts/readme-check.sh [qemu.sh options...]
set -euo pipefail
. "$(dirname "$0")/lib.sh"

block=$(awk '/^\*\*Use it on your own machine\.\*\*/ { on = 1; next }
	on && /^    / { print substr($0, 5); got = 1; next }
	on && got { exit }' "$TWHEEL_ROOT/README.md" | sed '1{/^# run by make check:/d}')
[ -n "$block" ] || die "README.md: no indented block after **Use it on your own machine.**"
first=$(printf '%s\n' "$block" | head -n 1)
case "$first" in
"make && sudo make load PARAMS='"*"'") ;;
*) die "README.md: the block's first line is not make && sudo make load PARAMS='...': $first" ;;
esac
params=${first#*PARAMS=\'}
params=${params%\'}
echo "README.md's block, run in the guest:"
printf '%s\n' "$block" | sed 's/^/    /'
cmd="printf '#!/bin/sh\\nexec \"\$@\"\\n' >/bin/sudo && chmod +x /bin/sudo
insmod /lib/twheel/twheel.ko $params || echo 'FAILED: insmod $params'
{
$(printf '%s\n' "$block" | tail -n +2)
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
