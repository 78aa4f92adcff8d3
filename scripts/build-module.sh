#!/usr/bin/env bash
# Builds twheel.ko (and twheel_kunit.ko when the kernel has KUnit) against
# KDIR in a copy of the sources under the cache, so builds for different
# kernels never mix. Prints the directory holding the .ko files.
#   scripts/build-module.sh KDIR NAME [make args...]
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kdir=$1 name=$2
shift 2
# TWHEEL_MOD_TAG keeps the builds of a second checkout (a worktree) apart.
dst=$TWHEEL_CACHE/mod-$name${TWHEEL_MOD_TAG:+-$TWHEEL_MOD_TAG}
mkdir -p "$dst/kunit" "$dst/engines"
# Copy only what changed so incremental builds stay incremental.
cd "$TWHEEL_ROOT"
for f in Kbuild dkms.conf *.c *.h kunit/*.c kunit/*.h engines/*.c engines/*.h; do
	[ -f "$TWHEEL_ROOT/$f" ] || continue
	cmp -s "$TWHEEL_ROOT/$f" "$dst/$f" || cp "$TWHEEL_ROOT/$f" "$dst/$f"
done
for f in "$dst"/*.[ch] "$dst"/kunit/*.[ch] "$dst"/engines/*.[ch]; do
	rel=${f#"$dst"/}
	[ -f "$TWHEEL_ROOT/$rel" ] || rm -f "$f"
done
make -s -C "$kdir" M="$dst" "$@" modules >&2 || die "module build against $kdir failed"
echo "$dst"
