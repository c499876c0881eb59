#!/bin/bash
# perf probe -p with -x: -x names a DSO the process maps and the spec is
# what it is with -x alone.  -p PID -x libprobed.so lib_probed is the event
# -p PID lib_probed@libprobed.so is, and -x libprobed.so 0xOFF (a file
# offset, as with -x) too: each counts the N calls.  probed_work@target.c,
# with -x target and without -x (no DSO is named target.c, so it is a
# source file), is placed where -x target alone and nm place it and counts
# the N calls.  A -x that no DSO of the process, or several, match is
# refused and adds nothing.
set -eu
. "$(dirname "$0")/../lib.sh"

N=14
T=$TRACING
lib=$TBIN/libprobed.so
bin=$TBIN/target
pids=
cleanup() {
	perf probe -q -d 'probe:p_*' 2>/dev/null || true
	[ -z "$pids" ] || kill $pids 2>/dev/null || true
}
trap cleanup EXIT

# Let process $1 make its calls with events $3 recorded, into /tmp/px.data.
record_calls() { # pid outfile events-csv
	perf_record_during /tmp/px.data "$3" \
		sh -c "kill -USR1 $1; while ! grep -q ^checksum $2; do sleep 0.1; done"
}

target_start /tmp/px1.out "$TBIN/libuser" $N
p=$TPID
pids+=" $p"
off=$(sym_offset "$lib" lib_probed)
va=$(hex16 "$(offset_vaddr $p "$lib" "$off")")
e=p_${p}_lib_probed
perf probe -p $p lib_probed@libprobed.so
perf probe -f -p $p -x libprobed.so lib_probed
perf probe -p $p -x libprobed.so "$(printf '0x%x' "$off")"
expect_eq "uprobe_events" "p:probe/$e $p:$va
p:probe/${e}_1 $p:$va
p:probe/p_${p}_$va $p:$va" "$(cat $T/uprobe_events)"
record_calls $p /tmp/px1.out "probe:$e,probe:${e}_1,probe:p_${p}_$va"
expect_eq "calls of lib_probed@libprobed.so" $N "$(perf_count /tmp/px.data "probe:$e" $p)"
expect_eq "calls of -x libprobed.so lib_probed" $N "$(perf_count /tmp/px.data "probe:${e}_1" $p)"
expect_eq "calls of -x libprobed.so 0x$(printf %x "$off")" $N \
	"$(perf_count /tmp/px.data "probe:p_${p}_$va" $p)"
perf probe -q -d "probe:p_${p}_*"
kill -USR1 $p
wait $p

# Both builds of libprobed mapped: a short name matching both is ambiguous
target_start /tmp/px2.out env LD_PRELOAD="$lib $TBIN/libprobed-b.so" "$bin" -n $N -k
p=$TPID
pids+=" $p"
probe_refused "no DSO matches \"nosuchlib\" in pid $p" -p $p -x nosuchlib probed_work
probe_refused "no DSO matches \"/bin/bash\" in pid $p" -p $p -x /bin/bash echo_builtin
probe_refused "more than one DSO matches \"libprobed\" in pid $p" -p $p -x libprobed lib_probed
grep -q "^  $TBIN/libprobed-b.so\$" /tmp/refused.out

xoff=$(perf probe -x "$bin" -D probed_work@target.c |
	sed -n 's/^p:[^ ]* [^ ]*:\(0x[0-9a-f]*\)$/\1/p')
expect_eq "-x target probed_work@target.c" "$(sym_offset "$bin" probed_work)" "$((xoff))"
va=$(hex16 "$(offset_vaddr $p "$bin" $((xoff)))")
e=p_${p}_probed_work
perf probe -p $p -x target probed_work@target.c
perf probe -f -p $p probed_work@target.c
expect_eq "uprobe_events" "p:probe/$e $p:$va
p:probe/${e}_1 $p:$va" "$(cat $T/uprobe_events)"
record_calls $p /tmp/px2.out "probe:$e,probe:${e}_1"
expect_eq "calls of -x target probed_work@target.c" $N "$(perf_count /tmp/px.data "probe:$e" $p)"
expect_eq "calls of probed_work@target.c" $N "$(perf_count /tmp/px.data "probe:${e}_1" $p)"
perf probe -q -d "probe:p_${p}_*"
kill -USR1 $p
wait $p
