#!/usr/bin/env bash
# Fetches Debian's stock linux-image-6.12-amd64 kernel and its headers.
# Prints shell assignments for kdir (headers) and bzimage.
# The image is the headers' own build: the same release (uname -r, what a
# module's vermagic names) and the same Debian package version (the symbol
# CRCs a module built against the headers checks at insmod). A cached
# image of another package version is fetched again at the headers'; one
# that cannot be is an error naming both versions.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

apt_need linux-headers-6.12-amd64
kver=$(dpkg-query -W -f='${Depends}' linux-headers-6.12-amd64 |
	sed -n 's/.*linux-headers-\(6\.12[^ ,]*-amd64\).*/\1/p')
[ -n "$kver" ] || die "cannot tell the 6.12 headers' version"
hver=$(dpkg-query -W -f='${Version}' "linux-headers-$kver")
dir=$TWHEEL_CACHE/stock-$kver
# banner FILE: the bzImage's version string (the kernel_version field of
# its boot header, as file(1) reads it): "<release> (...) #1 SMP ...
# Debian <package version> (<date>)"
banner() {
	local off
	off=$(od -An -tu2 -j 526 -N2 "$1" | tr -d ' ')
	[ -n "$off" ] && [ "$off" -gt 0 ] || return 0
	dd if="$1" bs=1 skip=$((off + 512)) count=256 2>/dev/null | tr '\0' '\n' | head -n 1
}
matches() {	# matches FILE: its banner is kver's, of package version hver
	local b
	b=$(banner "$1")
	case "$b" in "$kver "*" Debian $hver "*) return 0 ;; esac
	return 1
}
if [ -f "$dir/vmlinuz" ] && ! matches "$dir/vmlinuz"; then
	log "the cached stock kernel is not the headers' build ($kver, Debian $hver): $(banner "$dir/vmlinuz"); fetching $hver"
	rm -f "$dir/vmlinuz"
fi
if [ ! -f "$dir/vmlinuz" ]; then
	mkdir -p "$dir/deb"
	(cd "$dir/deb" && apt-get download -q "linux-image-$kver=$hver" >/dev/null 2>&1 ||
		apt-get download -q "linux-image-$kver-unsigned=$hver" >/dev/null) ||
		die "cannot download linux-image-$kver at $hver, the version of the installed linux-headers-$kver (apt-get update, then apt-get install linux-headers-6.12-amd64: headers of a version apt can download)"
	dpkg-deb -x "$dir"/deb/*.deb "$dir/x"
	cp "$dir/x/boot/vmlinuz-$kver" "$dir/vmlinuz"
	rm -rf "$dir/x" "$dir/deb"
fi
matches "$dir/vmlinuz" ||
	die "$dir/vmlinuz is '$(banner "$dir/vmlinuz")', not $kver of Debian $hver (linux-headers-$kver): a module built against those headers would not load in it"
printf 'stock_kdir=%q\nstock_bzimage=%q\nstock_release=%q\nstock_version=%q\n' \
	"/usr/src/linux-headers-$kver" "$dir/vmlinuz" "$kver" "$hver"
