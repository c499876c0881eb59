#!/bin/bash
# Per-process probes are root's: an unprivileged user can neither define
# one through tracefs nor through perf probe -p, even on a process of its
# own, and gets a message that says why; nothing is added.
set -eu
. "$(dirname "$0")/../lib.sh"

bin=$TBIN/target

NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups --)

# A command run as nobody fails, says what it is told to, adds nothing.
refused() { # message command...
	local want=$1 rc=0
	shift
	"${NOBODY[@]}" "$@" >/tmp/perm.out 2>&1 || rc=$?
	sed 's/^/  | /' /tmp/perm.out
	[ "$rc" != 0 ] || { echo "  $*: succeeded as nobody"; exit 1; }
	grep -q "$want" /tmp/perm.out || { echo "  $*: no '$want'"; exit 1; }
	expect_eq "uprobe_events" "" "$(cat "$TRACING/uprobe_events")"
}

# the target belongs to nobody, so nobody may read its mappings
target_start /tmp/perm-target.out "${NOBODY[@]}" "$bin" -n 1 -k
p=$TPID
va=$(sym_vaddr "$p" "$bin" probed_work)

refused "Permission denied" sh -c "echo 'p $p:$va' >> $TRACING/uprobe_events"
refused "Permission denied" sh -c "echo 'p:x $p:$va' >> /sys/kernel/debug/tracing/uprobe_events"
refused "Permission denied" sh -c "echo 'p:x $p:$va' >> $TRACING/dynamic_events"
refused "No permission to write tracefs" perf probe -p "$p" probed_work
echo "ok: nobody cannot add a per-process probe, even on its own process"

target_finish "$p" /tmp/perm-target.out
