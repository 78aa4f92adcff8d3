#!/usr/bin/env bash
# dkms build of the twheel package (dkms.conf) against every installed Debian
# 6.1 and 6.12 header tree, in a throwaway DKMS tree and source tree: nothing
# goes to /var/lib/dkms, /usr/src or /lib/modules. One "PASS|FAIL dkms build
# <kernel>" line per kernel; exits non-zero on any FAIL.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

apt_need dkms linux-headers-amd64 linux-headers-6.12-amd64
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
	else
		tail -n 40 "$log"	# on a failed make, dkms prints make.log here
		printf 'FAIL dkms build %s\n' "$kver"
		failed=1
	fi
done

if [ "$(host_state)" != "$before" ]; then
	echo "dkms left something on the host:"
	diff <(echo "$before") <(host_state)
	failed=1
fi
exit $failed
