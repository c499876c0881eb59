# Shared helpers for the vm/ and tests/ scripts.  Source it; do not run it.
# shellcheck shell=bash

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
B=$TOP/build
SRC=$B/linux
KOUT=${KOUT:-$B/kbuild}	# build/kbuild-debug for make test-debug
POUT=$B/perf

say() { printf '== %s\n' "$*"; }
warn() { printf '%s: %s\n' "${0##*/}" "$*" >&2; }
die() { warn "$*"; exit 1; }

# The non-comment, non-blank lines of a series file.
series_list() { # series-file
	[ -f "$1" ] || return 0
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$1"
}
