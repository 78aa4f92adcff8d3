#!/usr/bin/env bash
# Boots a guest with twheel.ko loaded and debugfs mounted, runs COMMAND in
# it, prints the command's output and exits with its status.
#
#   scripts/qemu.sh [--kernel test|debug|stock] [--clock wall|icount]
#                   [--timeout SECS] [--smp N] [--log FILE] [--no-load]
#                   [--file HOSTFILE:GUESTPATH]... [-- COMMAND...]
# (TWHEEL_GUEST_BINS="prog..." copies host programs and their libraries in;
# --file copies one host file to GUESTPATH, e.g. a module built elsewhere;
# TWHEEL_CLOCK sets the default --clock)
#
# COMMAND is a command and its arguments, run as given (scripts/qemu.sh --
# sh -c 'a; b' runs both); one single argument is a command line for the
# guest's sh ('sh /guest/a.sh && sh /guest/b.sh'). With no COMMAND and a
# terminal on stdin, it opens a shell in the guest.
# test:  the project's own kernel (scripts/build-kernel.sh), with KUnit.
# debug: the same plus KASAN, lockdep, UBSAN, ODEBUG, kmemleak (debug.config);
#        2 CPUs and 1024 MiB unless --smp or TWHEEL_MEM say otherwise.
# stock: Debian's linux-image-6.12-amd64, module built against its headers.
# --clock wall (default): multi-threaded TCG, the guest's clock is the
#        host's; its timings move with the host's load.
# --clock icount: QEMU's instruction counter (-icount shift=0,align=off,
#        sleep=off, single-threaded TCG): guest time advances 1 ns per guest
#        instruction and jumps over idle time, so what the guest measures
#        does not depend on how busy the host is (SMP guests run their
#        vCPUs in turn on one host thread).
# The run fails (exit 1) on a kernel splat (BUG, WARNING, oops, KASAN, UBSAN,
# lockdep, ODEBUG, kmemleak, RCU stall) in the guest's log, and ends after
# --timeout seconds (default 600) whatever happens. A guest that does not
# reach its init (a panic or hang while booting, before any module is
# loaded) is booted once more; if that fails too, the exit status is 75
# (an infrastructure failure, not the module's) and each such retry is
# added as a line to the file TWHEEL_INFRA_LOG names, if set.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

