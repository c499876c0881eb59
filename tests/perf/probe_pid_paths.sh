#!/bin/bash
# perf probe -p: a DSO named by path is a file, not a string.  libc named
# by the path ldd prints on merged-/usr Debian (/lib/...) is the mapping of
# /usr/lib/...: the same event as write@libc, with exactly bash's writes.
# A library deleted and replaced by another build since the process mapped
# it (an upgrade) is read through /proc/PID/map_files: the probe lands on
# the mapped build's lib_probed and counts its calls exactly.
set -eu
. "$(dirname "$0")/../lib.sh"

N=6
T=/sys/kernel/tracing
pids=
cleanup() {
	perf probe -q -d 'probe:p_*' 2>/dev/null || true
	[ -z "$pids" ] || kill $pids 2>/dev/null || true
}
trap cleanup EXIT

bash_echo_start /tmp/go.p $N
a=$BPID
pids+=" $a"
libc=$(awk '$6 ~ /\/libc\.so\.6$/ { print $6; exit }' /proc/$a/maps)
lib_libc=${libc#/usr}
[ "$lib_libc" != "$libc" ] && [ -e "$lib_libc" ] ||
	skip_test "not a merged-/usr system: $libc"
perf probe -q -p $a write@libc
want=$(cat $T/uprobe_events)
perf probe -q -d "probe:p_${a}_*"
perf probe -p $a "write@$lib_libc"
expect_eq "write@$lib_libc" "$want" "$(cat $T/uprobe_events)"
perf_record_during /tmp/pp.data "probe:p_${a}_write" \
	sh -c "echo go >/tmp/go.p; while kill -0 $a 2>/dev/null; do sleep 0.1; done"
expect_eq "writes of bash" $N "$(perf_count /tmp/pp.data "probe:p_${a}_write" $a)"
expect_eq "writes in all" $N "$(perf_count /tmp/pp.data "probe:p_${a}_write")"
perf probe -q -d "probe:p_${a}_*"

N=20
rm -rf /tmp/del
mkdir /tmp/del
cp "$TBIN/libprobed.so" /tmp/del/
target_start /tmp/d.out env LD_LIBRARY_PATH=/tmp/del "$TBIN/libuser" $N
p=$TPID
pids+=" $p"
va=$(sym_vaddr $p /tmp/del/libprobed.so lib_probed)
[ -n "$va" ]
rm /tmp/del/libprobed.so
cp "$TBIN/libprobed-b.so" /tmp/del/libprobed.so
grep -q ' /tmp/del/libprobed.so (deleted)$' /proc/$p/maps
perf probe -p $p lib_probed@libprobed.so
expect_eq "uprobe_events (deleted)" "p:probe/p_${p}_lib_probed $p:$(hex16 "$va")" "$(cat $T/uprobe_events)"
perf_record_during /tmp/pd.data "probe:p_${p}_lib_probed" \
	sh -c "kill -USR1 $p; while ! grep -q ^checksum /tmp/d.out; do sleep 0.1; done"
expect_eq "calls of the deleted build" $N "$(perf_count /tmp/pd.data "probe:p_${p}_lib_probed" $p)"
kill -USR1 $p
