#!/bin/bash
# Exact hit counts at each kind of instruction, in a PIE and a non-PIE
# executable and in libc, single-threaded and with 8 threads; the target's
# result is the same as without a probe.
set -eu
. "$(dirname "$0")/../lib.sh"

libc=$(readlink -f "$(ldd "$TBIN/target" | awk '/libc.so/ { print $3 }')")

check() { # what expected-hits binary symbol target-args...
	local what=$1 want=$2 bin=$3 sym=$4 ref got
	shift 4
	ref=$(plain_run "$bin" "$@")
	got=$(probed_run "$bin" "$sym" "$@")
	expect_eq "$what: hits" "$want" "${got%% *}"
	expect_eq "$what: result" "$ref" "${got#* }"
	echo "ok: $what: $want hits, $ref"
}

for bin in "$TBIN/target" "$TBIN/target-nopie"; do
	b=${bin##*/}
	check "$b entry (push %rbp)" 1000 "$bin" probed_work -n 1000
	check "$b rip-relative mov" 1000 "$bin" probed_riprel -n 1000
	check "$b call" 1000 "$bin" probed_call -n 1000
	check "$b entry, 8 threads" 16000 "$bin" probed_work -n 2000 -t 8
	check "$b callee, 8 threads" 32000 "$bin" probed_mix -n 2000 -t 8
done
check "libc getppid, 8 threads" 8000 "$TBIN/target" "$libc:getppid" -n 1000 -t 8 -l
