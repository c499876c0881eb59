#!/bin/bash
# perf probe -p -F and -D only read the process: a user without root lists
# the functions of their own process and gets the exact definition -p
# would write, without uprobe_events being opened or changed.
set -eu
. "$(dirname "$0")/../lib.sh"

T=/sys/kernel/tracing
bin=$TBIN/target
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/tmp/nobody)
mkdir -p /tmp/nobody
chown 65534:65534 /tmp/nobody
target_start /tmp/nr.out "${NOBODY[@]}" "$bin" -n 1 -k
p=$TPID
cleanup() { kill $p 2>/dev/null || true; }
trap cleanup EXIT
expect_eq "owner of the target" 65534 "$(stat -c %u /proc/$p)"

"${NOBODY[@]}" perf probe -p $p -F 'probed_*' >/tmp/nr.funcs 2>&1 || { cat /tmp/nr.funcs; exit 1; }
cat /tmp/nr.funcs
grep -qx probed_work /tmp/nr.funcs

"${NOBODY[@]}" perf probe -p $p -D probed_work >/tmp/nr.def 2>&1 || { cat /tmp/nr.def; exit 1; }
cat /tmp/nr.def
expect_eq "definition" "p:probe/p_${p}_probed_work $p:$(sym_vaddr $p "$bin" probed_work)" \
	"$(cat /tmp/nr.def)"
expect_eq "uprobe_events" "" "$(cat $T/uprobe_events)"
