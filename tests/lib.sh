# Shared helpers for the test scripts (host and guest).  Source it.
# shellcheck shell=bash

TESTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$TESTS/../vm/lib.sh"
TBIN=$B/tests
# The kernel's uprobe selftests (test.d/uprobe), with their programs as
# kselftest installs them (tests/Makefile), and the helpers they share
# with the project's tests.
KSFT_SRC=$SRC/tools/testing/selftests/ftrace
UBIN=$KB/kselftest/ftrace
. "$KSFT_SRC/test.d/uprobe/functions"
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

# Where a file offset of a file is in a process's private writable
# mappings of it, one address a line, as 0x-hex.
offset_data_vaddrs() { # pid file offset
	offset_vaddrs "$1" "$2" "$3" '^rw-p'
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

# ---- what the kernel's and perf's series have ------------------------------

# Each series exists for 6.1; the 6.12 port goes series by series.  A test
# of a part the kernel under test has no series for yet skips, naming it.
has_jit_series() { [ -f "$KSFT_SRC/test.d/uprobe/pid_jit.tc" ]; }
require_jit_series() {
	has_jit_series || skip_test "no JIT series (kernel-patches/jit) for $KERNEL yet"
}
# What a PID:VADDR outside what can be probed gets: the JIT series lets
# private anonymous executable memory be probed too.
no_exec_error() {
	if has_jit_series; then
		echo "Address is not in executable private memory"
	else
		echo "Address is not in an executable file mapping"
	fi
}
perf_has_pid() { perf probe -h 2>&1 | grep -q -- '--pid'; }
require_perf_pid() {
	perf_has_pid || skip_test "no perf probe -p: no perf series for $KERNEL yet"
}

# ---- programs driven through a fifo (drive_start) --------------------------

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

# ---- perf -------------------------------------------------------------------

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

# Numbers on stdin, one a line: "median q1 q3".
quartiles() {
	sort -g | awk '{ v[NR] = $1 } END {
		printf "%.3f %.3f %.3f\n", v[int(NR / 2) + 1],
			v[int(NR / 4) + 1], v[int(3 * NR / 4) + 1] }'
}

# The ratio of two configurations within each round (their repetitions
# pair up in order): "median q1 q3".
paired_stats() { # name name
	value_pairs "$1" "$2" | awk '{ print $1 / $2 }' | quartiles
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
