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
# The module's folders (Kbuild's): every C file and header in them. Copy
# only what changed so incremental builds stay incremental; drop what went.
dirs="engines runner driver shadow readout kunit"
cd "$TWHEEL_ROOT"
# One build a directory at a time: two checkouts building the same NAME
# at once would mix their sources (set TWHEEL_MOD_TAG in one of them to
# run both side by side).
mkdir -p "$TWHEEL_CACHE"
exec 7>"$dst.lock"
flock 7
for d in $dirs; do mkdir -p "$dst/$d"; done
for f in Kbuild dkms.conf *.c *.h $(for d in $dirs; do echo "$d"/*.[ch]; done); do
	[ -f "$TWHEEL_ROOT/$f" ] || continue
	cmp -s "$TWHEEL_ROOT/$f" "$dst/$f" || cp "$TWHEEL_ROOT/$f" "$dst/$f"
done
for f in "$dst"/*.[ch] $(for d in $dirs; do echo "$dst/$d"/*.[ch]; done); do
	[ -e "$f" ] || continue
	[ -f "$TWHEEL_ROOT/${f#"$dst"/}" ] || rm -f "$f"
done
make -s -C "$kdir" M="$dst" "$@" modules >&2 || die "module build against $kdir failed"
echo "$dst"
