#!/bin/bash
# perf probe -p on the SDT markers of Debian's python3.11, which Python
# guards with semaphores: two interpreters run the same script, one is
# probed.  Its semaphores are set while the events are enabled, the
# other's stay 0, and 0 again after deleting; perf script shows each call
# of the probed one with file, function and line as strings, exact
# counts per function, and nothing of the other one.
set -eu
. "$(dirname "$0")/../lib.sh"
require_perf_pid

py=$(readlink -f /usr/bin/python3.11)
[ -x "$py" ] || skip_test "no /usr/bin/python3.11"
readelf -n "$py" | grep -q 'Name: function__entry' ||
	skip_test "$py has no SDT markers"
script=$TESTS/pywork.py
CALLS=40
GCS=7
a= b=
cleanup() {
	perf probe -q -d 'sdt_python:*' 2>/dev/null || true
	kill $a $b 2>/dev/null || true
}
trap cleanup EXIT

# A marker's semaphore in pid $1.
sem_value() { # pid marker
	mem_u16 "$1" "$(sdt_field "$py" "$2" Semaphore)"
}


pywork_start /tmp/sdt_a.out $CALLS $GCS
a=$TPID
pywork_start /tmp/sdt_b.out $CALLS $GCS
b=$TPID

for m in function__entry function__return line gc__start; do
	expect_eq "$m semaphores before" "0 0" "$(sem_value $a $m) $(sem_value $b $m)"
done

perf probe -q -p $a 'sdt_python:function__entry file=arg1:string func=arg2:string line=arg3'
perf probe -q -p $a 'sdt_python:function__return file=arg1:string func=arg2:string line=arg3'
perf probe -q -p $a 'sdt_python:line file=arg1:string func=arg2:string line=arg3'
perf probe -q -p $a 'sdt_python:gc__start gen=arg1'
perf probe -q -p $a sdt_python:gc__done
grep -q "^p:sdt_python/p_${a}_function__entry $a:0x[0-9a-f]*($(sdt_field "$py" function__entry Semaphore))" \
	$TRACING/uprobe_events || { cat $TRACING/uprobe_events; exit 1; }
# Defined, not yet enabled: nothing set.
expect_eq "semaphore of a defined event" 0 "$(sem_value $a function__entry)"

evs=$(perf probe -l -p $a 2>/dev/null | awk '{ print $1 }' | paste -sd,)
echo "events: $evs"
[ "$(echo "$evs" | tr , '\n' | wc -l)" = 5 ]
args=()
for e in ${evs//,/ }; do args+=(-e "$e"); done
perf record -q -o /tmp/sdt.data "${args[@]}" -a >/dev/null 2>&1 &
rec=$!
for i in $(seq 300); do
	[ "$(sem_value $a function__entry)" = 0 ] || break
	sleep 0.1
done
for m in function__entry function__return line gc__start gc__done; do
	expect_eq "$m semaphores while recording" "1 0" \
		"$(sem_value $a $m) $(sem_value $b $m)"
done
target_go $a
target_go $b
wait_line /tmp/sdt_a.out '^result' 60
wait_line /tmp/sdt_b.out '^result' 60
kill -INT $rec
wait $rec || true
expect_eq "results" "$(sed -n 's/^result //p' /tmp/sdt_b.out)" \
	"$(sed -n 's/^result //p' /tmp/sdt_a.out)"
for m in function__entry line gc__start; do
	expect_eq "$m semaphores after recording" "0 0" \
		"$(sem_value $a $m) $(sem_value $b $m)"
done

perf script -i /tmp/sdt.data -F pid,event,trace 2>/dev/null >/tmp/sdt.script
head -5 /tmp/sdt.script
expect_eq "processes in the trace" "$a" "$(awk '{ print $1 }' /tmp/sdt.script | sort -u)"
# Calls of a function of the script, as the events say.
calls() { # event func
	grep -F " sdt_python:p_${a}_$1: " /tmp/sdt.script |
		grep -cF "file=\"$script\" func=\"$2\"" || true
}
expect_eq "function__entry of beta" $CALLS "$(calls function__entry beta)"
expect_eq "function__entry of alpha" $((3 * CALLS)) "$(calls function__entry alpha)"
expect_eq "function__return of alpha" $((3 * CALLS)) "$(calls function__return alpha)"
# alpha's one line, with its number
n=$(grep -n 'return x + 1' "$script" | cut -d: -f1)
expect_eq "line $n in alpha" $((3 * CALLS)) \
	"$(grep -F " sdt_python:p_${a}_line: " /tmp/sdt.script |
		grep -cF "file=\"$script\" func=\"alpha\" line=$n" || true)"
expect_eq "gc__start of gc.collect()" $GCS \
	"$(grep -cE " sdt_python:p_${a}_gc__start: .* gen=2\$" /tmp/sdt.script || true)"
expect_eq "gc__done" $GCS "$(grep -c " sdt_python:p_${a}_gc__done: " /tmp/sdt.script || true)"

# Enabled again in tracefs, disabled, deleted: the semaphore goes back to 0.
echo 1 > $TRACING/events/sdt_python/p_${a}_function__entry/enable
expect_eq "semaphore while enabled in tracefs" "1 0" \
	"$(sem_value $a function__entry) $(sem_value $b function__entry)"
echo 0 > $TRACING/events/sdt_python/p_${a}_function__entry/enable
perf probe -q -d "sdt_python:p_${a}_*"
expect_eq "events left" "" "$(grep sdt_python $TRACING/uprobe_events || true)"
for m in function__entry function__return line gc__start gc__done; do
	expect_eq "$m semaphores after deleting" "0 0" \
		"$(sem_value $a $m) $(sem_value $b $m)"
done
# The % form, on the other process; refusals name the problem and leave
# nothing.
perf probe -q -p $b %sdt_python:import__find__load__start
grep -qx "p:sdt_python/p_${b}_import__find__load__start $b:0x[0-9a-f]*($(sdt_field "$py" import__find__load__start Semaphore)) arg1=%[a-z0-9]*:u64" \
	$TRACING/uprobe_events || { cat $TRACING/uprobe_events; exit 1; }
perf probe -q -d "sdt_python:p_${b}_*"
probe_refused "no DSO of pid $a has SDT event sdt_python:no_such_marker" -p $a sdt_python:no_such_marker
probe_refused "has no argument arg7 (it has: arg1)" -p $a 'sdt_python:gc__start arg7'
probe_refused "has no argument nosuch" -p $a 'sdt_python:gc__start nosuch:string'

target_go $a
target_go $b
wait $a
wait $b
a= b=
