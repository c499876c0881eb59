#!/bin/bash
# Stress: while a target with 8 threads (and a forked child each round)
# hits per-process probes without pause, several shells add, enable,
# disable and delete events on it, return probes among them; short-lived
# targets are probed and exit, exit before their probe is enabled, fork
# and exec; perf record sessions, two at a time on two events (one a
# return probe), start and are killed.  Runs until STRESS_OPS (10000)
# operations are done or STRESS_SECONDS (180) pass, then checks that every
# result was right, every event is gone and no probed address holds a
# stray byte.
# STRESS_FORM=path churns 6.1's PATH:OFFSET probes instead of PID:VADDR.
set -eu
. "$(dirname "$0")/../lib.sh"

DUR=${STRESS_SECONDS:-180}
MAXOPS=${STRESS_OPS:-10000}
W=/tmp/stress
bin=$TBIN/target
libc=$(readlink -f /lib/x86_64-linux-gnu/libc.so.6)
SYMS="probed_work probed_riprel probed_call probed_mix"

# ---- operations, counted per loop in $W/ops.ID and $W/err.ID -------------

# One write to a tracefs file; a failure is logged as unexpected unless the
# caller says it expects one.  Returns the write's status.
op() { # id file text [expect-fail]
	local rc=0
	{ echo "$3" >>"$TRACING/$2"; } 2>/dev/null || rc=1
	OPS=$((OPS + 1))
	if [ "$rc" = 1 ] && [ -z "${4:-}" ]; then
		echo "$2 <- $3" >>"$W/err.$1"
	elif [ "$rc" = 0 ] && [ -n "${4:-}" ]; then
		echo "$2 <- $3: succeeded, should have failed" >>"$W/err.$1"
	fi
	[ $((OPS % 20)) != 0 ] || echo "$OPS" >"$W/ops.$1"
	return $rc
}

unexpected() { # id message
	echo "$2" >>"$W/err.$1"
}

# Add, enable, disable and delete one event on each probed address of the
# long-running target, and a return probe on each function entry among
# them; several of these loops share the addresses.
churn() { # id
	local id=$1 a e n
	OPS=0
	while [ ! -e "$W/stop" ]; do
		n=0
		for a in $POINTS; do
			op "$id" uprobe_events "p:stress/c${id}_$n $a" || true
			n=$((n + 1))
		done
		for a in $ENTRIES; do
			op "$id" uprobe_events "r:stress/c${id}_$n $a" || true
			n=$((n + 1))
		done
		for ((e = 0; e < n; e++)); do
			op "$id" "events/stress/c${id}_$e/enable" 1 || true
		done
		for ((e = 0; e < n; e++)); do
			op "$id" "events/stress/c${id}_$e/enable" 0 || true
			op "$id" uprobe_events "-:stress/c${id}_$e" || true
		done
	done
	echo "$OPS" >"$W/ops.$id"
}

# The hit count uprobe_profile shows for an event.
profile_hits() { # event
	uprobe_hits "$1" "$TRACING/uprobe_profile"
}

# One short-lived target, probed at probed_work, in one of four ways:
# plain, exit before enable, fork (the child is not counted), exec (the
# new image is not counted).
short_one() { # id n mode
	local id=$1 n=$2 mode=$3 out=$W/short.$1.out ev=s$1 args="" want
	case $mode in fork) args=-f ;; exec) args=-x ;; esac
	target_start "$out" "$bin" -n 50 -t 2 $args
	op "$id" uprobe_events "p:stress/$ev $TPID:$(offset_vaddr "$TPID" "$bin" "$WORK_OFF")" ||
		{ kill "$TPID"; wait "$TPID" || true; return 0; }
	if [ "$mode" = early ]; then
		target_go "$TPID"
		wait "$TPID"
		op "$id" "events/stress/$ev/enable" 1 fail || true
	else
		op "$id" "events/stress/$ev/enable" 1 || true
		target_go "$TPID"
		wait "$TPID"
		op "$id" "events/stress/$ev/enable" 0 || true
		want=100
		[ "$(profile_hits "$ev")" = "$want" ] ||
			unexpected "$id" "short $mode #$n: $(profile_hits "$ev") hits, want $want"
	fi
	want=1
	case $mode in fork | exec) want=2 ;; esac
	[ "$(results "$out" "$SHORT_SUM")" = "$want 0" ] ||
		unexpected "$id" "short $mode #$n: wrong results: $(cat "$out")"
	op "$id" uprobe_events "-:stress/$ev" || true
}

