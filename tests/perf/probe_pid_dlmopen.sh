#!/bin/bash
# perf probe -p on a library mapped twice in one process (dlmopen): an
# address lands at that address, in that copy, and counts exactly that
# copy's calls; a name, which is in both copies, is refused with both
# addresses named and nothing written.
set -eu
. "$(dirname "$0")/../lib.sh"

N=9
M=4
T=/sys/kernel/tracing
lib=$TBIN/libprobed.so
target_start /tmp/dl.out "$TBIN/dlmuser" "$lib" $N $M
p=$TPID
cleanup() { perf probe -q -d 'probe:p_*' 2>/dev/null || true; kill $p 2>/dev/null || true; }
trap cleanup EXIT
read -r _ a1 a2 <<<"$(grep '^lib_probed ' /tmp/dl.out)"
[ "$a1" != "$a2" ]

rc=0
perf probe -p $p lib_probed@libprobed >/tmp/dl.err 2>&1 || rc=$?
cat /tmp/dl.err
expect_eq "uprobe_events after a name" "" "$(cat $T/uprobe_events)"
[ $rc != 0 ] || { echo "perf probe of a name in two copies succeeded"; exit 1; }
grep -q "$lib is mapped 2 times in pid $p; the place is at" /tmp/dl.err
grep -q " $a1[ .]" /tmp/dl.err
grep -q " $a2[ .]" /tmp/dl.err

perf probe -p $p "$a1"
perf probe -p $p "$a2"
e1=p_${p}_$(hex16 "$a1")
e2=p_${p}_$(hex16 "$a2")
expect_eq "uprobe_events" "$(printf 'p:probe/%s %d:%s\np:probe/%s %d:%s' \
	"$e1" $p "$(hex16 "$a1")" "$e2" $p "$(hex16 "$a2")")" "$(cat $T/uprobe_events)"
perf_record_during /tmp/dl.data "probe:$e1,probe:$e2" \
	sh -c "kill -USR1 $p; while ! grep -q ^checksum /tmp/dl.out; do sleep 0.1; done"
expect_eq "calls of the first copy" $N "$(perf_count /tmp/dl.data "probe:$e1" $p)"
expect_eq "calls of the second copy" $M "$(perf_count /tmp/dl.data "probe:$e2" $p)"
kill -USR1 $p
wait $p
