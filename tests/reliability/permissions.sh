#!/bin/bash
# Per-process probes are root's: an unprivileged user can neither define
# one through tracefs nor through perf probe -p, even on a process of its
# own, and gets a message that says why; nothing is added.
set -eu
. "$(dirname "$0")/../lib.sh"

bin=$TBIN/target

NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups --)

# A command fails, says what it is told to, adds nothing.
fails_with() { # message command...
	local want=$1 rc=0
	shift
	"$@" >/tmp/perm.out 2>&1 || rc=$?
	sed 's/^/  | /' /tmp/perm.out
	[ "$rc" != 0 ] || { echo "  $*: succeeded"; exit 1; }
	grep -q "$want" /tmp/perm.out || { echo "  $*: no '$want'"; exit 1; }
	expect_eq "uprobe_events" "" "$(cat "$TRACING/uprobe_events")"
}

# The same, run as nobody.
refused() { # message command...
	fails_with "$1" "${NOBODY[@]}" "${@:2}"
}

# the target belongs to nobody, so nobody may read its mappings
target_start /tmp/perm-target.out "${NOBODY[@]}" "$bin" -n 1 -k
p=$TPID
va=$(sym_vaddr "$p" "$bin" probed_work)

refused "Permission denied" sh -c "echo 'p $p:$va' >> $TRACING/uprobe_events"
refused "Permission denied" sh -c "echo 'p:x $p:$va' >> /sys/kernel/debug/tracing/uprobe_events"
refused "Permission denied" sh -c "echo 'p:x $p:$va' >> $TRACING/dynamic_events"
if perf_has_pid; then
	refused "No permission to write tracefs" perf probe -p "$p" probed_work
fi
echo "ok: nobody cannot add a per-process probe, even on its own process"

# A user whom tracefs lets write uprobe_events (a group given write access,
# as a tracefs mounted with gid= and a chmod would) probes only what it
# may ptrace: its own process, not root's nor another user's.  The kernel's
# ptrace check refuses it, with its error_log entry; nothing is added.
TG=4242
GROUP=(setpriv --reuid=65534 --regid=65534 --groups="$TG" --)
GRANTED=(. uprobe_events dynamic_events error_log)
SAVED=()

# Give group TG read and write on tracefs and the files (what a tracefs
# mounted with gid= and mode= gives), or give back what they had.
group_access() { # grant|revoke
	local f i=0
	for f in "${GRANTED[@]}"; do
		if [ "$1" = grant ]; then
			SAVED+=("$(stat -c '%g %a' "$TRACING/$f")")
			chgrp "$TG" "$TRACING/$f"
			chmod g+rwX "$TRACING/$f"
		else
			chgrp "${SAVED[i]% *}" "$TRACING/$f"
			chmod "${SAVED[i]#* }" "$TRACING/$f"
			i=$((i + 1))
		fi
	done
}

# The group user's write of a definition is refused by the ptrace check.
group_refused() { # file definition
	fails_with "Operation not permitted" \
		"${GROUP[@]}" bash -c "echo '$2' >> $TRACING/$1"
	grep -q "error: Not permitted to ptrace this process" "$TRACING/error_log" ||
		{ echo "  '$2': no error_log entry"; cat "$TRACING/error_log"; exit 1; }
	echo >"$TRACING/error_log"
}

group_access grant
trap 'group_access revoke' EXIT

# Its own process passes the ptrace check, so the file permissions let it
# write, and its event is made in full, once the group may also look up
# events/ (as with a tracefs mounted with gid=; new directories take
# their parent's group).  Before that, 6.1's tracefs cannot make the
# event's directory with the writer's permissions: the event is refused
# as a whole (kernel-patches/fixes/0003; 6.1 listed it without its
# directory).  6.12's eventfs makes its files on lookup, so there the
# event is made whole at once.  Either way, never half.
rc=0
"${GROUP[@]}" bash -c "echo 'p:grp_own $p:$va' >> $TRACING/uprobe_events" \
	>/tmp/perm.out 2>&1 || rc=$?
! grep -q "Not permitted to ptrace" "$TRACING/error_log" ||
	{ echo "  its own process failed the ptrace check"; exit 1; }
if [ $rc != 0 ]; then
	grep -q "Cannot allocate memory" /tmp/perm.out ||
		{ echo "  grp_own refused: $(cat /tmp/perm.out)"; exit 1; }
	expect_eq "uprobe_events" "" "$(cat "$TRACING/uprobe_events")"
	[ ! -e "$TRACING/events/uprobes/grp_own" ] || { echo "  grp_own half made"; exit 1; }
else
	[ -e "$TRACING/events/uprobes/grp_own/enable" ] ||
		{ echo "  grp_own made without its enable file"; exit 1; }
	echo "-:grp_own" >>"$TRACING/uprobe_events"
fi
group_access revoke
GRANTED+=(events)
SAVED=()
group_access grant
"${GROUP[@]}" sh -c "echo 'p:grp_own $p:$va' >> $TRACING/uprobe_events"
expect_eq "the group user's probe on its own process" \
	"p:uprobes/grp_own $p:$(hex16 "$va")" "$(cat "$TRACING/uprobe_events")"
[ -e "$TRACING/events/uprobes/grp_own/enable" ] || { echo "  grp_own has no enable file"; exit 1; }
echo "-:grp_own" >>"$TRACING/uprobe_events"

# root's process and another user's
target_start /tmp/perm-root.out "$bin" -n 1 -k
rootp=$TPID
target_start /tmp/perm-other.out setpriv --reuid=65533 --regid=65533 --clear-groups -- \
	"$bin" -n 1 -k
otherp=$TPID
for q in $rootp $otherp; do
	qva=$(sym_vaddr "$q" "$bin" probed_work)
	group_refused uprobe_events "p:grp_x $q:$qva"
	group_refused dynamic_events "p:grp_x $q:$qva"
	group_refused uprobe_events "r:grp_x $q:$qva"
done
echo "ok: a group allowed to write uprobe_events probes its own process only"

target_finish "$rootp" /tmp/perm-root.out
target_finish "$otherp" /tmp/perm-other.out
group_access revoke
trap - EXIT

target_finish "$p" /tmp/perm-target.out
