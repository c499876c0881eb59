#!/bin/bash
# perf stat -p and perf record -p on a per-process event: a per-task event
# on the probed process counts its calls exactly; one on another process
# that runs the same code counts nothing and leaves its bytes alone.
set -eu
. "$(dirname "$0")/../lib.sh"

bin=$TBIN/target
off=$(sym_offset "$bin" probed_work)
orig=$(file_bytes "$bin" "$off" 1)
PERF=
cleanup() {
	[ -z "$PERF" ] || kill "$PERF" 2>/dev/null || true
	perf probe -q -d 'probe:p_*' 2>/dev/null || true
}
trap cleanup EXIT

# Wait until perf (pid $PERF) has its events open.
perf_attached() {
	local i
	for i in $(seq 100); do
		ls -l "/proc/$PERF/fd" 2>/dev/null | grep -q 'perf_event' && return 0
		sleep 0.1
	done
	echo "  perf never opened its events"
	exit 1
}

byte_of() { # pid
	mem_bytes "$1" "$(offset_vaddr "$1" "$bin" "$off")" 1
}

# Run one round of target $1 (output $2) while perf watches it, let it
# exit and wait for perf.
round_under_perf() { # pid outfile
	target_go "$1"
	wait_line "$2" '^checksum' 60
	target_go "$1"
	wait "$PERF"
	PERF=
}

# perf stat -p: the probed process A counts its 50 calls; B none
target_start /tmp/rs.a "$bin" -n 50 -k
A=$TPID
target_start /tmp/rs.b "$bin" -n 30 -k
B=$TPID
perf probe -q -p "$A" probed_work
ev=probe:p_${A}_probed_work

perf stat -x, -e "$ev" -p "$B" -o /tmp/rs.statb &
PERF=$!
perf_attached
expect_eq "B's byte while perf stat -p B runs" "$orig" "$(byte_of "$B")"
expect_eq "A's byte while only B is watched" "$orig" "$(byte_of "$A")"
round_under_perf "$B" /tmp/rs.b
cat /tmp/rs.statb
expect_eq "perf stat -p B" 0 "$(grep ",$ev," /tmp/rs.statb | cut -d, -f1)"

perf stat -x, -e "$ev" -p "$A" -o /tmp/rs.stata &
PERF=$!
perf_attached
expect_eq "A's byte while perf stat -p A runs" cc "$(byte_of "$A")"
round_under_perf "$A" /tmp/rs.a
cat /tmp/rs.stata
expect_eq "perf stat -p A" 50 "$(grep ",$ev," /tmp/rs.stata | cut -d, -f1)"

# perf record -p: each of the 40 calls is a sample of that process
target_start /tmp/rs.c "$bin" -n 40 -k
C=$TPID
perf probe -q -p "$C" probed_work
ev=probe:p_${C}_probed_work
perf record -q -e "$ev" -p "$C" -o /tmp/rs.data >/dev/null 2>&1 &
PERF=$!
perf_attached
round_under_perf "$C" /tmp/rs.c
expect_eq "perf record -p C samples" 40 "$(perf_count /tmp/rs.data "$ev" "$C")"
expect_eq "perf record -p C samples in all" 40 "$(perf_count /tmp/rs.data "$ev")"
echo "ok"
