#!/usr/bin/env bash
# make check's host-side checks of what a user meets on their own machine:
# no module, no QEMU, seconds. One "PASS|FAIL NAME" line each (check.sh
# counts them); the details of a failure on stderr.
#   scripts/host-checks.sh
# The kernel's files are faked: TWHEEL_LOCKDOWN_FILE, TWHEEL_DEBUGFS,
# TWHEEL_KO, make's HOST_KDIR.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$TWHEEL_ROOT" || exit 1
fails=0
# result NAME CONDITION...: PASS or FAIL, and the output that failed.
result() {
	local name=$1
	shift
	if "$@"; then echo "PASS $name"; else
		echo "FAIL $name"; sed 's/^/  | /' "$work/out" >&2; fails=$((fails + 1)); fi
}
has() { grep -q -F -- "$1" "$work/out"; }

# 1. make without headers for the running kernel: one line, the packages,
# KDIR=, exit non-zero; a KDIR that is no tree named; make help.
make -s --no-print-directory HOST_KDIR="$work/none" modules >"$work/out" 2>&1
rc=$?
result "make without kernel headers: one line naming the packages and KDIR=" \
	eval '[ $rc -ne 0 ] && [ "$(wc -l <"$work/out")" -eq 1 ] && has "linux-headers-$(uname -r)" && has kernel-devel && has "make KDIR=/path/to/build" && has "$work/none"'
make -s --no-print-directory KDIR="$work/no tree" modules >"$work/out" 2>&1
rc=$?
result "make KDIR=<not a kernel tree>: one line naming it" \
	eval '[ $rc -ne 0 ] && [ "$(wc -l <"$work/out")" -eq 1 ] && has "KDIR=$work/no tree is not a kernel build tree"'
make -s --no-print-directory help >"$work/out" 2>&1
rc=$?
missing=$(sed -n 's/^\.PHONY: *//p' Makefile | tr ' ' '\n' | grep -v -x 'all\|' |
	while read -r t; do grep -q "^make $t\b" "$work/out" || echo "$t"; done)
[ -z "$missing" ] || echo "not in make help: $missing" >>"$work/out"
result "make help: every target, exit 0" eval '[ $rc -eq 0 ] && [ -z "$missing" ]'

# 2. Lockdown and debugfs, before insmod (make load) and in compare
# --host's preflight, with the kernel's files faked.
printf 'vermagic=0.0-fake SMP mod_unload\n' >"$work/fake.ko"
cp "$work/fake.ko" "$work/signed.ko"
printf '~Module signature appended~\n' >>"$work/signed.ko"
lock() { printf '%s\n' "$1" >"$work/lockdown"; }
load() { TWHEEL_LOCKDOWN_FILE=$work/lockdown TWHEEL_KO=${KO:-$work/fake.ko} TWHEEL_LOAD_DRY=1 \
	TWHEEL_DEBUGFS=${DBG:-/sys/kernel/debug} scripts/load.sh engines=all >"$work/out" 2>&1; }
