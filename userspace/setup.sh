#!/usr/bin/env bash
# Installs what the user-space builds need (non-interactive) and prints the
# unpacked linux-source-6.12 directory, unpacking it first if needed, the
# way scripts/build-kernel.sh does: its tools/ rbtree is compiled in.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

apt_need clang libclang-rt-14-dev valgrind linux-source-6.12 xz-utils make gcc
src=$(ksrc_dir)
if [ ! -f "$src/Makefile" ]; then
	log "unpacking $KSRC_TARBALL into $(dirname "$src")"
	rm -rf "$(dirname "$src")"
	mkdir -p "$(dirname "$src")"
	tar -xJf "$KSRC_TARBALL" -C "$(dirname "$src")"
fi
[ -f "$src/tools/lib/rbtree.c" ] || die "no tools/lib/rbtree.c in $src"
echo "$src"
