#!/bin/sh
# docs/choosing.md from a results directory, on stdout:
#   scripts/choosing.sh results/ > docs/choosing.md
# The guide is written by scripts/results.py (choosing); this name stays
# for make check and scripts/compare.sh.
exec python3 "$(dirname "$0")/results.py" choosing "$@"
