#!/bin/bash
# A seeded fuzzer of `perf probe -p PID SPEC [ARG]`, with an oracle:
# FUZZ_RUNS (100) runs with good and bad pids, function names, DSOs,
# offsets, lines, lazy patterns, addresses, suffixes and arguments, on
# tests/target and on libuser, whose lib_step() of libprobed.so is inlined
# at two addresses.
#
# Every part knows whether it is good, and a bad part what the refusal must
# name (a pattern); a good spec also knows which process has it.  So every
# run knows whether perf must add events, or fail with a message naming one
# of the problems the run holds.  perf must never die of a signal.  Added
# events must be in the process named, where `perf probe -x FILE -D SPEC`
# puts the spec, one per address, and where nm puts it: the symbol's
# address plus the offset for a spec placed once, inside some function of
# the file for every place.  A refusal leaves uprobe_events as it was.
# The seed differs per run and is printed: FUZZ_SEED=N replays run N.
# Runs stop early once FUZZ_SECONDS (two thirds of guest-suite's limit
# for a test, TEST_TIMEOUT) have gone: a run on libc reads its debug info,
# and on a loaded machine 100 of them may not fit.  The report says how
# many ran.
set -eu
. "$(dirname "$0")/../lib.sh"
require_perf_pid

SEED=${FUZZ_SEED:-$((($(date +%s) ^ $$) % 1000000))}
COUNT=${FUZZ_RUNS:-100}
BUDGET=${FUZZ_SECONDS:-$((${TEST_TIMEOUT:-300} * 2 / 3))}
bin=$TBIN/target
RANDOM=$SEED
# what perf says when a good spec is not in the process named
ELSEWHERE="not found|Failed to find symbol|no DSO matches|is not in an executable file mapping"

