#!/bin/bash
# perf probe -p on node's optimized code: the JS:*mix symbol that node
# --perf-basic-prof writes to /tmp/perf-PID.map, in V8's rwx code space,
# given by its whole name, by its name without the source, or escaped.
# perf record -a counts each call, perf report puts the samples on the JS
# symbol; with the probe enabled every call counts through 20 full garbage
# collections, and node's results stay those of an unprobed run through
# them, deoptimization and optimization, and after the probe is deleted,
# with node running on.
set -eu
. "$(dirname "$0")/../lib.sh"
require_jit_series
require_perf_pid

command -v node >/dev/null || skip_test "no node (vm/deps installs nodejs)"
T=$TRACING
cleanup() {
	perf probe -q -d 'probe:p_*' 2>/dev/null || true
	kill "$DPID" 2>/dev/null || true
}
trap cleanup EXIT
node_start
p=$DPID
grep -qx 'optimized true' $DRIVE_OUT
addr=0x$(awk '$3 == "JS:*mix" { a = $1 } END { print a }' /tmp/perf-$p.map)
# in V8's code space, mapped read-write-exec
awk -v a=$((addr)) '{ split($1, r, "-") }
	a >= strtonum("0x" r[1]) && a < strtonum("0x" r[2]) { print $2 }' \
	/proc/$p/maps | grep -qx rwxp
drive call 1000
ref=$(drive_sum)

hits() { uprobe_hits "p_${p}_JS_mix" $T/uprobe_profile; }
perf probe -p $p -F 'JS:\*mix*' | tee /tmp/funcs.out
grep -q '^JS:\*mix .*nodework.js' /tmp/funcs.out
# The name as the map has it, with its source; up to the space; escaped
name=$(awk '$3 == "JS:*mix" { n = $0 } END { print n }' /tmp/perf-$p.map)
name=${name#* * }
for spec in "$name" 'JS:*mix' 'JS\:\\*mix'; do
	perf probe -p $p "$spec"
	expect_eq "uprobe_events after '$spec'" \
		"p:probe/p_${p}_JS_mix $p:$(hex16 $addr)" "$(cat $T/uprobe_events)"
	[ "$spec" = 'JS\:\\*mix' ] || perf probe -q -d "probe:p_${p}_JS_mix"
done

perf_record_during /tmp/node.data "probe:p_${p}_JS_mix" \
	bash -c ". $TESTS/lib.sh; drive_send $((DONE + 1)) call 1000"
DONE=$((DONE + 1))
expect_eq "sum while recorded" "$ref" "$(drive_sum)"
expect_eq samples 1000 "$(perf_count /tmp/node.data "probe:p_${p}_JS_mix" $p)"
perf report -i /tmp/node.data --stdio --sort comm,dso,sym 2>/dev/null |
	tee /tmp/report.out
grep -qE "^ +100\.00% +node +\[JIT\] tid $p +\[\.\] JS:\*mix .*nodework\.js" \
	/tmp/report.out

echo 1 > $T/events/probe/p_${p}_JS_mix/enable
drive call 1000
expect_eq "sum, enabled" "$ref" "$(drive_sum)"
expect_eq "hits" 2000 "$(hits)"
# Full collections write to the page of mix's code (V8 updates the object
# pointers in its code there): each write opens the page, the next call
# arms the probe again, and every call counts, through 20 collections
# with allocations before each.
retired() { grep -qE "^ +$p +p_${p}_JS_mix +[0-9]+ \(retired\)\$" $T/uprobe_profile; }
for r in $(seq 20); do
	drive gc 1
	drive call 1000
	expect_eq "sum after collection $r" "$ref" "$(drive_sum)"
done
! retired || { echo "a collection retired the probe"; exit 1; }
! grep -q "p_${p}_JS_mix .*unwatched" $T/uprobe_profile ||
	{ echo "calls may have run without the breakpoint"; exit 1; }
n=$(hits)
expect_eq "hits through 20 collections" 22000 "$n"
# Deoptimized, mix runs in the interpreter; its old code's entry runs at
# most once more, to find that it was deoptimized (V8's lazy check).
drive deopt
drive call 1000
expect_eq "sum, deoptimized" "$ref" "$(drive_sum)"
[ "$(hits)" = $n ] || [ "$(hits)" = $((n + 1)) ] ||
	{ echo "hits after deopt: $(hits), $n before"; exit 1; }
n=$(hits)
drive opt
drive state
expect_eq "state" "optimized true" "$(tail -n 2 $DRIVE_OUT | head -n 1)"
drive call 1000
expect_eq "sum, optimized again" "$ref" "$(drive_sum)"
expect_eq "hits on the old code" "$n" "$(hits)"
echo 0 > $T/events/probe/p_${p}_JS_mix/enable
perf probe -d "probe:p_${p}_*"
drive call 1000
expect_eq "sum after -d" "$ref" "$(drive_sum)"
drive_end
