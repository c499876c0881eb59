#!/bin/bash
# The sample module with ref_ctr= on python3.11's function__entry marker:
# the semaphore is set in the probed interpreter only while the module is
# loaded, the hits are the Python calls of that interpreter, and a
# misaligned counter is refused with EINVAL.
set -eu
. "$(dirname "$0")/../lib.sh"

py=$(readlink -f /usr/bin/python3.11)
[ -x "$py" ] || { echo "no /usr/bin/python3.11 (vm/deps installs it)"; exit 1; }
loc=$(sdt_field "$py" function__entry Location)
sem=$(sdt_field "$py" function__entry Semaphore)

sems() {
	echo "$(mem_u16 "$a" "$sem") $(mem_u16 "$b" "$sem")"
}

pywork_start /tmp/sa.out 5 0
a=$TPID
pywork_start /tmp/sb.out 5 0
b=$TPID
trap 'kill $a $b 2>/dev/null || true' EXIT

rc=0
sample_load "$a" "$loc" ref_ctr=$((sem + 1)) 2>/dev/null || rc=$?
[ $rc != 0 ]
expect_eq "error of a misaligned counter" -22 "$(sample_error)"
expect_eq "semaphores after the refused load" "0 0" "$(sems)"

sample_load "$a" "$loc" ref_ctr="$sem"
expect_eq "semaphores while loaded" "1 0" "$(sems)"
target_go "$a"
target_go "$b"
wait_line /tmp/sa.out '^result' 60
wait_line /tmp/sb.out '^result' 60
expect_eq "results" "$(sed -n 's/^result //p' /tmp/sb.out)" "$(sed -n 's/^result //p' /tmp/sa.out)"
hits=$(sample_hits)
# beta() 5 times, each calling alpha() 3 times
expect_eq "hits" 20 "$hits"
expect_eq "semaphores after unloading" "0 0" "$(sems)"
target_go "$a"
target_go "$b"
wait "$a" "$b"
trap - EXIT
