#!/bin/bash
# The sample module (pid_uprobe_register()) on JIT code:
# selftests/ftrace/uprobe_jit.c's function in read-write-exec anonymous
# memory counts exactly the calls, the code is the JIT's again once the
# module is unloaded; a write next to the code keeps the probe counting, and
# moving the code (mremap) retires it (no more hits, the JIT's results
# right).
set -eu
. "$(dirname "$0")/../lib.sh"
require_jit_series

jit_start -w
trap 'kill $DPID 2>/dev/null || true' EXIT
sample_load "$JPID" "$JFN"
jit_peek $JFN
expect_eq "entry byte" cc "${JBYTES:0:2}"
jit_call 30
expect_eq "hits" 30 "$(sample_hits)"
jit_peek $JFN
expect_eq "code after unloading" "$JIT_CODE" "$JBYTES"

sample_load "$JPID" "$JFN"
jit_call 20
jit_do poke
jit_call 10
jit_peek $JFN
expect_eq "entry byte after the write" cc "${JBYTES:0:2}"
jit_do move
jit_peek $JFN
expect_eq "code after the move" "$JIT_CODE" "$JBYTES"
jit_call 10
expect_eq "hits through the write, none after the move" 30 "$(sample_hits)"
drive_end
