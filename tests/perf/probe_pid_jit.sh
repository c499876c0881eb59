#!/bin/bash
# perf probe -p on JIT code (selftests/ftrace/uprobe_jit.c, symbols in
# /tmp/perf-PID.map): FUNC, FUNC+OFF with a register, FUNC%return with
# $retval, 0xVADDR, -F, -l; perf record -a counts every call and perf report
# puts the samples on the JIT symbol; -d takes the probes away and the code
# is as it was. A V8-like name with syntax characters and its source is
# taken as it is. What JIT code cannot have is refused and changes nothing.
set -eu
. "$(dirname "$0")/../lib.sh"

T=$TRACING
cleanup() {
	perf probe -q -d 'probe:p_*' 2>/dev/null || true
	kill "$DPID" 2>/dev/null || true
}
trap cleanup EXIT
jit_start -w
p=$JPID
fn=$JFN
map=/tmp/perf-$p.map

probe_refused "has no debuginfo" -p $p 'jit_fn:2'
probe_refused "has no debuginfo" -p $p jit_fn x=y
probe_refused "Failed to add events" -p $p "$(printf '0x%x' $((fn + 4090)))"

perf probe -p $p -F 'jit*' | tee /tmp/funcs.out
grep -qx "$map:" /tmp/funcs.out
grep -qx jit_fn /tmp/funcs.out
perf probe -p $p jit_fn
perf probe -f -p $p 'jit_fn+4' 'x=%di:s32'
perf probe -p $p 'jit_fn%return' 'v=$retval:s32'
perf probe -p $p "$(printf '0x%x' $((fn + 7)))"
expect_eq uprobe_events "p:probe/p_${p}_jit_fn $p:$(hex16 $fn)
p:probe/p_${p}_jit_fn_1 $p:$(hex16 $((fn + 4))) x=%di:s32
r:probe/p_${p}_jit_fn__return $p:$(hex16 $fn) v=\$retval:s32
p:probe/p_${p}_$(hex16 $((fn + 7))) $p:$(hex16 $((fn + 7)))" \
	"$(cat $T/uprobe_events)"
perf probe -l | tee /tmp/list.out
grep -q "probe:p_${p}_jit_fn  *(on jit_fn in $map in pid $p)" /tmp/list.out
grep -q "probe:p_${p}_jit_fn_1  *(on jit_fn+4 in $map in pid $p with x)" /tmp/list.out

evs=probe:p_${p}_jit_fn,probe:p_${p}_jit_fn_1,probe:p_${p}_jit_fn__return
perf_record_during /tmp/jit.data "$evs" \
	bash -c ". $TESTS/lib.sh; drive_send $((DONE + 1)) call 40"
DONE=$((DONE + 1))
expect_eq "sum while recorded" "sum 2380 calls 40" "$(drive_sum)"
for e in ${evs//,/ }; do
	expect_eq "samples of $e" 40 "$(perf_count /tmp/jit.data "$e" $p)"
done
perf script -i /tmp/jit.data -F event,trace 2>/dev/null | tee /tmp/script.out |
	grep -q "p_${p}_jit_fn__return: .* v=118\$"
grep -q "p_${p}_jit_fn_1: .* x=39\$" /tmp/script.out
perf report -i /tmp/jit.data --stdio --sort comm,dso,sym 2>/dev/null |
	tee /tmp/report.out
# The entry events' samples are in jit_fn, the return event's where it
# returns to, in main()
expect_eq "report rows on the JIT symbol" 2 \
	"$(grep -cE "^ +100\.00% +jit +\[JIT\] tid $p +\[\.\] jit_fn\$" /tmp/report.out)"
grep -qE "^ +100\.00% +jit +jit +\[\.\] main\$" /tmp/report.out

# While all four are recorded, a write next to the code keeps them; a
# write to the add at +7 retires the probe there only, and -l says so.
perf_record_during /tmp/jit.data "$evs,probe:p_${p}_$(hex16 $((fn + 7)))" \
	bash -c ". $TESTS/lib.sh; drive_send $((DONE + 1)) poke;
		drive_send $((DONE + 2)) patch; drive_send $((DONE + 3)) call 5"
DONE=$((DONE + 3))
perf probe -l | tee /tmp/list.out
expect_eq "events listed as retired" "probe:p_${p}_$(hex16 $((fn + 7)))" \
	"$(grep "in pid $p (retired)" /tmp/list.out | awk '{ print $1 }')"
expect_eq "samples after the write next to the code" 5 \
	"$(perf_count /tmp/jit.data "probe:p_${p}_jit_fn" $p)"
perf probe -d "probe:p_${p}_*"
test -z "$(cat $T/uprobe_events)"
jit_peek $fn
expect_eq "code after -d, with the add patched" 554889e58d047fffc0905dc3 \
	"$JBYTES"
jit_call 10

# A name with ':', '*', '~', '[', ']', '\' and its source after a space,
# given as the map has it, or up to the space with %return.
g='JS:*g~[0]\x'
gsrc="$g /tmp/jit.c:64:1"
perf probe -p $p "$gsrc"
perf probe -p $p "$g%return" 'v=$retval:s32'
expect_eq "uprobe_events of $g" "p:probe/p_${p}_JS_g_0_x $p:$(hex16 $((fn + 64)))
r:probe/p_${p}_JS_g_0_x__return $p:$(hex16 $((fn + 64))) v=\$retval:s32" \
	"$(cat $T/uprobe_events)"
perf probe -d "probe:p_${p}_*"
# Another function with that name, from another source: the whole name
# names one, but the probe is looked for by the name, so it is refused.
echo "$(printf '%x' $((fn + 128))) 1 $g /tmp/other.js:1:1" >> $map
probe_refused "give its address" -p $p "$gsrc"
test -z "$(cat $T/uprobe_events)"
jit_call 10
drive_end
