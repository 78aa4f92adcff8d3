#!/usr/bin/env bash
# Runs the KUnit suites in QEMU on the test kernel and parses the KTAP with
# the kernel's own tools/testing/kunit/kunit.py. Prints per-case results and
# a last line "KUNIT <passed> <failed>"; exits non-zero on any failure.
#   scripts/kunit.sh [--kernel test|debug]
set -euo pipefail
. "$(dirname "$0")/lib.sh"

variant=test
[ "${1:-}" = --kernel ] && variant=$2

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
set +e
"$TWHEEL_ROOT/scripts/qemu.sh" --kernel "$variant" --timeout "${TWHEEL_KUNIT_TIMEOUT:-900}" \
	--log "$work/console.log" -- sh /guest/kunit.sh >"$work/out" 2>"$work/err"
qrc=$?
set -e
cat "$work/err" >&2
# the guest did not boot, twice (qemu.sh): the machine's failure, no case ran
[ "$qrc" -eq 75 ] && { echo "KUNIT 0 0"; exit 75; }

# One KTAP document out of the per-suite ones: drop each suite's own
# header and plan, renumber its closing line.
awk '
	/^@@SUITE / { n++; skip = 2; next }
	/^@@SUITES-END/ { next }
	skip > 0 && (/^KTAP version/ || /^1\.\./) { skip--; next }
	/^ok 1 / || /^not ok 1 / { sub(/ok 1 /, "ok " n " ") }
	n { body = body $0 "\n" }
	END { printf "KTAP version 1\n1..%d\n%s", n, body }
' "$work/out" >"$work/ktap"

ksrc=$(ksrc_dir)
python3 "$ksrc/tools/testing/kunit/kunit.py" parse "$work/ktap" | tee "$work/parsed" || true

# Count the cases (the indented result lines) ourselves, too.
pass=$(grep -cE '^    ok [0-9]+ ' "$work/ktap" || true)
fail=$(grep -cE '^    not ok [0-9]+ ' "$work/ktap" || true)
suites=$(grep -c '^@@SUITE ' "$work/out" || true)
if [ "$qrc" -ne 0 ] || [ "$suites" -eq 0 ]; then
	log "the KUnit guest failed (exit $qrc, $suites suites)"
	fail=$((fail + 1))
fi
echo "KUNIT $pass $fail"
[ "$fail" -eq 0 ]
