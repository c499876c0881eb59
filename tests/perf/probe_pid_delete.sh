#!/bin/bash
# perf probe -d deletes the events it names with one "-:GROUP/PREFIX*" line
# when the kernel takes a glob there and the prefix names no other event:
# one reset of the trace buffers instead of one an event.  Otherwise a
# line each, as before; an event in use keeps all of them.
set -eu
. "$(dirname "$0")/../lib.sh"

T=/sys/kernel/tracing
bin=$TBIN/target
target_start /tmp/pd1.out "$bin" -n 10 -k
p=$TPID
target_start /tmp/pd2.out "$bin" -n 1 -k
q=$TPID
cleanup() {
	echo 0 >$T/events/enable 2>/dev/null || true
	perf probe -q -d 'probe:*' 2>/dev/null || true
	kill $p $q 2>/dev/null || true
}
trap cleanup EXIT

grep -q 'event-glob' $T/README || { echo "kernel lacks -:GRP/<event-glob>"; exit 1; }

# The lines perf wrote to delete, one a line.
deletions() { # perf-stderr
	sed -n 's/^Writing event: \(-:.*\)/\1/p' "$1"
}

# The events of group probe, one a line.
events() {
	sed -n 's/^[pr]:probe\/\([^ ]*\) .*/\1/p' $T/uprobe_events | sort
}

define_p() {
	perf probe -q -p $p probed_work
	perf probe -q -p $p probed_mix
	perf probe -q -p $p 'probed_work%return'
}
define_p
perf probe -q -p $q probed_work

# used, so that deleting them resets the buffers
echo 1 >$T/events/probe/enable
target_go $p
wait_line /tmp/pd1.out '^checksum'
echo 0 >$T/events/probe/enable
expect_eq "hits of p_${p}_probed_work" 10 "$(uprobe_hits p_${p}_probed_work $T/uprobe_profile)"
expect_eq "hits of p_${p}_probed_mix" 20 "$(uprobe_hits p_${p}_probed_mix $T/uprobe_profile)"
expect_eq "hits of p_${p}_probed_work__return" 10 "$(uprobe_hits p_${p}_probed_work__return $T/uprobe_profile)"

# an enabled one among them: none deleted, and perf says why
echo 1 >$T/events/probe/p_${p}_probed_mix/enable
rc=0
perf probe -d "p_${p}_*" >/tmp/pd.out 2>&1 || rc=$?
cat /tmp/pd.out
[ $rc != 0 ] || { echo "  deleting an enabled event succeeded"; exit 1; }
grep -q "Device or resource busy" /tmp/pd.out
expect_eq "events after the refusal" "p_${p}_probed_mix
p_${p}_probed_work
p_${p}_probed_work__return
p_${q}_probed_work" "$(events)"
echo 0 >$T/events/probe/p_${p}_probed_mix/enable

# two of three named: their prefix names the third too, so a line each
perf probe -v -d "p_${p}_probed_mix|p_${p}_probed_work" 2>/tmp/pd.err >/dev/null
expect_eq "lines for two of three" "-:probe/p_${p}_probed_mix
-:probe/p_${p}_probed_work" "$(deletions /tmp/pd.err)"
expect_eq "events left" "p_${p}_probed_work__return
p_${q}_probed_work" "$(events)"
perf probe -q -d "p_${p}_*"

# all of a process's events: one line
define_p
perf probe -v -d "p_${p}_*" 2>/tmp/pd.err >/dev/null
expect_eq "lines for p_${p}_*" "-:probe/p_${p}_probed_*" "$(deletions /tmp/pd.err)"
expect_eq "events left" "p_${q}_probed_work" "$(events)"

# -p filters first: q's events are not named, so they stay
define_p
perf probe -v -p $p -d 'probe:*' 2>/tmp/pd.err >/dev/null
expect_eq "lines for -p $p probe:*" "-:probe/p_${p}_probed_*" "$(deletions /tmp/pd.err)"
expect_eq "events left" "p_${q}_probed_work" "$(events)"

# p's code is the file's again
for s in probed_work probed_mix; do
	expect_eq "bytes of $s in $p" "$(file_bytes "$bin" "$(sym_offset "$bin" $s)" 4)" \
		"$(mem_bytes $p "$(sym_vaddr $p "$bin" $s)" 4)"
done
# and it computed what an unprobed run does
expect_eq "p's result" "$(plain_run "$bin" -n 10)" "$(grep '^checksum' /tmp/pd1.out)"
target_go $p
wait $p
echo "ok"
