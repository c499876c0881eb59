# Shared helpers for the test scripts (host and guest).  Source it.
# shellcheck shell=bash

TESTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$TESTS/../vm/lib.sh"
TBIN=$B/tests
TRACING=/sys/kernel/tracing
SAMPLE_KO=$KOUT/samples/uprobes/uprobe_example.ko

# Kernel log lines that fail a test wherever they appear.
KLOG_BAD='WARNING:|BUG:|Oops|general protection|Kernel panic|lockdep|possible recursive locking|circular locking|KASAN|kmemleak|UBSAN|Call Trace:|RIP: '

# The result lines every runner prints; run-all counts them.
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; }
skip() { echo "SKIP: $*"; }
# A test that cannot run here says why and exits with its group's skip
# status (2 for perf shell tests); guest-suite counts a skip only with this
# line last, so a command that fails with status 2 under set -e is a failure.
skip_test() { # reason...
	echo "skip: $*"
	exit 2
}

# ---- for tests ------------------------------------------------------------

# Print the message and exit 1 unless the two values are equal.
expect_eq() { # what expected actual
	[ "$2" = "$3" ] && return 0
	echo "  $1: expected '$2', got '$3'"
	exit 1
}

# Start tests/target in the background with its output in $1; sets TPID.
# It must print "ready" within TARGET_START_SECS (5).
target_start() { # outfile target-args...
	local out=$1 i
	shift
	"$@" >"$out" 2>&1 &
	TPID=$!
	for i in $(seq $((${TARGET_START_SECS:-5} * 20))); do
		grep -q '^ready' "$out" && return 0
		sleep 0.05
	done
	echo "  target did not start: $(cat "$out")"
	exit 1
}

# Like target_start, for a process that must get the given pid again (a
# pid freed since): ns_last_pid is set before each of a few tries.  Exits
# 2 (skip) if the pid keeps going to other processes.
target_start_pid() { # pid outfile target-args...
	local pid=$1 try
	shift
	for try in 1 2 3 4 5; do
		echo $((pid - 1)) >/proc/sys/kernel/ns_last_pid
		target_start "$@"
		[ "$TPID" != "$pid" ] || return 0
		kill "$TPID"
		wait "$TPID" || true
	done
	skip_test "could not start a process with pid $pid again"
}

# Tell a waiting target to go on (see tests/target.c).
target_go() { kill -USR1 "$1"; }

# Let a target started with -k do its work and exit.
target_finish() { # pid outfile
	target_go "$1"
	wait_line "$2" '^checksum' 60
	target_go "$1"
	wait "$1"
}

# Wait until the file has a line matching the pattern (5 s, or the given
# number of seconds, at most).
wait_line() { # file pattern [seconds]
	local i
	for i in $(seq $((${3:-5} * 50))); do
		grep -q "$2" "$1" && return 0
		sleep 0.02
	done
	echo "  no line '$2' in $1: $(cat "$1")"
	exit 1
}

# The ELF address of a symbol (dynamic or static table), as hex digits.
sym_value() { # file symbol
	local val
	local strip='{ sub(/@.*/, "", $3) } $3 == s { print $1; exit }'
	val=$(nm -D --defined-only "$1" 2>/dev/null | awk -v s="$2" "$strip")
	[ -n "$val" ] || val=$(nm --defined-only "$1" 2>/dev/null | awk -v s="$2" "$strip")
	[ -n "$val" ] || return 1
	echo "$val"
}