lock 'none [integrity] confidentiality'
load; rc=$?
result "make load, lockdown integrity: refused, what was found, MOK signing and Secure Boot off" \
	eval '[ $rc -eq 1 ] && has "load: kernel lockdown is '\''integrity'\'' ($work/lockdown reads '\''none [integrity] confidentiality'\''" && has "mokutil --import" && has scripts/sign-file && has "disable Secure Boot" && has "control would give EPERM" && has "is not signed"'
lock 'none integrity [confidentiality]'
KO=$work/signed.ko load; rc=$?
result "make load, lockdown confidentiality, a signed module: tried, tracefs named" \
	eval 'has "lockdown is '\''confidentiality'\''" && has "also refuses tracefs" && has "is signed: trying insmod" && ! has "is not signed"'
lock '[none] integrity confidentiality'
DBG=$work/nodebugfs load; rc=$?
result "make load, lockdown none, debugfs not mounted: no lockdown line, the mount command" \
	eval '! has lockdown && has "debugfs is not mounted at $work/nodebugfs: mount -t debugfs none $work/nodebugfs"'
rm -f "$work/lockdown"
load; rc=$?
result "make load, no lockdown file: goes on" eval '! has lockdown'
lock 'none [integrity] confidentiality'
TWHEEL_LOCKDOWN_FILE=$work/lockdown sh scripts/guest/compare.sh quick --check >"$work/out" 2>&1
rc=$?
result "compare --host preflight, lockdown integrity: exit 2, what was found, the ways out" \
	eval '[ $rc -eq 2 ] && has "compare: kernel lockdown is '\''integrity'\''" && has mokutil && has "disable Secure Boot"'

# 3. compare.sh: --help lists every option; --host refused here leaves
# nothing behind and installs nothing.
scripts/compare.sh --help >"$work/out" 2>&1
rc=$?
result "compare.sh --help: every option, exit 0" \
	eval '[ $rc -eq 0 ] && has --host && has --out && has --install && has --quick && has --kernel && has twheel-results'
scripts/compare.sh --nope >"$work/out" 2>&1
rc=$?
result "compare.sh with an unknown option: exit 2" eval '[ $rc -eq 2 ] && has "unknown option --nope"'
if [ ! -d /sys/module/twheel ]; then
	XDG_DATA_HOME=$work/xdg TWHEEL_LOCKDOWN_FILE=$work/nothing scripts/compare.sh --host --quick >"$work/out" 2>&1
	rc=$?
	result "compare.sh --host refused here: nothing written, nothing installed" \
		eval '[ $rc -ne 0 ] && has "cannot run here" && [ ! -e "$work/xdg" ] && ! has installing'
fi

# 4. record-trace.sh: --help lists both modes; usage errors exit 2; --host
# needs root.
scripts/record-trace.sh --help >"$work/out" 2>&1
rc=$?
result "record-trace.sh --help: --host and --guest, exit 0" \
	eval '[ $rc -eq 0 ] && has --host && has --guest && has --seconds && has --out && has "make replay"'
scripts/record-trace.sh --host --seconds=x >"$work/out" 2>&1
rc=$?
result "record-trace.sh --seconds=x: exit 2, named" eval '[ $rc -eq 2 ] && has "not '\''x'\''"'
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	# from a copy the unprivileged user can read (the checkout may be in a
	# folder only root enters, as mktemp -d makes them)
	ucopy=$work/user
	mkdir -p "$ucopy" && cp -r scripts "$ucopy/" && chmod -R a+rX "$work"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$ucopy/scripts/record-trace.sh" \
		--host --seconds=1 >"$work/out" 2>&1
	rc=$?
	result "record-trace.sh --host as a user: needs root, exit 2" eval '[ $rc -eq 2 ] && has "needs root"'
fi
# A real recording, 1 s, when this machine lets root trace: the file has
# timer events in the tracefs form and every setting is as it was.
T=
for t in /sys/kernel/tracing /sys/kernel/debug/tracing; do
	[ -d "$t/events/timer" ] && { T=$t; break; }
done
if [ "$(id -u)" -eq 0 ] && [ -n "$T" ]; then
	settings() {
		for f in current_tracer tracing_on options/hash-ptr events/timer/*/enable; do
			printf '%s=%s\n' "$f" "$(cat "$T/$f" 2>/dev/null)"
		done
		# an unallocated buffer ("7 (expanded: 1408)") comes back allocated
		sed 's/.*(expanded: \([0-9]*\)).*/\1/' "$T/buffer_size_kb" |
			awk '{ printf "buffer_size_kb=%d\n", int(($1 + 8) / 16) }'
	}
	settings >"$work/before"
	scripts/record-trace.sh --host --seconds=1 --out "$work/rec.txt" >"$work/out" 2>&1
	rc=$?
	settings >"$work/after"
	diff "$work/before" "$work/after" >>"$work/out"
	result "record-trace.sh --host: 1 s of this machine's timers ($T), every setting put back" \
		eval '[ $rc -eq 0 ] && cmp -s "$work/before" "$work/after" && grep -q ": timer_start: timer=" "$work/rec.txt" && has "next: make replay TRACE="'
else
	echo "record-trace.sh --host: not root or no tracefs here, its recording not tried" >&2
fi
exit $((fails > 0))
