# shellcheck shell=bash
# Common settings for the twheel scripts. Sourced, never run.

TWHEEL_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TWHEEL_CACHE=${TWHEEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/twheel}
TWHEEL_JOBS=${TWHEEL_JOBS:-2}
KSRC_TARBALL=/usr/src/linux-source-6.12.tar.xz

log() { printf '[twheel] %s\n' "$*" >&2; }
die() { printf '[twheel] error: %s\n' "$*" >&2; exit 1; }
# results_commit: the checkout's commit for a result's provenance line,
# "with uncommitted changes" where the code that ran differs from it
# (results/ and docs/choosing.md aside: a run rewrites them)
results_commit() {
	local c
	c=$(git -C "$TWHEEL_ROOT" rev-parse --short HEAD 2>/dev/null) || { echo unknown; return; }
	if [ -n "$(git -C "$TWHEEL_ROOT" status --porcelain -- . ':!results' ':!docs/choosing.md' 2>/dev/null)" ]; then
		c="$c with uncommitted changes"
	fi
	echo "$c"
}

as_root() {
	if [ "$(id -u)" -eq 0 ]; then
		"$@"
	elif command -v sudo >/dev/null 2>&1; then
		sudo "$@"
	else
		die "need root (or sudo) to run: $*"
	fi
}

# need_valgrind WHO: stop, in one line naming the package, where valgrind
# (callgrind) is not installed; WHO is the script that needs it.
need_valgrind() {
	command -v valgrind >/dev/null 2>&1 ||
		die "$1 needs valgrind for its callgrind columns, and it is not installed: install the package valgrind (apt-get install valgrind)"
}

# apt_need PKG... : install the Debian packages that are not installed yet.
apt_need() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	log "installing: ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	as_root apt-get update -qq || die "apt-get update failed"
	as_root apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null ||
		die "apt-get install ${missing[*]} failed"
}

# The Debian package version of the kernel source, e.g. 6.12.117-1~deb12u1.
ksrc_version() {
	dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null
}

# Unpacked, pristine kernel source (also used for checkpatch and kunit.py).
ksrc_dir() {
	printf '%s/src-%s/linux-source-6.12\n' "$TWHEEL_CACHE" "$(ksrc_version)"
}

# The config fragments of a variant, in merge order: test.config, then the
# variant's own (debug.config) on top of it.
kconfig_frags() {
	local variant=${1:-test}
	printf '%s\n' "$TWHEEL_ROOT/scripts/test.config"
	[ "$variant" = test ] || printf '%s\n' "$TWHEEL_ROOT/scripts/$variant.config"
}

# Build directory of the test kernel for a config variant (test|debug), keyed
# by the source version and the hash of its fragments.
kbuild_dir() {
	local variant=${1:-test} h frags
	mapfile -t frags < <(kconfig_frags "$variant")
	h=$(cat "${frags[@]}" | sha256sum | cut -c1-12)
	printf '%s/build-%s-%s-%s\n' "$TWHEEL_CACHE" "$(ksrc_version)" "$variant" "$h"
}