# The file offset of an ELF symbol (dynamic or static table).
sym_offset() { # file symbol
	local val
	val=$(sym_value "$1" "$2") || return 1
	vaddr_offset "$1" $((16#$val))
}

# The file offset of an ELF virtual address, through the PT_LOAD that
# holds it (in its file part).
vaddr_offset() { # file vaddr
	readelf -lW "$1" | gawk -v v=$(($2)) '
		$1 == "LOAD" {
			off = strtonum($2); va = strtonum($3); sz = strtonum($5)
			if (v >= va && v < va + sz) { printf "%d\n", v - va + off; exit }
		}'
}

# Where a file offset of a file is in a process's private writable
# mappings of it, one address a line, as 0x-hex.
offset_data_vaddrs() { # pid file offset
	gawk -v f="$(readlink -f "$2")" -v o="$3" '
		$6 == f && $2 ~ /^rw-p/ {
			split($1, r, "-"); s = strtonum("0x" r[1]); e = strtonum("0x" r[2])
			m = strtonum("0x" $3)
			if (o >= m && o < m + e - s) printf "0x%x\n", s + o - m
		}' "/proc/$1/maps"
}

# A field (Location, Base, Semaphore) of an SDT marker of a file.
sdt_field() { # file marker field
	readelf -n "$1" | gawk -v m="$2" -v f="$3:" '
		$1 == "Name:" { name = $2 }
		name == m { for (i = 1; i < NF; i++) if ($i == f) {
			v = $(i + 1); sub(/,$/, "", v); printf "0x%x\n", strtonum(v); exit } }'
}

# Start Debian's python3.11 on tests/pywork.py CALLS GCS and wait for its
# "ready"; sets TPID.
pywork_start() { # outfile calls gcs
	"$(readlink -f /usr/bin/python3.11)" -S "$TESTS/pywork.py" "$2" "$3" >"$1" 2>&1 &
	TPID=$!
	wait_line "$1" '^ready' 60
}

# The 16-bit counter at a virtual address of a process, as a number.
mem_u16() { # pid vaddr
	local x
	x=$(mem_bytes "$1" "$2" 2)
	echo $((16#${x:2:2}${x:0:2}))
}

# Where a file offset of a mapped file is in a process, from its maps (the
# path as the process sees it, which need not exist here).
offset_vaddr() { # pid file offset
	gawk -v f="$(readlink -m "$2")" -v o="$3" '
		$6 == f && $2 ~ /x/ {
			split($1, r, "-"); s = strtonum("0x" r[1]); e = strtonum("0x" r[2])
			m = strtonum("0x" $3)
			if (o >= m && o < m + e - s) { printf "0x%x\n", s + o - m; exit }
		}' "/proc/$1/maps"
}

# The runtime address of a symbol in a process.
sym_vaddr() { # pid file symbol
	local off
	off=$(sym_offset "$2" "$3") || return 1
	offset_vaddr "$1" "$2" "$off"
}

# Where a target's probed_scale (in .data, not executable) is, from the load
# bias of its probed_work; as 0x-hex.
scale_vaddr() { # pid target-binary
	local link
	link=$(nm "$2" | awk '$3 == "probed_scale" { s = $1 } $3 == "probed_work" { w = $1 }
		END { print "0x" s " - 0x" w }')
	printf '0x%x\n' $(($(sym_vaddr "$1" "$2" probed_work) + link))
}

# The lowest address of a process's stack, as 0x-hex.
stack_vaddr() { # pid
	awk '/\[stack\]/ { split($1, r, "-"); print "0x" r[1]; exit }' "/proc/$1/maps"
}

# N bytes at a virtual address of a process, as hex.
mem_bytes() { # pid vaddr [n]
	dd if="/proc/$1/mem" bs="${3:-16}" count=1 iflag=skip_bytes \
		skip=$(($2)) 2>/dev/null | hex_bytes
}

# N bytes at an offset of a file, as hex.
file_bytes() { # file offset [n]
	dd if="$1" bs="${3:-16}" count=1 iflag=skip_bytes skip=$(($2)) \
		2>/dev/null | hex_bytes
}

# A tmpfs at DIR with a copy of FILE in it, for a target on a filesystem
# that a test then unmounts.
tmpfs_copy() { # dir file
	mkdir -p "$1"
	mount -t tmpfs uptest "$1"
	cp "$2" "$1/"
}

# Unmount DIR.  A probe drops what it holds of a process from a work item
# run shortly after the process is gone, so this gives it up to 5 s.
umount_soon() { # dir
	local i
	for i in $(seq 50); do
		umount "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	umount "$1"
}

# Standard input as one string of hex digits (od -v: repeated lines too).
hex_bytes() {
	od -An -v -tx1 | tr -d ' \n'
}

# Kernel log from a marker on: klog_mark prints a marker it wrote to the
# log, klog_since prints the log lines after it (without timestamps).
klog_mark() {
	local m="uptest-mark-$$-$RANDOM$RANDOM"
	echo "$m" >/dev/kmsg
	echo "$m"
}
klog_since() { # marker
	dmesg | sed -n "/$1/,\$p" | tail -n +2 | sed 's/^\[[ 0-9.]*\] //'
}

# ---- programs driven through a fifo (tests/jit.c, tests/nodework.js) -------

# They read commands from /tmp/drive.in, one a line, print "done N COMMAND"
# after the Nth, and exit on "exit".  Start one with its output in
# /tmp/drive.out; sets DPID.
drive_start() { # command...
	rm -f /tmp/drive.in
	mkfifo /tmp/drive.in
	DONE=0
	"$@" /tmp/drive.in >/tmp/drive.out 2>&1 &
	DPID=$!
	wait_line /tmp/drive.out '^ready' 60
}

# Is process PID still running (not gone, not a zombie)?
running() { # pid
	local s
	s=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
	s=${s##*) }
	[ "${s%% *}" != Z ]
}

# The driven program is gone at a command: fail, with its exit status when
# this shell is its parent (a signal shows as 128 + its number).
drive_gone() { # command
	local rc=0
	wait "$DPID" 2>/dev/null || rc=$?
	echo "  $DPID is gone at '$1' (exit status $rc): $(tail -n 3 /tmp/drive.out)"
	exit 1
}

# Send it command number N and wait until it is done (from a subshell too).
# With DRIVE_WAIT set, sleep that many seconds before looking (a timed
# command: the polling would take CPU time from it).
drive_send() { # n command...
	local n=$1 i
	shift
	running "$DPID" || drive_gone "$*"
	# A fifo whose reader died would block the writer
	timeout 60 bash -c 'echo "$1" >/tmp/drive.in' - "$*" || drive_gone "$*"
	[ -z "${DRIVE_WAIT:-}" ] || sleep "$DRIVE_WAIT"
	for i in $(seq 3000); do
		grep -q "^done $n " /tmp/drive.out && return 0
		running "$DPID" || drive_gone "$*"
		sleep 0.02
	done
	echo "  no 'done $n' in 60 s: $(tail -n 3 /tmp/drive.out)"
	exit 1
}

# Send it the next command (not from a subshell: this counts them).
drive() { # command...
	DONE=$((DONE + 1))
	drive_send "$DONE" "$@"
}

# Let it exit; it must exit 0 (no signal).
drive_end() {
	local rc=0
	echo exit >/tmp/drive.in
	wait "$DPID" || rc=$?
	expect_eq "exit status of $DPID" 0 "$rc"
	rm -f /tmp/drive.in "/tmp/perf-$DPID.map"
}

# The last sum line it printed.
drive_sum() {
	grep '^sum ' /tmp/drive.out | tail -n 1
}

# tests/jit.c.  The bytes of its function, as hex.
JIT_CODE=554889e58d047f83c0015dc3

# Start it with args; sets JPID and JFN (the address of its function).
jit_start() { # jit-args...
	drive_start "$TBIN/jit" "$@"
	JPID=$DPID
	JFN=$(sed -n 's/^fn //p' /tmp/drive.out | tail -n 1)
}

# Send it the next command; JFN follows the function if it moves.
jit_do() { # command...
	drive "$@"
	JFN=$(sed -n 's/^fn //p' /tmp/drive.out | tail -n 1)
}

# JBYTES: the N (12) bytes at VADDR as the JIT process itself reads them,
# as hex: what it runs (/proc/PID/mem shows a debugger the instructions
# under the breakpoints of uprobes in JIT code).
jit_peek() { # vaddr [n]
	jit_do peek "$@"
	JBYTES=$(sed -n 's/^peek //p' /tmp/drive.out | tail -n 1)
}

# Call its function N times; the sum must be 3 * i + 1 summed over i < N.
jit_call() { # n
	jit_do call "$1"
	expect_eq "JIT sum" "sum $((3 * $1 * ($1 - 1) / 2 + $1)) calls $1" \
		"$(drive_sum)"
}

# tests/nodework.js under node, with its JIT symbols in /tmp/perf-PID.map.
node_start() {
	drive_start node --perf-basic-prof --allow-natives-syntax --expose-gc \
		"$TESTS/nodework.js"
}

# ---- the sample module (samples/uprobes/uprobe_example.ko) ----------------

# Load it on pid/vaddr; its status is insmod's.  Sets KMARK.
sample_load() { # pid vaddr [param=value...]
	KMARK=$(klog_mark)
	insmod "$SAMPLE_KO" pid="$1" vaddr="$2" "${@:3}"
}

# Unload it and print the hit count it logged.
sample_hits() {
	rmmod uprobe_example
	klog_since "$KMARK" | sed -n 's/^Probepoint was hit \([0-9]*\) times$/\1/p'
}

# The errno pid_uprobe_register() returned, from the log of a failed load.
sample_error() {
	klog_since "$KMARK" | sed -n 's/^pid_uprobe_register() failed, returned \(-[0-9]*\)$/\1/p'
}

# Run the target with args, to the end, with the sample probing a symbol of
# its binary (or of FILE, with sym=FILE:SYMBOL); print "HITS CHECKSUM-LINE".
probed_run() { # binary symbol target-args...
	local bin=$1 sym=$2 file=$1 out=/tmp/probed_run.out va
	shift 2
	case $sym in *:*) file=${sym%%:*}; sym=${sym#*:} ;; esac
	target_start "$out" "$bin" "$@"
	va=$(sym_vaddr "$TPID" "$file" "$sym")
	sample_load "$TPID" "$va"
	target_go "$TPID"
	wait "$TPID"
	echo "$(sample_hits) $(grep '^checksum' "$out")"
}

# The checksum line of an unprobed run.
plain_run() { # binary target-args...
	local out=/tmp/plain_run.out
	target_start "$out" "$@"
	target_go "$TPID"
	wait "$TPID"
	grep '^checksum' "$out"
}

# ---- tracefs, from the tracing directory (as ftracetest runs .tc files) ---

# 0x-prefixed, 16 hex digits, as uprobe_events shows addresses.
hex16() { printf '0x%016x' "$1"; }

# An event's hits in uprobe_profile (the tracing directory's, or the file
# given).
uprobe_hits() { # event [uprobe_profile]
	awk -v e="$1" '$2 == e { print $3 }' "${2:-uprobe_profile}"
}

# The number of trace lines of an event.
trace_count() { # event
	grep -c " $1: (" trace || true
}

# Like ftracetest's check_error for uprobe_events, and the message must be
# the expected one too.
check_pid_error() { # command-with-^ message
	ftrace_errlog_check trace_uprobe "$1" uprobe_events
	grep -q "trace_uprobe: error: $2\$" error_log ||
		{ echo "error_log lacks '$2':"; cat error_log; return 1; }
}

# The thread groups (from the record-tgid column) of an event's trace lines,
# one a line; needs options/record-tgid set before the events were hit.
trace_tgids() { # event
	grep " $1: (" trace | sed -n 's/^.*( *\([0-9]*\)) \[[0-9]*\].*$/\1/p' | sort -u
}

# ---- perf -------------------------------------------------------------------

# Start a bash that waits for a line on a fifo, then runs echo N times
# (once to /dev/null, so one write(2) each); sets BPID.  Bash from the
# distribution: nobody here wrote it.
bash_echo_start() { # fifo n
	local words
	rm -f "$1"
	mkfifo "$1"
	words=$(seq "$2" | tr '\n' ' ')
	bash -c "read go <'$1'; for i in $words; do echo \$i >/dev/null; done" &
	BPID=$!
}

# perf probe with the arguments must fail, say the message (a grep -e
# pattern) and leave no uprobe event; its output is shown.
probe_refused() { # expected-message perf-probe-args...
	local want=$1 rc=0
	shift
	perf probe "$@" >/tmp/refused.out 2>&1 || rc=$?
	cat /tmp/refused.out
	[ $rc != 0 ] || { echo "perf probe $*: succeeded"; exit 1; }
	grep -qe "$want" /tmp/refused.out || { echo "perf probe $*: no '$want'"; exit 1; }
	expect_eq "uprobe_events after perf probe $*" "" "$(cat $TRACING/uprobe_events)"
}

# perf record -a the given events while a command runs; data in $1.
perf_record_during() { # data events-csv command...
	local data=$1 evs=$2 e args=()
	shift 2
	for e in ${evs//,/ }; do args+=(-e "$e"); done
	perf record -q -o "$data" "${args[@]}" -a -- "$@" >/dev/null 2>&1
}

# How many samples of an event perf script shows, all from pid $3 if given.
perf_count() { # data event [pid]
	perf script -i "$1" -F pid,event 2>/dev/null |
		awk -v e="$2:" -v p="${3:-}" '$2 == e && (p == "" || $1 == p) { n++ } END { print n + 0 }'
}

# ---- make bench -------------------------------------------------------------

# The median of the numbers on stdin, one a line (the mean of the middle
# two for an even count); nothing for no numbers.
median() {
	sort -g | awk -v OFMT=%.10g '{ v[NR] = $1 }
		END { if (NR) print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# The figures of two names in the raw file $RAW (tests/bench/guest's
# "value" lines) side by side, a line a round: as many as the shorter has.
# (No <(...) here: the guest has no /dev/fd.)
value_pairs() { # name name
	awk -v a="$1" -v b="$2" '$1 == "value" && $2 == a { x[++na] = $3 }
		$1 == "value" && $2 == b { y[++nb] = $3 }
		END { for (i = 1; i <= na && i <= nb; i++) print x[i], y[i] }' "$RAW"
}

# The ratio of two configurations within each round (their repetitions
# pair up in order): "median q1 q3".
paired_stats() { # name name
	value_pairs "$1" "$2" | awk '{ print $1 / $2 }' | sort -g |
		awk '{ v[NR] = $1 } END {
			printf "%.3f %.3f %.3f\n", v[int(NR / 2) + 1],
				v[int(NR / 4) + 1], v[int(3 * NR / 4) + 1] }'
}

# A target on a paired ratio, from its "median q1 q3": met when the
# quartile on the limit's far side meets the limit (the upper one for <
# and <=, the lower for >=), missed when the other quartile fails it, and
# undecided when the limit lies between them.
decide() { # "median q1 q3" <|<=|>= limit
	awk -v op="$2" -v l="$3" '
		function ok(x) { return op == "<" ? x < l : op == ">=" ? x >= l : x <= l }
		{
			far = op == ">=" ? $2 : $3
			near = op == ">=" ? $3 : $2
			if (ok(far)) print "met"
			else if (!ok(near)) print "missed"
			else print "undecided"
		}' <<<"$1"
}

# Whether a target, "A B OP LIMIT", is undecided on the figures of $RAW so
# far; several targets: whether any is.
any_undecided() { # "a b op limit"...
	local t a b op limit
	for t in "$@"; do
		read -r a b op limit <<<"$t"
		[ "$(decide "$(paired_stats "$a" "$b")" "$op" "$limit")" != undecided ] ||
			return 0
	done
	return 1
}

# ---- make bench's section 8, "cost when unused" (tests/bench/unused) ----

# Its loops (bench.c modes), in order; a loop's tag for the instruction
# counting plugin (tests/bench/insns.c) is its place in the list, from 1.
UNUSED_WORK=(fork spawn maplib fault threads)

unused_tag() { # loop
	local i
	for i in "${!UNUSED_WORK[@]}"; do
		[ "${UNUSED_WORK[i]}" != "$1" ] || {
			echo $((i + 1))
			return
		}
	done
	return 1
}

# ---- seeded fuzzing: set RANDOM=SEED first; no $(...) around these, as a
# subshell would take its own random numbers ---------------------------------

# Set REPLY to one of the arguments, at random.
pick() {
	local a=("$@")
	REPLY=${a[RANDOM % $#]}
}

# Set REPLY to N random printable characters without blanks.
garbage() { # n
	local chars='abcxyz019:%@$+-_/()[]{}=.,;*&^!~"<>|?#' i s=
	for ((i = 0; i < $1; i++)); do
		s+=${chars:RANDOM % ${#chars}:1}
	done
	REPLY=$s
}

# Set REPLY to an element of the first array, or one time in four of the
# second; @I@ in it becomes the line's number.
choose() { # good-array bad-array i
	local -n good=$1 bad=$2
	if ((RANDOM % 4)); then
		REPLY=${good[RANDOM % ${#good[@]}]}
	else
		REPLY=${bad[RANDOM % ${#bad[@]}]}
	fi
	REPLY=${REPLY//@I@/$3}
}
