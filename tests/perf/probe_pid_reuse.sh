#!/bin/bash
# perf probe -p when the pid is reused between reading the process and
# writing its event: perf probe is held just before its write
# (hold-write.so), the process exits and a new one (the same non-PIE
# binary, so the address is mapped there too) gets its pid.  perf probe
# must fail, say why and leave no event: nothing may be bound to the new
# process, whose code stays its file's.
set -eu
. "$(dirname "$0")/../lib.sh"
require_perf_pid

N=20
T=/sys/kernel/tracing
bin=$TBIN/target-nopie
H=/tmp/hold
pids=
cleanup() {
	touch $H/go 2>/dev/null || true
	perf probe -q -d 'probe:p_*' 2>/dev/null || true
	[ -z "$pids" ] || kill $pids 2>/dev/null || true
}
trap cleanup EXIT

# Wait until a file exists (30 s at most).
wait_file() { # file
	local i
	for i in $(seq 300); do
		[ ! -e "$1" ] || return 0
		sleep 0.1
	done
	echo "  no $1"
	exit 1
}

target_start /tmp/r1.out "$bin" -n $N -k
old=$TPID
pids+=" $old"
va=$(sym_vaddr $old "$bin" probed_work)
rm -rf $H
mkdir $H
LD_PRELOAD=$TBIN/hold-write.so HOLD_DIR=$H perf probe -p $old probed_work >/tmp/r.err 2>&1 &
pp=$!
wait_file $H/waiting
kill $old
wait $old || true

target_start_pid $old /tmp/r2.out "$bin" -n $N -k
new=$TPID
expect_eq "probed_work of the new process" "$va" "$(sym_vaddr $new "$bin" probed_work)"
touch $H/go
rc=0
wait $pp || rc=$?
cat /tmp/r.err
expect_eq "uprobe_events" "" "$(cat $T/uprobe_events)"
[ $rc != 0 ] || { echo "perf probe succeeded"; exit 1; }
grep -q "Error: process $old exited while its probe was being added" /tmp/r.err
off=$(sym_offset "$bin" probed_work)
expect_eq "code of the new process" "$(file_bytes "$bin" "$off" 8)" "$(mem_bytes $new "$va" 8)"
target_finish $new /tmp/r2.out
