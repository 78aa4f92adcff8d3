#!/usr/bin/env bash
# Installs what the user-space builds need, when it is missing (Debian's
# packages, non-interactive; elsewhere it says what to install).
#   userspace/setup.sh        the bench, the stream and the replay: a C
#                             compiler (gcc, libc6-dev) and make; valgrind for their Ir
#                             columns (callgrind), not to build or run them
#   userspace/setup.sh fuzz   the fuzz targets as well: clang and libFuzzer
#                             (libclang-rt-14-dev); the Makefile asks for it
#                             when it builds one
# No kernel source: the rbtree is lib/rbtree.c. Prints nothing on
# standard output (the tools' scripts pass what it prints as KSRC=, which
# the Makefile no longer needs).
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

fuzz=0
case ${1:-} in
'') ;;
fuzz) fuzz=1 ;;
*) die "usage: userspace/setup.sh [fuzz]" ;;
esac

# The packages whose commands are missing. The C compiler (make's $(CC),
# cc) must build against the C library's and the kernel's UAPI headers
# (Debian's gcc only recommends libc6-dev).
missing=()
printf '#include <limits.h>\n#include <linux/errno.h>\nint main(void) { return 0; }\n' |
	"${CC:-cc}" -x c - -o /dev/null >/dev/null 2>&1 || missing+=(gcc libc6-dev)
command -v make >/dev/null 2>&1 || missing+=(make)
command -v valgrind >/dev/null 2>&1 || missing+=(valgrind)
if [ $fuzz = 1 ]; then
	command -v clang >/dev/null 2>&1 || missing+=(clang)
	# libFuzzer has no command; dpkg tells, where there is one
	if command -v dpkg-query >/dev/null 2>&1 &&
		! dpkg-query -W -f='${Status}' libclang-rt-14-dev 2>/dev/null | grep -q 'ok installed'; then
		missing+=(libclang-rt-14-dev)
	fi
fi
[ ${#missing[@]} -eq 0 ] && exit 0

if command -v apt-get >/dev/null 2>&1 && command -v dpkg-query >/dev/null 2>&1; then
	apt_need "${missing[@]}"
	exit 0
fi
# No apt: only valgrind may be missing, and then there are no Ir columns.
for p in "${missing[@]}"; do
	case $p in
	valgrind) log "no valgrind: the tools build; the replay runs without its Ir columns (REPLAY_CALLGRIND=0), bench.sh and stream.sh not at all (install the package valgrind)" ;;
	*) die "install $p (no apt-get here): userspace/setup.sh ${1:-} needs it" ;;
	esac
done
