#!/usr/bin/env bash
# Builds (once) the test kernel from Debian's linux-source-6.12 into the
# cache. Prints the build directory on stdout.
#   scripts/build-kernel.sh [test|debug]
set -euo pipefail
. "$(dirname "$0")/lib.sh"

variant=${1:-test}
mapfile -t frags < <(kconfig_frags "$variant")
for frag in "${frags[@]}"; do
	[ -f "$frag" ] || die "no config fragment $frag"
done

"$TWHEEL_ROOT/scripts/setup.sh"
src=$(ksrc_dir)
out=$(kbuild_dir "$variant")

# Checkouts and worktrees share the cache: the source tree is unpacked
# under one lock, and each build directory has one writer at a time (its
# own lock, so a test kernel check never waits for a debug kernel build).
mkdir -p "$TWHEEL_CACHE"
exec 9>"$TWHEEL_CACHE/.src.lock"
flock 9

if [ ! -f "$src/Makefile" ]; then
	log "unpacking $KSRC_TARBALL into $(dirname "$src")"
	rm -rf "$(dirname "$src")"
	mkdir -p "$(dirname "$src")"
	tar -xJf "$KSRC_TARBALL" -C "$(dirname "$src")"
fi

export CCACHE_DIR=${CCACHE_DIR:-$TWHEEL_CACHE/ccache}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
# Keep ccache hits independent of the build directory's name.
export CCACHE_BASEDIR=$TWHEEL_CACHE
export CCACHE_NOHASHDIR=1
export CCACHE_SLOPPINESS=time_macros,include_file_mtime,include_file_ctime
# An empty cache only costs: every file misses and is preprocessed twice
# (the test and debug kernels share no object), so a fresh machine builds
# with plain gcc. TWHEEL_CCACHE=1 starts a cache, for rebuilding after
# config changes; where one exists it is used.
cc=gcc
if [ -d "$CCACHE_DIR" ] || [ -n "${TWHEEL_CCACHE:-}" ]; then
	cc="ccache gcc"
fi
kmake() {
	make -s -C "$src" O="$out" ARCH=x86_64 CC="$cc" \
		KBUILD_BUILD_TIMESTAMP="2025-01-01 00:00:00" KBUILD_BUILD_USER=twheel \
		KBUILD_BUILD_HOST=twheel "$@"
}

exec 9>&-
exec 8>"$out.lock"
flock 8

mkdir -p "$out"
# The directory is keyed by the fragments' hash: configure it once (the
# stamp says it was done and checked), whatever the files' dates.
stamp=$out/.twheel-configured
if [ ! -f "$stamp" ] || [ ! -f "$out/.config" ]; then
	log "configuring $variant kernel in $out"
	kmake tinyconfig >/dev/null
	"$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "${frags[@]}" >/dev/null
	kmake olddefconfig >/dev/null
	# Every option the fragments ask for (the last word on each) must
	# have survived olddefconfig.
	bad=0
	while IFS= read -r line; do
		opt=${line%%=*}
		val=${line#*=}
		if [ "$val" = n ]; then
			grep -q "^$opt=" "$out/.config" && { log "$opt is set, wanted n"; bad=1; }
		else
			grep -qx "$line" "$out/.config" || { log "$line did not stick"; bad=1; }
		fi
	done < <(cat "${frags[@]}" | awk -F= '
		/^CONFIG_[A-Za-z0-9_]*=/ { if (!($1 in v)) o[++n] = $1; v[$1] = $0 }
		END { for (i = 1; i <= n; i++) print v[o[i]] }')
	[ $bad -eq 0 ] || { rm -f "$out/.config"; die "config fragments of $variant not satisfied"; }
	touch "$stamp"
fi

# Its inputs are the pristine source of one version and the fragments the
# directory is named after: once built, it is done. Make's walk of the
# tree to find nothing to do cost 10-40 s a boot; TWHEEL_REBUILD=1 asks
# for it anyway (after editing the source, say).
built=$out/.twheel-built
if [ -f "$built" ] && [ -f "$out/arch/x86/boot/bzImage" ] && [ -z "${TWHEEL_REBUILD:-}" ]; then
	echo "$out"
	exit 0
fi
rm -f "$built"
log "building $variant kernel ($out)"
start=$(date +%s)
kmake -j"$TWHEEL_JOBS" all >"$out/build.log" 2>&1 || {
	tail -n 40 "$out/build.log" >&2
	die "kernel build failed (log: $out/build.log)"
}
touch "$built"
log "kernel ready in $(($(date +%s) - start)) s"
echo "$out"
