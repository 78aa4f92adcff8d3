#!/usr/bin/env bash
# dkms build of the twheel package (dkms.conf) against every installed Debian
# 6.1 and 6.12 header tree, in a throwaway DKMS tree and source tree: nothing
# goes to /var/lib/dkms, /usr/src or /lib/modules. One "PASS|FAIL dkms build
# <kernel>" line per kernel; exits non-zero on any FAIL.
#   scripts/dkms-check.sh [--ko-dir DIR] [--boot]
# --ko-dir DIR: the twheel.ko dkms built for the stock kernel's headers
#   (scripts/stock-kernel.sh: the 6.12 release qemu.sh --kernel stock
#   boots) is kept in DIR, with DIR/env: its ver= and srcver= (modinfo),
#   the arguments of scripts/guest/dkms.sh, which make check runs in its
#   stock kernel guest (scripts/check.sh).
# --boot: that guest, booted here: the module loaded and run in Debian's
#   stock 6.12 kernel ("PASS|FAIL dkms module loads <kernel>").
set -uo pipefail
. "$(dirname "$0")/lib.sh"

kodir="" boot=0
while [ $# -gt 0 ]; do
	case "$1" in
	--ko-dir) kodir=$2; shift 2 ;;
	--boot) boot=1; shift ;;
	*) die "unknown option $1 (scripts/dkms-check.sh [--ko-dir DIR] [--boot])" ;;
	esac
done
apt_need dkms linux-headers-amd64 linux-headers-6.12-amd64
# The stock kernel's release: its module is the one --ko-dir and --boot
# take (none without the stock kernel: they fail, the builds go on).
stock_release=""
if st=$("$TWHEEL_ROOT/scripts/stock-kernel.sh"); then
	eval "$st"
else
	[ -n "$kodir" ] || [ $boot = 1 ] && echo "no stock kernel (scripts/stock-kernel.sh, above): no module for its guest"
fi
cd "$TWHEEL_ROOT" || exit 1
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' dkms.conf)
[ -n "$ver" ] || die "no PACKAGE_VERSION in dkms.conf"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The package as dkms expects it: <sourcetree>/twheel-<version>/, holding the
# module's sources and dkms.conf, made by docs/usage.md's own lines (its
# "Install with DKMS" block from ver= to the copy), read from the doc as
# they are, with src= set to the throwaway directory and sudo left out.
pkg=$work/src/twheel-$ver
mkdir -p "$work/tree"
copy=$(awk '/^### Install with DKMS/ { on = 1; next } on && /^#/ { exit }
	on && /^    / { print substr($0, 5) }' docs/usage.md |
	sed -n '/^ver=/,/xargs/p')
printf '%s\n' "$copy" | grep -q '^src=/usr/src/twheel-\$ver$' ||
	die "docs/usage.md's DKMS block has no line src=/usr/src/twheel-\$ver"
printf '%s\n' "$copy" | grep -q 'xargs' || die "docs/usage.md's DKMS block has no copy command"
copy=$(printf '%s\n' "$copy" | sed "s|^src=.*|src='$pkg'|; s/sudo //g")
echo "docs/usage.md's lines, as run here:"
printf '%s\n' "$copy" | sed 's/^/    /'
(set -e; eval "$copy") || die "docs/usage.md's copy command failed"
[ -f "$pkg/dkms.conf" ] && [ -f "$pkg/driver/twheel_tick.h" ] ||
	die "docs/usage.md's copy command left out files the build needs"

host_state() {
	ls -A /var/lib/dkms 2>/dev/null
	find /usr/src -maxdepth 1 -name 'twheel*' 2>/dev/null
	find /lib/modules -maxdepth 4 -name 'twheel*' 2>/dev/null
}
before=$(host_state)

failed=0
shopt -s nullglob
kdirs=(/usr/src/linux-headers-6.1.*-amd64 /usr/src/linux-headers-6.12.*-amd64)
[ ${#kdirs[@]} -gt 0 ] || { echo "no Debian 6.1/6.12 headers under /usr/src"; failed=1; }
for kdir in "${kdirs[@]}"; do
	kver=${kdir#/usr/src/linux-headers-}
	log="$work/build-$kver.log"
	# dkms signs what it builds, creating a key when there is none: keep
	# that key in the throwaway tree too (the signing variables are read
	# from the environment as well as from /etc/dkms/framework.conf).
	as_root env mok_signing_key="$work/mok.key" mok_certificate="$work/mok.pub" \
		dkms build "twheel/$ver" -k "$kver" --kernelsourcedir "$kdir" \
		--dkmstree "$work/tree" --sourcetree "$work/src" -j "$TWHEEL_JOBS" \
		>"$log" 2>&1
	rc=$?
	[ -n "${TWHEEL_DKMS_VERBOSE:-}" ] && cat "$log"
	ko=$(find "$work/tree/twheel/$ver/$kver" -name 'twheel.ko*' 2>/dev/null | head -n 1)
	if [ $rc -eq 0 ] && [ -n "$ko" ] &&
	   [ "$(modinfo -F version "$ko")" = "$ver" ] &&
	   modinfo -F vermagic "$ko" | grep -q "^$kver "; then
		printf 'PASS dkms build %s\n' "$kver"
		if [ "$kver" = "$stock_release" ]; then
			stock_ko=$ko
		fi
	else
		tail -n 40 "$log"	# on a failed make, dkms prints make.log here
		printf 'FAIL dkms build %s\n' "$kver"
		failed=1
	fi
done

# The module built for the stock kernel's release (stock-kernel.sh: its
# image is the headers' build), for its guest.
stock_ko=${stock_ko:-}
if [ -n "$kodir" ] || [ $boot = 1 ]; then
	if [ -z "$stock_ko" ]; then
		echo "dkms built no module for the stock kernel ${stock_release:-(none)}"
		failed=1
	else
		keep=${kodir:-$work/ko}
		mkdir -p "$keep"
		case "$stock_ko" in
		*.ko) cp "$stock_ko" "$keep/twheel.ko" ;;
		*.ko.xz) xz -dc "$stock_ko" >"$keep/twheel.ko" ;;
		*.ko.zst) zstd -q -dc "$stock_ko" >"$keep/twheel.ko" ;;
		*.ko.gz) gzip -dc "$stock_ko" >"$keep/twheel.ko" ;;
		esac
		printf 'ver=%q\nsrcver=%q\n' "$ver" "$(modinfo -F srcversion "$keep/twheel.ko")" >"$keep/env"
	fi
fi
if [ $boot = 1 ] && [ -n "$stock_ko" ]; then
	. "$keep/env"
	"$TWHEEL_ROOT/scripts/qemu.sh" --kernel stock --clock icount --no-load --timeout 300 \
		--file "$keep/twheel.ko:/lib/twheel/dkms/twheel.ko" -- \
		sh /guest/dkms.sh /lib/twheel/dkms/twheel.ko "$ver" "$srcver" >"$work/boot.log" 2>&1
	rc=$?
	grep -E '^(ok|FAILED|dkms):' "$work/boot.log"
	if [ $rc -eq 0 ] && grep -q '^dkms: 0 failures' "$work/boot.log"; then
		printf 'PASS dkms module loads %s\n' "$stock_release"
	else
		tail -n 20 "$work/boot.log"
		printf 'FAIL dkms module loads %s\n' "$stock_release"
		failed=1
	fi
fi

if [ "$(host_state)" != "$before" ]; then
	echo "dkms left something on the host:"
	diff <(echo "$before") <(host_state)
	failed=1
fi
exit $failed
