#!/bin/bash
# perf probe -p TID: a thread id names its process.  The event is named
# after the thread group, placed in it, says so (and "Added new event"
# names the process), and counts the calls of the process exactly.
set -eu
. "$(dirname "$0")/../lib.sh"

N=40
T=/sys/kernel/tracing
lib=$TBIN/libprobed.so
target_start /tmp/t.out "$TBIN/libuser" $N
p=$TPID
tid=$(awk '$1 == "sleeper" { print $2 }' /tmp/t.out)
cleanup() { perf probe -q -d 'probe:p_*' 2>/dev/null || true; kill $p 2>/dev/null || true; }
trap cleanup EXIT
[ "$tid" != "$p" ] || { echo "sleeper thread $tid is the process"; exit 1; }

perf probe -p "$tid" lib_probed@libprobed >/tmp/t.add 2>&1
cat /tmp/t.add
grep -qx "Thread $tid is in process $p: probing process $p." /tmp/t.add
grep -q "^  probe:p_${p}_lib_probed (on lib_probed in $lib in pid $p)$" /tmp/t.add
expect_eq uprobe_events "p:probe/p_${p}_lib_probed $p:$(hex16 "$(sym_vaddr $p "$lib" lib_probed)")" \
	"$(cat $T/uprobe_events)"

perf_record_during /tmp/pt.data "probe:p_${p}_lib_probed" \
	sh -c "kill -USR1 $p; while ! grep -q ^checksum /tmp/t.out; do sleep 0.1; done"
expect_eq "samples from process $p" $N "$(perf_count /tmp/pt.data "probe:p_${p}_lib_probed" $p)"
expect_eq "samples in all" $N "$(perf_count /tmp/pt.data "probe:p_${p}_lib_probed")"
kill -USR1 $p
wait $p
