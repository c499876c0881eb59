#!/bin/bash
# Stress on JIT code: selftests/ftrace/uprobe_jit.c rewrites, moves, unmaps,
# frees and re-protects its code and forks, in a pseudo-random order (its
# churn command), while two shells add, enable, disable and delete probes
# (entry, stepped and return) at wherever its perf map says the code is.
# Every result of the JIT and of its children must be that of an unprobed
# run, no signal may reach them, and at the end the code is the JIT's own.
# Once with code that stays writable (-w), once with W^X code;
# JIT_STRESS_SECONDS (30) in all.
set -eu
. "$(dirname "$0")/../lib.sh"
require_jit_series

DUR=${JIT_STRESS_SECONDS:-30}
W=/tmp/jit-stress

# Probe whatever the perf map says is the code, until told to stop; counts
# the definitions and enables that the kernel took, and their hits.
prober() { # id pid
	local id=$1 p=$2 a n=0 ok=0 hits=0 ev
	while [ ! -e "$W/stop" ]; do
		a=0x$(awk '{ a = $1 } END { print a }' "/tmp/perf-$p.map" 2>/dev/null)
		case $((n % 3)) in
		0) ev="p:js/e$id $p:$a" ;;
		1) ev="p:js/e$id $p:$(printf '0x%x' $((a + 4))) x=%di" ;;
		*) ev="r:js/e$id $p:$a v=\$retval:s32" ;;
		esac
		n=$((n + 1))
		if echo "$ev" >>"$TRACING/uprobe_events" 2>/dev/null; then
			echo 1 >"$TRACING/events/js/e$id/enable" 2>/dev/null &&
				ok=$((ok + 1))
			sleep 0.0$((RANDOM % 5))
			hits=$((hits + $(uprobe_hits "e$id" "$TRACING/uprobe_profile")))
			echo 0 >"$TRACING/events/js/e$id/enable"
			echo "-:js/e$id" >>"$TRACING/uprobe_events"
		fi
	done
	echo "$n defined, $ok enabled, $hits hits" >"$W/prober.$id"
}

run() { # jit-mode seconds
	local end ops=0 probers
	MODE=$1
	rm -rf "$W"
	mkdir -p "$W"
	jit_start $MODE
	prober 1 "$JPID" &
	probers=$!
	prober 2 "$JPID" &
	probers="$probers $!"
	end=$(($(date +%s) + $2))
	while [ "$(date +%s)" -lt "$end" ]; do
		jit_do churn 100
		grep -q '^churned 100$' $DRIVE_OUT
		jit_call 100
		ops=$((ops + 100))
	done
	touch "$W/stop"
	wait $probers
	test -z "$(grep ' js/' "$TRACING/uprobe_events" || true)"
	jit_peek $JFN
	expect_eq "code at the end" "$JIT_CODE" "$JBYTES"
	jit_call 100
	drive_end
	echo "jit-stress ${MODE:-W^X}: $ops changes, each with calls and a fork; probers: $(cat "$W/prober.1"); $(cat "$W/prober.2")"
}

trap 'touch $W/stop; kill $DPID 2>/dev/null || true' EXIT
run -w $((DUR / 2))
run "" $((DUR / 2))