variant=test timeout=600 smp="" log="" load=1 clock=${TWHEEL_CLOCK:-wall} files=()
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) variant=$2; shift 2 ;;
	--clock) clock=$2; shift 2 ;;
	--clock=*) clock=${1#--clock=}; shift ;;
	--timeout) timeout=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--log) log=$2; shift 2 ;;
	--no-load) load=0; shift ;;
	--file)
		case "$2" in /*:/*) ;; *) die "--file takes HOSTFILE:GUESTPATH, both absolute: $2" ;; esac
		[ -f "${2%%:*}" ] || die "--file: no file ${2%%:*}"
		files+=("$2"); shift 2 ;;
	--) shift; break ;;
	-h|--help) sed -n '2,33p' "$0"; exit 0 ;;
	*) die "unknown option $1 (see --help)" ;;
	esac
done

"$TWHEEL_ROOT/scripts/setup.sh"
case "$variant" in
test|debug)
	kdir=$("$TWHEEL_ROOT/scripts/build-kernel.sh" "$variant")
	bzimage=$kdir/arch/x86/boot/bzImage
	;;
stock)
	eval "$("$TWHEEL_ROOT/scripts/stock-kernel.sh")"
	kdir=$stock_kdir bzimage=$stock_bzimage
	;;
*) die "--kernel takes test, debug or stock" ;;
esac
case "$clock" in
wall|icount) ;;
*) die "--clock takes wall or icount, not '$clock'" ;;
esac
# KASAN's shadow and the checkers' bookkeeping want memory; SMP is tested.
mem=${TWHEEL_MEM:-512}
if [ "$variant" = debug ]; then
	mem=${TWHEEL_MEM:-1024}
	smp=${smp:-2}
fi
smp=${smp:-1}

moddir=$("$TWHEEL_ROOT/scripts/build-module.sh" "$kdir" "$variant")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/root
mkdir -p "$root"/{bin,sbin,etc,lib/twheel,guest,proc,sys,dev,tmp}
cp /bin/busybox "$root/bin/busybox"
cp "$TWHEEL_ROOT/scripts/guest/init" "$root/init"
cp "$TWHEEL_ROOT"/scripts/guest/*.sh "$root/guest/" 2>/dev/null || true
# The engine list (engines/list.h) for the guest scripts (lib.sh).
"$TWHEEL_ROOT/scripts/engines.sh" >"$root/guest/engines"
"$TWHEEL_ROOT/scripts/engines.sh" --exact >"$root/guest/engines.exact"
chmod +x "$root/init"
cp "$moddir"/*.ko "$root/lib/twheel/"
[ -n "$(ls "$moddir"/extra/*.ko 2>/dev/null)" ] && cp "$moddir"/extra/*.ko "$root/lib/twheel/"
: >"$root/etc/twheel-preload"
# the guest's scripts can tell which clock they run on
echo "$clock" >"$root/etc/twheel-clock"
for m in ${TWHEEL_PRELOAD:-}; do echo "$m" >>"$root/etc/twheel-preload"; done
# Host programs for the guest (TWHEEL_GUEST_BINS, e.g. "trace-cmd perf"),
# each with the shared libraries it loads, at the same paths.
for b in ${TWHEEL_GUEST_BINS:-}; do
	p=$(command -v "$b") || die "TWHEEL_GUEST_BINS: no $b on this host"
	for f in "$p" $(ldd "$p" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
		mkdir -p "$root$(dirname "$f")"
		cp -L "$f" "$root$f"
	done
done
for f in "${files[@]}"; do
	mkdir -p "$root$(dirname "${f#*:}")"
	cp "${f%%:*}" "$root${f#*:}"
done
[ $load -eq 1 ] && echo twheel.ko >>"$root/etc/twheel-preload"
if [ $# -eq 1 ]; then
	# One argument: a command line, as the guest's sh reads it.
	printf '%s\n' "$1" >"$root/cmd"
	interactive=0
elif [ $# -gt 1 ]; then
	# A command and its arguments, each kept as given (single-quoted).
	q=""
	for a in "$@"; do
		q+="'${a//\'/\'\\\'\'}' "
	done
	printf '%s\n' "$q" >"$root/cmd"
	interactive=0
elif [ -t 0 ]; then
	interactive=1
else
	die "no COMMAND and no terminal: nothing to do"
fi
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$work/initrd.gz"

# The host's TSC rate for the guest (see scripts/tsc-khz.c); x86 hosts only.
tsc=""
if [ "$(uname -m)" = x86_64 ]; then
	tk=$TWHEEL_CACHE/tsc-khz
	[ "$tk" -nt "$TWHEEL_ROOT/scripts/tsc-khz.c" ] ||
		gcc -O2 -o "$tk" "$TWHEEL_ROOT/scripts/tsc-khz.c" || rm -f "$tk"
	khz=$("$tk" 2>/dev/null || true)
	[ -n "$khz" ] && tsc="tsc_early_khz=$khz"
fi
accel=(-accel tcg)
if [ "$clock" = icount ]; then
	# The guest's TSC counts the virtual ns of the instruction counter:
	# 1 GHz whatever the host's rate.
	accel=(-accel tcg,thread=single -icount shift=0,align=off,sleep=off)
	tsc="tsc_early_khz=1000000"
fi

qemu=(qemu-system-x86_64 "${accel[@]}" -m "$mem" -smp "$smp"
	-nographic -no-reboot -kernel "$bzimage" -initrd "$work/initrd.gz"
	-device isa-debug-exit,iobase=0xf4,iosize=0x04
	-append "console=ttyS0 quiet panic=-1 oops=panic tsc=reliable $tsc ${TWHEEL_APPEND:-}")

if [ $interactive -eq 1 ]; then
	"${qemu[@]}" || true
	exit 0
fi

out=$work/console.log
# boot: runs the guest once; returns 75 when it never reached its init
# (the BOOTED line), ended within TWHEEL_BOOT_TIMEOUT seconds then.
boot_limit=${TWHEEL_BOOT_TIMEOUT:-300}
boot() {
	local qpid t=0
	timeout -k 10 "$timeout" "${qemu[@]}" </dev/null >"$out" 2>&1 &
	qpid=$!
	while kill -0 "$qpid" 2>/dev/null; do
		grep -q '@@TWHEEL-BOOTED@@' "$out" && break
		if [ $t -ge "$boot_limit" ]; then
			kill "$qpid" 2>/dev/null
			break
		fi
		sleep 1
		t=$((t + 1))
	done
	wait "$qpid"
	qrc=$?
	grep -q '@@TWHEEL-BOOTED@@' "$out" || return 75
	return 0
}
set +e
boot
brc=$?
if [ $brc -eq 75 ]; then
	log "the guest did not boot to its init (qemu exit $qrc); its console's last lines:"
	tr -d '\r' <"$out" | tail -n 25 >&2
	[ -n "${TWHEEL_INFRA_LOG:-}" ] &&
		echo "retried a boot: --kernel $variant --clock $clock: $(tr -d '\r' <"$out" | grep -E -o -m1 '(Kernel panic|BUG:|Oops).*' || echo "no init within ${boot_limit}s")" >>"$TWHEEL_INFRA_LOG"
	log "booting it once more"
	boot
	brc=$?
fi
set -e
[ -n "$log" ] && cp "$out" "$log"
if [ $brc -eq 75 ]; then
	log "infrastructure failure: the guest did not boot twice (not the module's: nothing was loaded); its console's last lines:"
	tr -d '\r' <"$out" | tail -n 40 >&2
	exit 75
fi
tr -d '\r' <"$out" >"$out.unix"
# The command's output, between the sentinels.
sed -n '/@@TWHEEL-BEGIN@@$/,/^@@TWHEEL-END rc=[0-9]*@@$/p' "$out.unix" |
	sed '1d;$d'
rc=$(sed -n 's/^@@TWHEEL-END rc=\([0-9]*\)@@$/\1/p' "$out.unix" | tail -n 1)
if [ -z "$rc" ]; then
	log "guest did not finish (qemu exit $qrc, timeout ${timeout}s); last lines:"
	tail -n 40 "$out.unix" >&2
	exit 125
fi
splat='BUG:|WARNING:|Oops|general protection|Kernel panic|KASAN:|UBSAN:|possible circular locking|inconsistent lock state|ODEBUG:|kmemleak:.*new suspected|leak detector disabled|rcu: INFO:|Call Trace:'
if grep -E -q "$splat" "$out.unix"; then
	log "kernel splat in the guest log:"
	grep -E -B2 -A20 "$splat" "$out.unix" | head -n 60 >&2
	exit 1
fi
grep -q '^@@TWHEEL-DMESG-END@@$' "$out.unix" || { log "guest log incomplete"; exit 125; }
exit "$rc"