short_lived() { # id
	local id=$1 n=0 modes=(plain early fork exec)
	OPS=0
	while [ ! -e "$W/stop" ]; do
		short_one "$id" "$n" "${modes[n % 4]}"
		n=$((n + 1))
	done
	echo "$n" >"$W/procs"
	echo "$OPS" >"$W/ops.$id"
}

# Send a signal, and SIGKILL if the process still runs 20 s later; reap it.
stop_pid() { # pid signal
	local i
	kill -"$2" "$1" 2>/dev/null || true
	for i in $(seq 100); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.2
	done
	kill -KILL "$1" 2>/dev/null || true
	wait "$1" 2>/dev/null || true
}

# perf record sessions on a perf-probe event of the long-running target,
# each killed after a while, with SIGTERM (which perf record handles: an
# async job of a script has SIGINT ignored) or SIGKILL in turn.  Two of
# these loops run at once, on two events.
perf_sessions() { # id event
	local id=$1 n=0 p sig
	OPS=0
	while [ ! -e "$W/stop" ]; do
		perf record -q -o "$W/perf.$id.$n.data" -e "$2" -a >/dev/null 2>&1 &
		p=$!
		sleep "0.$((RANDOM % 9 + 1))"
		sig=TERM
		[ $((n % 2)) = 0 ] || sig=KILL
		stop_pid "$p" "$sig"
		rm -f "$W/perf.$id.$n.data"
		n=$((n + 1))
		OPS=$((OPS + 1))
		echo "$OPS" >"$W/ops.$id"
	done
	echo "$n" >"$W/sessions.$id"
}

# "LINES BAD": how many result lines a target's output has, and how many of
# them differ from the unprobed checksum.
results() { # outfile checksum
	sed -n 's/^\(child \)\{0,1\}checksum //p' "$1" |
		awk -v w="$2" '{ n++ } $0 != w { bad++ } END { print n + 0, bad + 0 }'
}

total_ops() {
	cat "$W"/ops.* 2>/dev/null | awk '{ n += $1 } END { print n + 0 }'
}

# ---- setup, run, checks ---------------------------------------------------

# A churn loops' probe point: PID:VADDR in the long-running target or, with
# STRESS_FORM=path, 6.1's PATH:OFFSET on the same instruction (to tell the
# per-process layer from the engine under it).
point() { # file symbol
	if [ "${STRESS_FORM:-pid}" = path ]; then
		printf '%s:0x%x\n' "$1" "$(sym_offset "$1" "$2")"
	else
		echo "$MPID:$(sym_vaddr "$MPID" "$1" "$2")"
	fi
}

setup() {
	rm -rf "$W"
	mkdir -p "$W"
	WORK_OFF=$(sym_offset "$bin" probed_work)
	SHORT_SUM=$("$bin" -g -n 50 -t 2 | sed -n 's/^checksum //p')
	MAIN_SUM=$("$bin" -g -n 2000 -t 8 -l | sed -n 's/^checksum //p')
	target_start "$W/main.out" "$bin" -n 2000 -t 8 -l -f -d 100000 -k
	MPID=$TPID
	POINTS=$(for s in $SYMS; do point "$bin" "$s"; done; point "$libc" getppid)
	# return probes only where a function starts
	ENTRIES=$(for s in probed_work probed_mix; do point "$bin" "$s"; done
		point "$libc" getppid)
	if perf_has_pid; then
		perf probe -q -p "$MPID" probed_mix
		perf probe -q -p "$MPID" probed_work%return
	else	# no perf series for this kernel yet: the same events by hand
		echo "p:probe/p_${MPID}_probed_mix $MPID:$(sym_vaddr "$MPID" "$bin" probed_mix)
r:probe/p_${MPID}_probed_work__return $MPID:$(sym_vaddr "$MPID" "$bin" probed_work)" \
			>>"$TRACING/uprobe_events"
	fi
	target_go "$MPID"
	wait_line "$W/main.out" '^checksum' 60
}

