#!/usr/bin/env bash
# Builds (once, then incrementally) the test kernel from Debian's
# linux-source-6.12 into the cache. Prints the build directory on stdout.
#   scripts/build-kernel.sh [test|debug]
set -euo pipefail
. "$(dirname "$0")/lib.sh"

variant=${1:-test}
frag=$TWHEEL_ROOT/scripts/$variant.config
[ -f "$frag" ] || die "no config fragment $frag"

"$TWHEEL_ROOT/scripts/setup.sh"
src=$(ksrc_dir)
out=$(kbuild_dir "$variant")

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
kmake() {
	make -s -C "$src" O="$out" ARCH=x86_64 CC="ccache gcc" \
		KBUILD_BUILD_TIMESTAMP="2025-01-01 00:00:00" KBUILD_BUILD_USER=twheel \
		KBUILD_BUILD_HOST=twheel "$@"
}

mkdir -p "$out"
if [ ! -f "$out/.config" ] || [ "$frag" -nt "$out/.config" ]; then
	log "configuring $variant kernel in $out"
	kmake tinyconfig >/dev/null
	"$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "$frag" >/dev/null
	kmake olddefconfig >/dev/null
	# Every option the fragment asks for must have survived olddefconfig.
	bad=0
	while IFS= read -r line; do
		case "$line" in CONFIG_*=*) ;; *) continue ;; esac
		opt=${line%%=*}
		val=${line#*=}
		if [ "$val" = n ]; then
			grep -q "^$opt=" "$out/.config" && { log "$opt is set, wanted n"; bad=1; }
		else
			grep -qx "$line" "$out/.config" || { log "$line did not stick"; bad=1; }
		fi
	done <"$frag"
	[ $bad -eq 0 ] || { rm -f "$out/.config"; die "config fragment $frag not satisfied"; }
fi

log "building $variant kernel ($out)"
start=$(date +%s)
kmake -j"$TWHEEL_JOBS" all >"$out/build.log" 2>&1 || {
	tail -n 40 "$out/build.log" >&2
	die "kernel build failed (log: $out/build.log)"
}
log "kernel ready in $(($(date +%s) - start)) s"
echo "$out"
