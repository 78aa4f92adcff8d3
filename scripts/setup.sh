#!/usr/bin/env bash
# Installs the Debian packages twheel's pipeline needs (non-interactive).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

apt_need linux-source-6.12 qemu-system-x86 busybox-static flex bison bc \
	libelf-dev libssl-dev cpio ccache sparse xz-utils python3 make gcc perl