run_loops() {
	local t0=$SECONDS pids=() i
	for i in 1 2 3; do
			churn "$i" &
		pids+=($!)
	done
	short_lived 4 &
	pids+=($!)
	perf_sessions 5 "probe:p_${MPID}_probed_mix" &
	pids+=($!)
	perf_sessions 6 "probe:p_${MPID}_probed_work__return" &
	pids+=($!)
	while [ $((SECONDS - t0)) -lt "$DUR" ] && [ "$(total_ops)" -lt "$MAXOPS" ]; do
		sleep 1
	done
	touch "$W/stop"
	for i in "${pids[@]}"; do
		wait "$i" || unexpected loops "a loop failed: status $?"
	done
	ELAPSED=$((SECONDS - t0))
}

# Every result line of the long-running target is the unprobed one.
check_main() {
	local r
	if ! kill -0 "$MPID" 2>/dev/null; then
		wait "$MPID" && r=0 || r=$?
		echo "  main target exited during the run, status $r: $(tail -3 "$W/main.out")"
		head -5 "$W"/err.*
		exit 1
	fi
	target_go "$MPID"
	wait_line "$W/main.out" '^rounds' 120
	ROUNDS=$(sed -n 's/^rounds //p' "$W/main.out")
	r=$(results "$W/main.out" "$MAIN_SUM")
	expect_eq "main target: result lines, wrong ones" "$((2 * ROUNDS)) 0" "$r"
}

# No int3 left behind: the target's bytes at every probed address are the
# file's, and so are those of libc's getppid in an unprobed process.
check_bytes() {
	local s off
	for s in $SYMS; do
		off=$(sym_offset "$bin" "$s")
		expect_eq "bytes at $s" "$(file_bytes "$bin" "$off")" \
			"$(mem_bytes "$MPID" "$(offset_vaddr "$MPID" "$bin" "$off")")"
	done
	off=$(sym_offset "$libc" getppid)
	for p in "$MPID" 1; do
		expect_eq "bytes at getppid in pid $p" "$(file_bytes "$libc" "$off")" \
			"$(mem_bytes "$p" "$(offset_vaddr "$p" "$libc" "$off")")"
	done
}

main() {
	local errs
	setup
	run_loops
	check_main
	check_bytes
	if perf_has_pid; then
		perf probe -q -d "probe:p_${MPID}_probed_*"
	else
		echo "-:probe/p_${MPID}_probed_*" >>"$TRACING/uprobe_events"
	fi
	expect_eq "uprobe_events after the run" "" "$(cat "$TRACING/uprobe_events")"
	target_go "$MPID"
	wait "$MPID"
	errs=$(cat "$W"/err.* 2>/dev/null | wc -l)
	echo "stress: $(total_ops) operations in ${ELAPSED}s: 3 churn loops" \
		"(${STRESS_FORM:-pid} form)," \
		"$(cat "$W/procs") short-lived targets, $(cat "$W"/sessions.* |
			awk '{ n += $1 } END { print n }') perf record sessions (two at a" \
		"time); main target: $ROUNDS rounds, all results right;" \
		"unexpected errors: $errs"
	[ "$errs" = 0 ] || { head -20 "$W"/err.*; exit 1; }
}

main "$@"
