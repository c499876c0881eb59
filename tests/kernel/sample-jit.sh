#!/bin/bash
# The sample module (pid_uprobe_register()) on JIT code: tests/jit.c's
# function in read-write-exec anonymous memory counts exactly the calls,
# the code is the JIT's again once the module is unloaded, and a write to
# the page while it is loaded retires the probe (no more hits, the JIT's
# results right).
set -eu
. "$(dirname "$0")/../lib.sh"

jit_start -w
trap 'kill $DPID 2>/dev/null || true' EXIT
sample_load "$JPID" "$JFN"
expect_eq "entry byte" cc "$(mem_bytes "$JPID" "$JFN" 1)"
jit_call 30
expect_eq "hits" 30 "$(sample_hits)"
expect_eq "code after unloading" "$JIT_CODE" "$(mem_bytes "$JPID" "$JFN" 12)"

sample_load "$JPID" "$JFN"
jit_call 20
jit_do poke
expect_eq "code after a write" "$JIT_CODE" "$(mem_bytes "$JPID" "$JFN" 12)"
jit_call 10
expect_eq "hits before the write" 20 "$(sample_hits)"
drive_end
