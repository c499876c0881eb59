#!/bin/bash
# perf probe -l and -d with -p PID: only that process's per-process events
# are listed and deleted; another process's events and a -x probe on the
# same function stay.  perf probe -l lists the -x probe as one of the file
# even after per-process events.
set -eu
. "$(dirname "$0")/../lib.sh"

T=/sys/kernel/tracing
bin=$TBIN/target
target_start /tmp/fl1.out "$bin" -n 1 -k
p=$TPID
target_start /tmp/fl2.out "$bin" -n 1 -k
q=$TPID
cleanup() {
	perf probe -q -d 'probe*:*' 2>/dev/null || true
	kill $p $q 2>/dev/null || true
}
trap cleanup EXIT

perf probe -q -p $p probed_work
perf probe -q -p $q probed_work
perf probe -q -x "$bin" probed_work
line_p="p:probe/p_${p}_probed_work $p:$(hex16 "$(sym_vaddr $p "$bin" probed_work)")"
line_x="p:probe_target/probed_work $(readlink -f "$bin"):$(hex16 "$(sym_offset "$bin" probed_work)")"

# Listed after a per-process event, the -x probe is still one of the file
perf probe -l >/tmp/fl.all 2>&1
cat /tmp/fl.all
grep -q "^  probe_target:probed_work *(on probed_work.* in $(readlink -f "$bin"))$" /tmp/fl.all

perf probe -l -p $p >/tmp/fl.list 2>&1
cat /tmp/fl.list
# as the -x probe at the same place is listed, and its process
file=$(readlink -f "$bin")
xplace=$(sed -n 's/^  probe_target:probed_work *//p' /tmp/fl.all)
expect_eq "perf probe -l -p $p" "  probe:p_${p}_probed_work ${xplace/ in $file/ in $file in pid $p}" \
	"$(sed 's/  */ /g; s/^ /  /' /tmp/fl.list)"

perf probe -p $q -d 'probe*:*'
expect_eq "uprobe_events after -p $q -d" "$line_p
$line_x" "$(cat $T/uprobe_events)"
