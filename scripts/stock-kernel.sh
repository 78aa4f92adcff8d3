#!/usr/bin/env bash
# Fetches Debian's stock linux-image-6.12-amd64 kernel and its headers.
# Prints shell assignments for kdir (headers) and bzimage.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

apt_need linux-headers-6.12-amd64
kver=$(dpkg-query -W -f='${Depends}' linux-headers-6.12-amd64 |
	sed -n 's/.*linux-headers-\(6\.12[^ ,]*-amd64\).*/\1/p')
[ -n "$kver" ] || die "cannot tell the 6.12 headers' version"
dir=$TWHEEL_CACHE/stock-$kver
if [ ! -f "$dir/vmlinuz" ]; then
	mkdir -p "$dir/deb"
	(cd "$dir/deb" && apt-get download -q "linux-image-$kver" >/dev/null 2>&1 ||
		apt-get download -q "linux-image-$kver-unsigned" >/dev/null) ||
		die "cannot download linux-image-$kver"
	dpkg-deb -x "$dir"/deb/*.deb "$dir/x"
	cp "$dir/x/boot/vmlinuz-$kver" "$dir/vmlinuz"
	rm -rf "$dir/x" "$dir/deb"
fi
printf 'stock_kdir=%q\nstock_bzimage=%q\n' "/usr/src/linux-headers-$kver" "$dir/vmlinuz"
