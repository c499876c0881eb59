#!/bin/bash
# The seeds' sample, as written: a probe on echo_builtin in a background
# bash that echoes four lines counts exactly 4 hits, and the lines are
# printed unchanged.
set -eu
. "$(dirname "$0")/../lib.sh"

bash_bin=$(readlink -f /bin/bash)
off=$(sym_offset "$bash_bin" echo_builtin)
(sleep 3; echo 1; echo 2; echo 3; echo 4) >/tmp/echo.out &
pid=$!
vaddr=$(offset_vaddr "$pid" "$bash_bin" "$off")
sample_load "$pid" "$vaddr"
wait "$pid"
hits=$(sample_hits)
klog_since "$KMARK"
expect_eq "output" "1 2 3 4" "$(echo $(cat /tmp/echo.out))"
expect_eq "hits" 4 "$hits"
klog_since "$KMARK" | grep -qx "Registering uprobe on pid $pid, vaddr $vaddr"
