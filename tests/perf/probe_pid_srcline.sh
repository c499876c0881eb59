#!/bin/bash
# perf probe -p with SRC:LINE: SRC is a source file of the executable, as
# with -x (not a DSO): the line "r *= s;" of probed_work in target.c is
# probed at the address -x gives and counts its N calls exactly.
set -eu
. "$(dirname "$0")/../lib.sh"

N=15
T=/sys/kernel/tracing
bin=$TBIN/target
line=$(grep -nF 'r *= s;' "$TESTS/target.c" | cut -d: -f1)
target_start /tmp/sl.out "$bin" -n $N -k
p=$TPID
cleanup() { perf probe -q -d 'probe:p_*' 2>/dev/null || true; kill $p 2>/dev/null || true; }
trap cleanup EXIT

want=$(perf probe -x "$bin" -D "target.c:$line" | sed -n 's/^p:[^ ]* [^ ]*:\(0x[0-9a-f]*\)$/\1/p' |
	while read -r off; do echo "$(hex16 "$(offset_vaddr $p "$bin" $((off)))")"; done)
expect_eq "addresses -x gives" 1 "$(echo "$want" | wc -l)"
perf probe -p $p -a "sl=target.c:$line"
expect_eq "uprobe_events" "p:probe/sl $p:$want" "$(cat $T/uprobe_events)"
perf_record_during /tmp/sl.data probe:sl \
	sh -c "kill -USR1 $p; while ! grep -q ^checksum /tmp/sl.out; do sleep 0.1; done"
expect_eq "calls at target.c:$line" $N "$(perf_count /tmp/sl.data probe:sl $p)"
perf probe -q -d probe:sl
kill -USR1 $p
wait $p
