#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Checks the kernel-doc of the module's sources:
#  - the kernel's scripts/kernel-doc -Wall finds nothing wrong in any C file
#    or header (userspace/ aside): undocumented parameters and members,
#    missing Return: sections, comments not naming what follows them;
#  - every EXPORT_SYMBOL*'d function has a kernel-doc comment in the file
#    that exports it (a line " * name() - summary");
#  - every "struct name {" in a twheel*.h header has one (" * struct name - ");
#  - every function a module C file defines without static has one in that
#    file (" * name() - summary"): the module's files are those outside
#    userspace/, kunit/ (the KUnit suites' own module) and scripts/ (host
#    tools). A definition is "type name(" at column 0, neither static nor
#    extern nor a typedef, whose parameter list ends without a ';' and is
#    followed by '{' (kernel style: the type on the name's line).
# Prints each problem on a line of its own; exits 1 on any, 0 if none.
# Takes no arguments.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

ksrc=$(ksrc_dir)
kdoc=$ksrc/scripts/kernel-doc
[ -x "$kdoc" ] || die "no $kdoc: scripts/build-kernel.sh unpacks the kernel source"

cd "$TWHEEL_ROOT" || exit 1
mapfile -t files < <(git ls-files '*.c' '*.h' | grep -v '^userspace/')
[ ${#files[@]} -gt 0 ] || die "no C files or headers found in $TWHEEL_ROOT"

# kernel-doc prints only warnings with -none: each is a problem. A line not
# starting with "file:line:" continues the warning before it.
run_kernel_doc() {
	"$kdoc" -Wall -none "${files[@]}" 2>&1 |
		awk '/^[^ :]+:[0-9]+: / { if (w != "") print w; w = $0; next }
		     { w = w == "" ? $0 : w " " $0 }
		     END { if (w != "") print w }'
	local rc=${PIPESTATUS[0]}
	[ "$rc" -eq 0 ] || echo "$kdoc exited with $rc"
}

# need_doc FILE WHERE HEAD WHAT: a problem at WHERE unless FILE has the
# kernel-doc line " * HEAD - " (HEAD: "name()" or "struct name").
need_doc() {
	grep -q "^ \* $3 - " "$1" ||
		echo "$2: $4 has no kernel-doc comment (' * $3 - ...')"
}

# A name defined as a function (at column 0: "... name(") in the file that
# exports it needs a kernel-doc comment there; exported data does not.
check_exports() {
	local f x
	for f in "${files[@]}"; do
		while read -r x; do
			grep -E -q "^([A-Za-z_].*[ *])?$x\(" "$f" || continue
			need_doc "$f" "$f" "$x()" "exported function $x()"
		done < <(sed -n 's/^EXPORT_SYMBOL[A-Z_]*(\([A-Za-z0-9_]*\).*/\1/p' "$f")
	done
}

check_structs() {
	local f x
	for f in "${files[@]}"; do
		case "$f" in twheel*.h | */twheel*.h | engines/*.h) ;; *) continue ;; esac
		while read -r x; do
			need_doc "$f" "$f" "struct $x" "struct $x"
		done < <(sed -n 's/^struct \([A-Za-z0-9_]*\) {.*/\1/p' "$f")
	done
}

# The functions a C file defines without static, one "line name" a line:
# a candidate line, then (on it or a line after it, before any ';', blank
# line, '#' or '}' at column 0) a line ending in '{'.
defined_functions() {
	awk '
	/^[A-Za-z_][A-Za-z0-9_ \t*]*[ \t*][A-Za-z_][A-Za-z0-9_]*\(/ &&
	    !/^(static|extern|typedef)[ \t]/ {
		name = $0
		sub(/\(.*/, "", name)
		sub(/.*[ \t*]/, "", name)
		line = FNR
	}
	name != "" && /;/ { name = "" }
	name != "" && /\{[ \t]*$/ { print line, name; name = "" }
	/^$|^#|^}/ { name = "" }
	' "$1"
}

check_defined() {
	local f n x
	for f in "${files[@]}"; do
		case "$f" in *.c) ;; *) continue ;; esac
		case "$f" in kunit/* | scripts/*) continue ;; esac
		while read -r n x; do
			need_doc "$f" "$f:$n" "$x()" "function $x()"
		done < <(defined_functions "$f")
	done
}

problems=0
while IFS= read -r line; do
	printf '%s\n' "$line"
	problems=$((problems + 1))
done < <(run_kernel_doc; check_exports; check_structs; check_defined)

[ "$problems" -eq 0 ] || { echo "kdoc: $problems problem(s)" >&2; exit 1; }
exit 0
