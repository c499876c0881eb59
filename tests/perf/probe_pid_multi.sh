#!/bin/bash
# perf probe -p with a spec that resolves to several addresses: lib_step()
# of libprobed.so is inlined into two callers.  -p probes exactly the
# addresses -x gives, one event each (p_PID_lib_step, p_PID_lib_step_1),
# and each counts its half of the calls exactly.  When one of the events
# cannot be added (a kprobe already has its name), none is left behind.
set -eu
. "$(dirname "$0")/../lib.sh"

N=24
T=/sys/kernel/tracing
lib=$TBIN/libprobed.so
target_start /tmp/m.out "$TBIN/libuser" $N
p=$TPID
cleanup() {
	perf probe -q -d 'probe:p_*' 2>/dev/null || true
	echo "-:probe/p_${p}_lib_step_1" >>$T/kprobe_events 2>/dev/null || true
	kill $p 2>/dev/null || true
}
trap cleanup EXIT

# The places of the events of uprobe_events, as 16-digit addresses, sorted.
places() {
	sed -n "s/^p:probe\/p_${p}_lib_step\(_1\)\{0,1\} $p:\(0x[0-9a-f]*\)$/\2/p" $T/uprobe_events | sort
}

# The addresses -x gives, as addresses in the process.
perf probe -x "$lib" -D lib_step | tee /tmp/m.def
want=$(sed -n 's/^p:[^ ]* [^ ]*:\(0x[0-9a-f]*\)$/\1/p' /tmp/m.def |
	while read -r off; do echo "$(hex16 "$(offset_vaddr $p "$lib" $((off)))")"; done | sort)
expect_eq "addresses -x gives" 2 "$(echo "$want" | wc -l)"

# lib_even is exported, so libprobed.so has a PLT stub lib_even@plt: a
# return probe goes on lib_even only, not on the stub too
perf probe -x "$lib" -D lib_even%return | tee /tmp/m.ret
expect_eq "file offsets of lib_even%return" "$(sym_offset "$lib" lib_even)" \
	"$(sed -n 's/^r:[^ ]* [^ ]*:\(0x[0-9a-f]*\)$/\1/p' /tmp/m.ret |
		while read -r off; do echo $((off)); done)"

echo "p:probe/p_${p}_lib_step_1 vfs_read" >>$T/kprobe_events
rc=0
perf probe -p $p lib_step@libprobed >/tmp/m.err 2>&1 || rc=$?
cat /tmp/m.err
[ $rc != 0 ] || { echo "perf probe succeeded with a name taken"; exit 1; }
expect_eq "uprobe_events after the failure" "" "$(cat $T/uprobe_events)"
grep -q "it is added whole or not at all" /tmp/m.err
echo "-:probe/p_${p}_lib_step_1" >>$T/kprobe_events

perf probe -p $p lib_step@libprobed
cat $T/uprobe_events
expect_eq "events" 2 "$(wc -l <$T/uprobe_events)"
expect_eq "addresses of -p" "$want" "$(places)"

perf_record_during /tmp/pm.data "probe:p_${p}_lib_step,probe:p_${p}_lib_step_1" \
	sh -c "kill -USR1 $p; while ! grep -q ^checksum /tmp/m.out; do sleep 0.1; done"
expect_eq "samples of p_${p}_lib_step" $((N / 2)) "$(perf_count /tmp/pm.data "probe:p_${p}_lib_step" $p)"
expect_eq "samples of p_${p}_lib_step_1" $((N / 2)) "$(perf_count /tmp/pm.data "probe:p_${p}_lib_step_1" $p)"
kill -USR1 $p
wait $p
