#!/bin/bash
# Who arms a per-process probe through perf: a perf event that watches the
# process (per-task on it, or CPU-wide by a user who may ptrace it).  An
# unprivileged user's per-task event on its own process leaves the target's
# bytes alone, and its CPU-wide event is refused.
set -eu
. "$(dirname "$0")/../lib.sh"

bin=$TBIN/target
off=$(sym_offset "$bin" probed_work)
orig=$(file_bytes "$bin" "$off" 1)
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }

target_start /tmp/a.out "$bin" -n 200 -k
p=$TPID
va=$(sym_vaddr "$p" "$bin" probed_work)
echo "p:arm $p:$va" >>$TRACING/uprobe_events
id=$(cat $TRACING/events/uprobes/arm/id)

# nobody, per-task on its own process: the target keeps its bytes
nobody "$TBIN/perf-open" "$id" 0 -1 3 >/tmp/po.out 2>&1 &
wait_line /tmp/po.out '^open'
expect_eq "bytes while nobody's per-task event is open" "$orig" "$(mem_bytes "$p" "$va" 1)"
wait $!
expect_eq "nobody's count" "count 0" "$(tail -n 1 /tmp/po.out)"

# nobody, CPU-wide: refused
rc=0
nobody "$TBIN/perf-open" "$id" -1 0 1 >/tmp/po.out 2>&1 || rc=$?
expect_eq "nobody's CPU-wide open" 1 "$rc"
grep -q "Permission denied" /tmp/po.out
expect_eq "bytes after the refused open" "$orig" "$(mem_bytes "$p" "$va" 1)"

# root, per-task on the target: armed, and counts every call
"$TBIN/perf-open" "$id" "$p" -1 4 >/tmp/po.out 2>&1 &
wait_line /tmp/po.out '^open'
expect_eq "bytes while root's per-task event is open" cc "$(mem_bytes "$p" "$va" 1)"
target_go "$p"
wait_line /tmp/a.out '^checksum'
wait $!
expect_eq "root's count" "count 200" "$(tail -n 1 /tmp/po.out)"
expect_eq "bytes after close" "$orig" "$(mem_bytes "$p" "$va" 1)"
echo "-:arm" >>$TRACING/uprobe_events
target_go "$p"
wait "$p"
