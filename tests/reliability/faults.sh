#!/bin/bash
# Allocation failures on the way of per-process probes (make test-debug,
# whose kernel has failslab and fail_page_alloc).  Each operation below is
# done again and again with the Nth slab or page allocation of the writing
# task failing (its fail-nth), N = 1, 2, ... until the operation no longer
# reaches the Nth.  A failed operation must have changed nothing: the
# listing, the events directory, the process's bytes and counter are as
# before.  One that succeeds despite the failure must be complete.  Leaks
# are found by the suite's kmemleak scan at its end.
set -eu
. "$(dirname "$0")/../lib.sh"

DBG=/sys/kernel/debug
T=$TRACING
bin=$TBIN/target
MAX_N=400
CALLS=30

# Fail any slab or page allocation, of any size and gfp, quietly: only
# through fail-nth, which no task but ours sets.
faults_setup() {
	local a
	for a in failslab fail_page_alloc; do
		echo 0 >"$DBG/$a/verbose"
		echo 0 >"$DBG/$a/probability"
		echo N >"$DBG/$a/ignore-gfp-wait"
	done
	echo N >"$DBG/fail_page_alloc/ignore-gfp-highmem"
	echo 0 >"$DBG/fail_page_alloc/min-order"
}

# Run a command (a shell builtin: nothing may fork between arming and
# reading fail-nth) with this task's Nth allocation failing; RC is its
# status, FIRED 1 if the Nth allocation was reached by then.  fail-nth is
# 0 once it fired; reading it needs an open, which fails if the count ran
# out just there, after the command.
inject() { # n command...
	local n=$1 left=
	shift
	echo "$n" >/proc/thread-self/fail-nth
	RC=0
	"$@" 2>&9 || RC=$?
	FIRED=0
	if read -r left 2>&9 </proc/thread-self/fail-nth && [ "$left" = 0 ]; then
		FIRED=1
	fi
	echo 0 2>&9 >/proc/thread-self/fail-nth || true
}

write_line() { echo "$1" >>"$T/$2"; }
set_enable() { echo "$2" >"$T/events/fi/$1/enable"; }

# The state a failed operation must leave, in STATE: the listing, the
# group's files, and for an enable the process's byte and counter.  With
# builtins but for the memory reads: a fork and exec take a while on the
# debug kernel, and a sweep checks the state hundreds of times.
MEM=0
state() {
	local l files
	STATE=
	while IFS= read -r l; do
		STATE+="$l"$'\n'
	done <"$T/uprobe_events"
	files=("$T"/events/fi/* "$T"/events/fi/*/*)
	STATE+="${files[*]}"
	[ "$MEM" = 0 ] ||
		STATE+=" $(mem_bytes "$P" "$VA" 1) $(mem_u16 "$P" "$REFVA")"
}
COUNTS=()

# Do OP (a function taking the fail-nth N; 0 fails nothing) for N = 1..
# until it no longer reaches the Nth allocation.  After each, the state is
# the one before for a failure, or the one OP makes without a fault for a
# success, which UNDO then takes back.
sweep() { # name op undo
	local name=$1 op=$2 undo=$3 n before after refused=0 done_ok=0
	state
	before=$STATE
	"$op" 0
	expect_eq "$name without a fault: status" 0 "$RC"
	state
	after=$STATE
	"$undo"
	for n in $(seq "$MAX_N"); do
		"$op" "$n"
		state
		if [ "$RC" != 0 ]; then
			[ "$FIRED" = 1 ] || { echo "  $name: failed with no fault"; exit 1; }
			expect_eq "$name, allocation $n failed: state" "$before" "$STATE"
			refused=$((refused + 1))
		else
			expect_eq "$name, allocation $n failing, done: state" "$after" "$STATE"
			"$undo"
			state
			expect_eq "$name, undone: state" "$before" "$STATE"
			[ "$FIRED" = 0 ] || done_ok=$((done_ok + 1))
		fi
		[ "$FIRED" = 1 ] || break
	done
	[ "$n" -lt "$MAX_N" ] || { echo "  $name: still failing at $MAX_N"; exit 1; }
	[ "$refused" -gt 0 ] || { echo "  $name: no allocation failure made it fail"; exit 1; }
	COUNTS+=("$name: $((n - 1)) allocations failed in turn, $refused refused, $done_ok done anyway")
}

# ---- the operations ---------------------------------------------------------

DEF_E=
DEF_R=
define_e() { inject "$1" write_line "$DEF_E" uprobe_events; }
define_r() { inject "$1" write_line "$DEF_R" dynamic_events; }
delete_e() { echo "-:fi/e" >>"$T/uprobe_events"; }
delete_r() { echo "-:fi/r" >>"$T/dynamic_events"; }
enable_e() { inject "$1" set_enable e 1; }
enable_r() { inject "$1" set_enable r 1; }
disable_e() { echo 0 >"$T/events/fi/e/enable"; }
disable_r() { echo 0 >"$T/events/fi/r/enable"; }

# ---- main ---------------------------------------------------------------

[ -w /proc/thread-self/fail-nth ] && [ -d "$DBG/failslab" ] &&
	[ -d "$DBG/fail_page_alloc" ] ||
	skip_test "no failslab, fail_page_alloc or fail-nth in this kernel (make test-debug has them)"
faults_setup
exec 9>/dev/null
shopt -s nullglob
want=$(plain_run "$bin" -n "$CALLS")
target_start /tmp/faults.out "$bin" -n "$CALLS" -k
P=$TPID
off=$(sym_offset "$bin" probed_work)
VA=$(offset_vaddr "$P" "$bin" "$off")
REFVA=$(offset_data_vaddrs "$P" "$bin" "$(sym_offset "$bin" __data_start)")
DEF_E="p:fi/e $P:$VA($REFVA) %ax +0(%sp):u64 \$comm a=%di:s32 s=+0(%si):string"
# at the same place, so with the same counter
DEF_R="r:fi/r $P:$VA($REFVA) \$retval:u64"

sweep "define p with a counter" define_e delete_e
sweep "define r through dynamic_events" define_r delete_r
write_line "$DEF_E" uprobe_events
write_line "$DEF_R" dynamic_events
MEM=1
sweep "enable p" enable_e disable_e
sweep "enable r" enable_r disable_r

# after all that, both events work exactly
echo 1 >"$T/events/fi/enable"
target_finish "$P" /tmp/faults.out
expect_eq "the target's result" "$want" "$(grep '^checksum' /tmp/faults.out)"
expect_eq "hits of e" "$CALLS" "$(uprobe_hits e "$T/uprobe_profile")"
expect_eq "hits of r" "$CALLS" "$(uprobe_hits r "$T/uprobe_profile")"
echo 0 >"$T/events/fi/enable"
delete_e
delete_r
expect_eq "uprobe_events at the end" "" "$(cat "$T/uprobe_events")"
for c in "${COUNTS[@]}"; do
	echo "faults: $c"
done
