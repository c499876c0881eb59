#!/bin/bash
# perf probe -p and the probe cache: -p --cache is refused and stores
# nothing; an entry bound to a process that an older perf stored under the
# file's build-id is ignored with a warning, so that neither -x nor -p
# binds a new probe to that stale pid or crashes on it.  The -p probe then
# counts exactly its own process's calls.
set -eu
. "$(dirname "$0")/../lib.sh"

N=30
T=/sys/kernel/tracing
bin=$TBIN/target
target_start /tmp/c.out "$bin" -n $N -k
p=$TPID
target_start /tmp/c2.out "$bin" -n $N -k
q=$TPID
cleanup() {
	perf probe -q -d 'probe*:*' 2>/dev/null || true
	perf buildid-cache -p "$bin" >/dev/null 2>&1 || true
	kill $p $q 2>/dev/null || true
}
trap cleanup EXIT

# Run perf probe; its output in /tmp/pc.out, its status in RC.
probe() {
	RC=0
	perf probe "$@" >/tmp/pc.out 2>&1 || RC=$?
	cat /tmp/pc.out
}

# The probe cache file of a binary (perf keeps it by build-id).
cache_file() { # binary
	local bid
	perf buildid-cache -a "$1"
	bid=$(perf buildid-list -i "$1")
	echo "$HOME/.debug$(readlink -f "$1")/$bid/probes"
}

probe -p $p --cache probed_work
expect_eq "status of -p --cache" 1 $((RC != 0))
grep -q -- "-p cannot be used with --cache" /tmp/pc.out
expect_eq "usage lines of -p --cache" "    -p, --pid <pid>
        --cache" "$(grep -oe '^    -p, --pid <pid>' -e '^        --cache' /tmp/pc.out)"
expect_eq "uprobe_events after -p --cache" "" "$(cat $T/uprobe_events)"
perf probe --cache -l >/tmp/pc.list 2>&1 || true
! grep -q "$p:" /tmp/pc.list || { cat /tmp/pc.list; exit 1; }

# What an older perf probe -p $q --cache probed_work left in the cache
cache=$(cache_file "$bin")
printf '#probed_work\np:probe/p_%d_probed_work %d:%s\n' $q $q \
	"$(sym_vaddr $q "$bin" probed_work)" >>"$cache"

off=$(sym_offset "$bin" probed_work)
probe -x "$bin" probed_work
expect_eq "status of -x" 0 $RC
grep -q 'Ignoring the cached probe "probed_work": it is bound to a process' /tmp/pc.out
expect_eq "uprobe_events of -x" "p:probe_target/probed_work $(readlink -f "$bin"):$(hex16 $off)" \
	"$(cat $T/uprobe_events)"
perf probe -q -d 'probe_target:*'

probe -p $p probed_work
expect_eq "status of -p" 0 $RC
expect_eq "uprobe_events of -p" "p:probe/p_${p}_probed_work $p:$(hex16 "$(sym_vaddr $p "$bin" probed_work)")" \
	"$(cat $T/uprobe_events)"

perf_record_during /tmp/pc.data "probe:p_${p}_probed_work" \
	sh -c "kill -USR1 $p $q; while ! grep -q ^checksum /tmp/c.out || ! grep -q ^checksum /tmp/c2.out; do sleep 0.1; done"
expect_eq "samples from $p" $N "$(perf_count /tmp/pc.data "probe:p_${p}_probed_work" $p)"
expect_eq "samples in all" $N "$(perf_count /tmp/pc.data "probe:p_${p}_probed_work")"
