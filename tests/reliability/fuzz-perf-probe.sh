#!/bin/bash
# A seeded fuzzer of `perf probe -p PID SPEC [ARG]`: FUZZ_RUNS (100) runs
# with good and bad pids, function names, DSOs, offsets, addresses, suffixes
# and arguments, on tests/target and on libuser, whose lib_step() of
# libprobed.so is inlined at two addresses.  Every run must exit normally
# (no signal), and either add events where -x puts the same spec, one per
# address, in the process named (then they are deleted), or print an
# error and leave uprobe_events as it was.  FUZZ_SEED (1) makes a run
# reproducible.
set -eu
. "$(dirname "$0")/../lib.sh"

SEED=${FUZZ_SEED:-1}
COUNT=${FUZZ_RUNS:-100}
bin=$TBIN/target
RANDOM=$SEED

parts() {
	local long entry
	long=$(printf 'f%.0s' $(seq 300))
	entry=$(sym_vaddr "$OWN" "$bin" probed_work)
	SPEC_OK=(probed_work probed_mix probed_call probed_work+4
		probed_work@target "probed_work@$bin" write@libc getppid@libc.so.6
		probed_work%return "$entry" lib_step@libprobed lib_probed@libprobed
		lib_step@libprobed%return lib_even@libprobed.so)
	SPEC_BAD=(nosuchfunc "" +4 probed_work+ probed_work+zz probed_work@
		@target probed_work@nosuchdso probed_work@/tmp 0x 0xzz 0x1000
		0xffffffff81000000 "$long" probed_work:10 probed_work+-1
		probed_work+999999 write@libc@libc probed_work%ret ";"
		"$entry@target" "probed_work@$long")
	PID_OK=("$OWN" "$LIBUSER")
	PID_BAD=(0 -1 999999 abc "" 2 "$GONE" 99999999999)
	ARG_OK=(%di x=%ax:u64 "\$comm")
	ARG_BAD=(%zz "x=" "+0(%sp" "\$nosuch")
}

setup() {
	target_start /tmp/fuzzp.out "$bin" -n 1 -k
	OWN=$TPID
	target_start /tmp/fuzzl.out "$TBIN/libuser" 1
	LIBUSER=$TPID
	"$bin" -g -n 1 >/dev/null &
	GONE=$!
	wait "$GONE"
	parts
}

# One run; sets ARGS (for the report) and returns perf's status.
run_one() { # i
	local a=() rc=0
	choose PID_OK PID_BAD "$1"
	a+=(-p "$REPLY")
	PID=$REPLY
	choose SPEC_OK SPEC_BAD "$1"
	a+=("$REPLY")
	SPEC=$REPLY
	if ((RANDOM % 3 == 0)); then
		choose ARG_OK ARG_BAD "$1"
		a+=("$REPLY")
	fi
	ARGS="${a[*]}"
	# perf exits with 256 - errno, so a status of 128 + N does not mean
	# signal N: perl tells the two apart, writing the signal to a file
	perl -e 'system @ARGV; open my $f, ">", "/tmp/fuzzp.sig";
		print $f $? & 127; exit($? >> 8)' \
		perf probe "${a[@]}" >/tmp/fuzzp.stdout 2>/tmp/fuzzp.stderr || rc=$?
	return $rc
}

# The file mapped at an address of a process.
vaddr_file() { # pid vaddr
	gawk -v a="$(($2))" '{ split($1, r, "-") }
		strtonum("0x" r[1]) <= a && a < strtonum("0x" r[2]) { print $6; exit }' "/proc/$1/maps"
}

# Where the events a run added are: "PID 0xVADDR" lines, sorted.
added_places() { # before after
	echo "$1" >/tmp/fuzzp.before
	echo "$2" | grep -vxF -f /tmp/fuzzp.before |
		sed -n 's/^[pr]:[^ ]* \([0-9]*\):\(0x[0-9a-f]*\)\( .*\)\{0,1\}$/\1 \2/p' | sort
}

# Where -x puts the spec of a run (SPEC) in the file mapped at the first
# added event's address, as "PID 0xVADDR" lines, sorted; a 0xVADDR spec
# is its own place.
x_places() { # pid first-vaddr
	local file rest spec=$SPEC off
	if [ "${spec:0:2}" = 0x ]; then
		echo "$1 $(hex16 "$spec")"
		return
	fi
	file=$(vaddr_file "$1" "$2")
	case $spec in *@*)
		rest=${spec#*@}
		spec=${spec%%@*}${rest#"${rest%%[+%]*}"} ;;
	esac
	perf probe -x "$file" -D "$spec" 2>/dev/null |
		sed -n 's/^[pr]:[^ ]* [^ ]*:\(0x[0-9a-f]*\)$/\1/p' |
		while read -r off; do
			echo "$1 $(hex16 "$(offset_vaddr "$1" "$file" $((off)))")"
		done | sort
}

bad() {
	BAD=$((BAD + 1))
	echo "  #$I perf probe ${ARGS:0:200}: $*"
	sed 's/^/    /' /tmp/fuzzp.stderr | head -5
}

main() {
	local rc before after got want
	setup
	ACCEPTED=0 REJECTED=0 BAD=0 MULTI=0
	MSGS=()
	for ((I = 0; I < COUNT; I++)); do
		before=$(cat "$TRACING/uprobe_events")
		rc=0
		run_one "$I" || rc=$?
		after=$(cat "$TRACING/uprobe_events")
		if [ "$(cat /tmp/fuzzp.sig)" != 0 ]; then
			bad "killed by signal $(cat /tmp/fuzzp.sig)"
		elif [ "$rc" = 0 ]; then
			ACCEPTED=$((ACCEPTED + 1))
			[ "$after" != "$before" ] || bad "succeeded, but added no event"
			got=$(added_places "$before" "$after")
			want=$(x_places "$PID" "$(echo "$got" | awk 'NR == 1 { print $2 }')")
			[ "$got" = "$want" ] ||
				bad "events at $(echo $got), -x gives $(echo $want)"
			[ "$(echo "$got" | wc -l)" = 1 ] || MULTI=$((MULTI + 1))
			perf probe -q -d 'probe:*'
			[ -z "$(cat "$TRACING/uprobe_events")" ] || bad "events left after -d"
		else
			REJECTED=$((REJECTED + 1))
			[ "$after" = "$before" ] || bad "failed, but uprobe_events changed"
			grep -q '[[:alnum:]]' /tmp/fuzzp.stderr || bad "failed without a message"
			MSGS+=("$(grep -m1 '[[:alnum:]]' /tmp/fuzzp.stderr | cut -c1-70)")
		fi
	done
	target_finish "$OWN" /tmp/fuzzp.out
	kill -USR1 "$LIBUSER"
	wait_line /tmp/fuzzl.out '^checksum'
	kill -USR1 "$LIBUSER"
	wait "$LIBUSER"
	echo "fuzz perf probe -p: seed $SEED, $COUNT runs in ${SECONDS}s:" \
		"$ACCEPTED added events ($MULTI at several addresses), $REJECTED refused with a message," \
		"$BAD inconsistencies"
	printf '%s\n' "${MSGS[@]}" | sort | uniq -c | sort -rn | sed 's/^/  /'
	expect_eq "inconsistencies" 0 "$BAD"
}

main "$@"