# Parts are "VALUE~PATTERN": PATTERN (grep -E) is what the refusal of a bad
# part must say, or for a good spec the processes that have it: T for
# tests/target, L for libuser.  A bad spec that names a function of one
# of them says so as "VALUE~PATTERN~T": in the other process, that the
# function is not there names a problem too.  With an empty spec, perf
# takes the first argument for the probe point.
parts() {
	local long entry
	long=$(printf 'f%.0s' $(seq 300))
	entry=$(sym_vaddr "$OWN" "$bin" probed_work)
	SPEC_OK=("probed_work~T" "probed_mix~T" "probed_call~T" "probed_work+4~T"
		"probed_work@target~T" "probed_work@$bin~T" "write@libc~TL"
		"getppid@libc.so.6~TL" "probed_work%return~T" "$entry~T"
		"probed_work:10~T" "probed_work+~T" "probed_work@~T"
		"lib_step@libprobed~L" "lib_probed@libprobed~L"
		"lib_even@libprobed.so~L" "lib_even@libprobed%return~L")
	SPEC_BAD=("nosuchfunc~nosuchfunc.* not found|symbol nosuchfunc "
		"~Command Parse Error|SDT event|Probe point '[^']*' not found|is not supported|Failed to find symbol"
		"+4~Offset requires an entry function"
		"probed_work+zz~non-digit character in offset"
		"@target~File always requires line number"
		"probed_work@nosuchdso~no DSO matches \"nosuchdso\"~T"
		"probed_work@/tmp~no DSO matches \"/tmp\"~T"
		"0x~Invalid absolute address" "0xzz~Invalid absolute address"
		"0x1000~0x1000 is not in an executable file mapping"
		"0xffffffff81000000~0xffffffff81000000 is not in an executable file mapping"
		"$long~Probe point 'f+' not found|symbol f+ "
		"probed_work+-1~Offset -1 ~T" "probed_work+999999~Offset 999999 ~T"
		"write@libc@libc~SRC@SRC is not allowed"
		"probed_work%ret~%ret is not supported~T"
		";~A probe point needs a function" ";x~A probe point needs a function"
		":10~A probe point needs a function"
		"$entry@target~an address takes no @DSO"
		"probed_work@$long~no DSO matches~T"
		"lib_step@libprobed%return~symbol lib_step ~L")
	PID_OK=("$OWN~T" "$LIBUSER~L")
	PID_BAD=("0~no process with pid 0" "-1~no process with pid -1"
		"999999~no process with pid 999999" "abc~-p takes a process ID, not \"abc\""
		"~-p takes a process ID, not \"\"" "2~pid 2"
		"$GONE~no process with pid $GONE"
		"99999999999~-p takes a process ID, not \"99999999999\"")
	ARG_OK=(%di x=%ax:u64 '$comm')
	ARG_BAD=("%zz~refused it: Invalid register name"
		"x=~refused it: No argument expression"
		"+0(%sp~refused it: Dereference brace is not closed"
		'$nosuch~refused it: Invalid \$-variable specified')
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

# Choose a part and split it: PART, and PAT (its pattern) if it is bad,
# or WHERE (the processes that have it) if it is a good spec or pid.
choose_part() { # good-array bad-array i
	local -n good=$1
	local g
	choose "$@"
	IFS='~' read -r PART PAT WHERE <<<"$REPLY"
	for g in "${good[@]}"; do
		[ "$g" != "$REPLY" ] || { WHERE=$PAT PAT=; break; }
	done
}

# One run; sets ARGS (for the report), PID, SPEC and WANT (the patterns
# one of which the refusal must match; empty: perf must add events);
# returns perf's status.
run_one() { # i
	local a=() rc=0 pidwhere specwhere
	WANT=()
	choose_part PID_OK PID_BAD "$1"
	a+=(-p "$PART")
	PID=$PART pidwhere=$WHERE
	[ -z "$PAT" ] || WANT+=("$PAT")
	choose_part SPEC_OK SPEC_BAD "$1"
	a+=("$PART")
	SPEC=$PART specwhere=$WHERE
	[ -z "$PAT" ] || WANT+=("$PAT")
	if [ -n "$pidwhere" ] && [ -n "$specwhere" ] && [[ $specwhere != *$pidwhere* ]]; then
		WANT+=("$ELSEWHERE")
	fi
	if ((RANDOM % 3 == 0)); then
		choose_part ARG_OK ARG_BAD "$1"
		a+=("$PART")
		[ -z "$PAT" ] || WANT+=("$PAT")
	fi
	ARGS="${a[*]}"
	# perf exits with 256 - errno, so a status of 128 + N does not mean
	# signal N: perl tells the two apart, writing the signal to a file
	perl -e 'system @ARGV; open my $f, ">", "/tmp/fuzzp.sig";
		print $f $? & 127; exit($? >> 8)' \
		perf probe "${a[@]}" >/tmp/fuzzp.stdout 2>/tmp/fuzzp.stderr || rc=$?
	return $rc
}

# The file mapped at an address of a process, and the address's offset in
# it: "FILE OFFSET".
vaddr_place() { # pid vaddr
	gawk -v a="$(($2))" '{ split($1, r, "-"); s = strtonum("0x" r[1]) }
		s <= a && a < strtonum("0x" r[2]) { print $6, a - s + strtonum("0x" $3); exit }' \
		"/proc/$1/maps"
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
x_places() { # pid file
	local rest spec=$SPEC off
	if [ "${spec:0:2}" = 0x ]; then
		echo "$1 $(hex16 "$spec")"
		return
	fi
	case $spec in *@*)
		rest=${spec#*@}
		spec=${spec%%@*}${rest#"${rest%%[+%]*}"} ;;
	esac
	perf probe -x "$2" -D "$spec" 2>/dev/null |
		sed -n 's/^[pr]:[^ ]* [^ ]*:\(0x[0-9a-f]*\)$/\1/p' |
		while read -r off; do
			echo "$1 $(hex16 "$(offset_vaddr "$1" "$2" $((off)))")"
		done | sort
}

# nm's symbols with their sizes (dynamic and static) and readelf's
# PT_LOADs of a file, read once: SYMS[FILE], LOADS[FILE].
declare -A SYMS LOADS
file_tables() { # file
	[ -z "${LOADS[$1]:-}" ] || return 0
	SYMS[$1]=$({ nm -S --defined-only -D "$1"; nm -S --defined-only "$1"; } 2>/dev/null)
	LOADS[$1]=$(readelf -lW "$1" | awk '$1 == "LOAD"')
}

# The ELF address of a file offset, through the PT_LOAD that holds it.
offset_elf() { # file offset
	echo "${LOADS[$1]}" | gawk -v o="$2" '{
		off = strtonum($2); va = strtonum($3); sz = strtonum($5)
		if (o >= off && o < off + sz) { print o - off + va; exit } }'
}

# nm's word on the places of a run (PLACES, "PID 0xVADDR" lines): each is
# inside a function of its file; a spec placed once at FUNC[+OFF] is at
# nm's FUNC plus OFF.
nm_check() {
	local pid va file off elf func plus symoff n
	n=$(echo "$PLACES" | wc -l)
	while read -r pid va; do
		read -r file off <<<"$(vaddr_place "$pid" "$va")"
		file_tables "$file"
		elf=$(offset_elf "$file" "$off")
		echo "${SYMS[$file]}" | gawk -v a="$elf" 'NF == 4 && $3 ~ /^[tTwWi]$/ {
				s = strtonum("0x" $1); if (s <= a && a < s + strtonum("0x" $2)) f = 1 }
				END { exit !f }' ||
			bad "$file+$off is in no function nm knows"
		func=${SPEC%%[@+%:;]*} plus=0
		[[ $SPEC != *+* ]] || plus=${SPEC#*+} plus=${plus%%[%@]*}
		symoff=$(sym_offset "$file" "$func") || symoff=
		if [ "$n" = 1 ] && [ -n "$symoff" ] && [ "${SPEC:0:2}" != 0x ] &&
			[[ $SPEC != *:* ]]; then
			NMCHECKS=$((NMCHECKS + 1))
			[ "$off" = $((symoff + ${plus:-0})) ] ||
				bad "at $file+$off, nm puts $func at $symoff, +${plus:-0}"
		fi
	done <<<"$PLACES"
}

# A disagreement, shown at the end, after the counts.
bad() {
	BAD=$((BAD + 1))
	[ "$BAD" -le 10 ] || return 0
	BADLOG+=("  #$I perf probe ${ARGS:0:200}: $*" "$(sed 's/^/    /' /tmp/fuzzp.stderr | head -4)")
}

# The refusal names one of the problems the run holds.
names_problem() {
	local p
	for p in "${WANT[@]}"; do
		grep -qE -e "$p" /tmp/fuzzp.stderr && return 0
	done
	return 1
}

main() {
	local rc before after
	echo "fuzz perf probe -p: seed $SEED (FUZZ_SEED=$SEED replays this run)"
	setup
	ACCEPTED=0 REJECTED=0 BAD=0 MULTI=0 NMCHECKS=0
	MSGS=() BADLOG=()
	for ((I = 0; I < COUNT && SECONDS < BUDGET; I++)); do
		before=$(cat "$TRACING/uprobe_events")
		rc=0
		run_one "$I" || rc=$?
		after=$(cat "$TRACING/uprobe_events")
		if [ "$(cat /tmp/fuzzp.sig)" != 0 ]; then
			bad "killed by signal $(cat /tmp/fuzzp.sig)"
		elif [ "$rc" = 0 ]; then
			ACCEPTED=$((ACCEPTED + 1))
			[ ${#WANT[@]} = 0 ] || bad "succeeded, but the oracle wants a refusal: ${WANT[*]}"
			[ "$after" != "$before" ] || bad "succeeded, but added no event"
			PLACES=$(added_places "$before" "$after")
			local first file
			first=$(echo "$PLACES" | awk 'NR == 1 { print $2 }')
			file=$(vaddr_place "$PID" "$first")
			file=${file% *}
			[ "$PLACES" = "$(x_places "$PID" "$file")" ] ||
				bad "events at $(echo $PLACES), -x gives $(echo $(x_places "$PID" "$file"))"
			nm_check
			[ "$(echo "$PLACES" | wc -l)" = 1 ] || MULTI=$((MULTI + 1))
			perf probe -q -d 'probe:*'
			[ -z "$(cat "$TRACING/uprobe_events")" ] || bad "events left after -d"
		else
			REJECTED=$((REJECTED + 1))
			[ "$after" = "$before" ] || bad "failed, but uprobe_events changed"
			if [ ${#WANT[@]} = 0 ]; then
				bad "failed, but the oracle wants events"
			elif ! names_problem; then
				bad "the refusal names none of: ${WANT[*]}"
			fi
			MSGS+=("$(grep -m1 '[[:alnum:]]' /tmp/fuzzp.stderr | cut -c1-70)")
		fi
	done
	target_finish "$OWN" /tmp/fuzzp.out
	kill -USR1 "$LIBUSER"
	wait_line /tmp/fuzzl.out '^checksum'
	kill -USR1 "$LIBUSER"
	wait "$LIBUSER"
	echo "fuzz perf probe -p: $I of $COUNT runs in ${SECONDS}s:" \
		"$ACCEPTED added events ($MULTI at several addresses, $NMCHECKS placed by nm too)," \
		"$REJECTED refused naming the problem; $BAD disagreements with the oracle"
	printf '%s\n' "${MSGS[@]}" | sort | uniq -c | sort -rn | sed 's/^/  /'
	[ "$BAD" = 0 ] || printf '%s\n' "${BADLOG[@]}"
	expect_eq "disagreements with the oracle" 0 "$BAD"
}

main "$@"
