#!/usr/bin/env bash
# README.md's "Use it on your own machine" block and docs/usage.md's
# "Using it on your own machine" block, each run as written in a test
# kernel guest as root (sudo there runs its command): their first line,
# the marker "# run by make check: ..." (scripts/doc-blocks.py), is left
# out; make load PARAMS='...' becomes the insmod that make load does and
# a line that is only make is dropped (the guest has no make: the module
# is built), every other line runs as it is. scripts/guest/readme.sh
# checks that README's workload loaded and runs, that each workload loaded
# without keys takes the defaults usage.md's Workloads list gives and runs,
# then runs usage.md's block (its load, start, stats read and rmmod taken). Prints the blocks,
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
# doc_defaults FILE: each workload's defaults as docs/usage.md's Workloads
# list gives them in parentheses, one line a workload: "NAME KEY=VALUE..."
# (min=max=V is min=V max=V, 2^20 is 1048576); the guest checks the module
# takes them for a load without keys (scripts/guest/readme.sh)
doc_defaults() {
	awk '/^## Workloads$/ { on = 1; next } on && /^## / { exit }
		on && /^    [a-z]+ / { w = $1 } on && w != "" && /^    / { print w " " $0 }' "$1" |
	awk '{ w = $1; $1 = ""; t[w] = t[w] $0 } END { for (w in t) print w " " t[w] }' |
	while read -r w text; do
		case "$w" in timeouts | expiring | long | burst | mixed) ;; *) continue ;; esac
		par=$(printf '%s\n' "$text" | sed -n 's/^[^(]*(\(count=[^)]*\)).*/\1/p')
		printf '%s %s\n' "$w" "$(printf '%s\n' "$par" | sed 's/min=max=\([0-9]*\)/min=\1 max=\1/; s/2^20/1048576/g')"
	done | sort
}
defaults=$(doc_defaults "$TWHEEL_ROOT/docs/usage.md")
[ "$(printf '%s\n' "$defaults" | grep -c ' count=')" = 5 ] ||
	die "docs/usage.md's Workloads list: not five workloads with (count=...) defaults: $defaults"
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
cat >/tmp/defaults <<'TWHEEL_DEFAULTS_EOF'
$defaults
TWHEEL_DEFAULTS_EOF
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
