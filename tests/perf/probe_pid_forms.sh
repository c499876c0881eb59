#!/bin/bash
# perf probe -p: FUNC, FUNC@DSO[+OFF], FUNC+OFF, 0xVADDR, %return, args, -F, -l, -d
# All forms name the same places in our target; counts, return values and
# debuginfo arguments are exact; -F lists its functions; -l resolves each
# event back to symbol+offset@dso; -d removes them; --dry-run writes
# nothing; a second probe on a function is refused as with -x, and with
# -f gets _1.
set -eu
. "$(dirname "$0")/../lib.sh"

N=50
bin=$TBIN/target
T=/sys/kernel/tracing
target_start /tmp/f.out "$bin" -n $N -k
p=$TPID
cleanup() { perf probe -q -d "probe:p_${p}_*" 2>/dev/null || true; kill $p 2>/dev/null || true; }
trap cleanup EXIT
work=$(sym_vaddr $p "$bin" probed_work)
riprel=$(sym_vaddr $p "$bin" probed_riprel)
off=$((riprel - work))

perf probe -n -p $p probed_work 2>&1 | tee /tmp/dry.out
test -z "$(cat $T/uprobe_events)"
perf probe -p $p -F 'probed_*' | tee /tmp/funcs.out
grep -qx probed_work /tmp/funcs.out
grep -qx probed_mix /tmp/funcs.out

perf probe -p $p probed_work
rc=0
perf probe -p $p probed_work@target >/tmp/dup.out 2>&1 || rc=$?
cat /tmp/dup.out
[ $rc != 0 ]
grep -q "Error: event \"p_${p}_probed_work\" already exists" /tmp/dup.out
expect_eq "events after a refused duplicate" 1 "$(wc -l <$T/uprobe_events)"
perf probe -f -p $p probed_work@target
perf probe -f -p $p "probed_work+$off"
perf probe -p $p "$(printf '0x%x' $riprel)"
perf probe -p $p 'probed_work%return' '$retval'
perf probe -f -p $p "probed_work@$bin+$off"
perf probe -p $p probed_mix x:u64
cat $T/uprobe_events
w16=$(hex16 $work)
r16=$(hex16 $riprel)
grep -qx "p:probe/p_${p}_probed_work $p:$w16" $T/uprobe_events
grep -qx "p:probe/p_${p}_probed_work_1 $p:$w16" $T/uprobe_events
grep -qx "p:probe/p_${p}_probed_work_2 $p:$r16" $T/uprobe_events
grep -qx "p:probe/p_${p}_$r16 $p:$r16" $T/uprobe_events
grep -qx "r:probe/p_${p}_probed_work__return $p:$w16 arg1=\$retval" $T/uprobe_events
grep -qx "p:probe/p_${p}_probed_work_3 $p:$r16" $T/uprobe_events
grep -q "^p:probe/p_${p}_probed_mix $p:0x[0-9a-f]* x_u64=%di:u64" $T/uprobe_events

perf probe -l 'probe:p_*' | tee /tmp/list.out
listed() { # event
	sed -n "s/^ *probe:p_${p}_$1 *//p" /tmp/list.out
}
listed probed_work | grep -q "^(on probed_work@.* in $(readlink -f "$bin") in pid $p)\$"
listed probed_work_2 | grep -q "^(on probed_work[+:].* in $(readlink -f "$bin") in pid $p)\$"
expect_eq "listing of the same address" "$(listed probed_work_2)" "$(listed "$r16")"

evs=$(for e in probed_work probed_work_1 probed_work_2 probed_work_3 $r16 probed_work__return probed_mix; do printf 'probe:p_%s_%s,' $p $e; done)
perf_record_during /tmp/pf.data "${evs%,}" sh -c "kill -USR1 $p; while ! grep -q ^checksum /tmp/f.out; do sleep 0.1; done"
for e in probed_work probed_work_1 probed_work_2 probed_work_3 $r16 probed_work__return; do
	expect_eq "samples of p_${p}_$e" $N "$(perf_count /tmp/pf.data "probe:p_${p}_$e" $p)"
done
expect_eq "samples of p_${p}_probed_mix" $((2 * N)) "$(perf_count /tmp/pf.data "probe:p_${p}_probed_mix" $p)"
# probed_mix's argument x, from debuginfo: probed_work(i) calls it with i,
# then with its own result, so every other call shows 0, 1, ... N-1
perf script -i /tmp/pf.data -F event,trace 2>/dev/null |
	awk -v e="probe:p_${p}_probed_mix:" '$1 == e && n++ % 2 == 0 { sub(/.*x_u64=/, ""); print }' >/tmp/x.got
seq 0 $((N - 1)) | cmp - /tmp/x.got

# the return values add up to the target's checksum
sum=0
for r in $(perf script -i /tmp/pf.data -F event,trace 2>/dev/null | awk -v e="probe:p_${p}_probed_work__return:" '$1 == e { sub(/.*arg1=/, ""); print }'); do
	sum=$(( (sum + r) & 0xffffffffffffffff ))
done
expect_eq "sum of return values" "$(awk '/^checksum/ { print $2 }' /tmp/f.out)" "$(printf '%u' $sum)"

perf probe -d "probe:p_${p}_*"
test -z "$(cat $T/uprobe_events)"
perf probe -l 2>&1 | grep -q "p_${p}_" && exit 1
kill -USR1 $p
wait $p
