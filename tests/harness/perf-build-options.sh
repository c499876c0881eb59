#!/bin/bash
# perf was built with dwarf, libunwind, libslang and libpython.
set -eu
. "$(dirname "$0")/../lib.sh"

opts=$(perf version --build-options)
echo "$opts"
for f in dwarf libunwind libslang libpython; do
	echo "$opts" | grep -qE "^ +$f: \[ on  \]" || { echo "perf lacks $f"; exit 1; }
done
