#!/bin/bash
# A seeded fuzzer of uprobe_events, with an oracle.  FUZZ_LINES (1500)
# definitions are made of parts, good and bad: pids of our own target,
# another target and init, of an exited process and a kernel thread, and
# malformed ones; addresses at instruction boundaries, in data, read-only
# data, stack and anonymous memory, unmapped, in the kernel, overflowing and
# malformed, with good and bad suffixes and counters; event names and fetch
# arguments good and bad; random bytes; lines too long to parse.
#
# Every part knows what the kernel must make of it, so every line knows
# whether it must be accepted (and the exact listing line it adds), or which
# error_log message and caret position its refusal leaves, naming the
# line; a refusal changes nothing.  The run fails on any disagreement.
#
# Then a share of the accepted definitions (FUZZ_ENABLE, 24) is enabled while
# our target works: each enable succeeds; every process that maps a probed
# file is read, and has a breakpoint exactly where an enabled event of its
# own names; the target's events count its calls exactly, the others none;
# after disabling every byte is back and every target's result is that of
# an unprobed run.  The seed differs per run and is printed: FUZZ_SEED=N
# replays run N.
set -eu
shopt -s extglob
. "$(dirname "$0")/../lib.sh"

SEED=${FUZZ_SEED:-$((($(date +%s) ^ $$) % 1000000))}
COUNT=${FUZZ_LINES:-1500}
NENABLE=${FUZZ_ENABLE:-24}
CALLS=40
bin=$TBIN/target
RANDOM=$SEED
E_BADNAME="Event name must follow the same rules as C identifiers"
INT_MAX=2147483647

# ---- the processes and places the definitions name -------------------------

# The distance from a function's entry to its second instruction.
second_insn() { # file symbol
	local val
	val=$(sym_value "$1" "$2")
	objdump -d --start-address=0x"$val" --stop-address=$((16#$val + 32)) "$1" |
		gawk '/^ *[0-9a-f]+:\t/ { a[n++] = strtonum("0x" $1) } END { print a[1] - a[0] }'
}

# The ranges (decimal "start end" words) a breakpoint may go into: private,
# executable, not writable file mappings.
exec_ranges() { # pid
	gawk '$2 ~ /^[r-]-xp$/ && $6 ~ /^\// {
		split($1, r, "-"); printf "%d %d ", strtonum("0x" r[1]), strtonum("0x" r[2]) }' \
		"/proc/$1/maps"
}

setup() {
	local p
	target_start /tmp/fuzz-own.out "$bin" -n $CALLS -k
	OWN=$TPID
	target_start /tmp/fuzz-other.out "$bin" -n $CALLS -k
	OTHER=$TPID
	target_start /tmp/fuzz-byst.out "$bin" -n $CALLS -k
	BYST=$TPID
	"$bin" -g -n 1 >/dev/null &
	GONE=$!
	wait "$GONE"
	BASH_BIN=$(readlink -f /proc/1/exe)
	WORK_OFF=$(sym_offset "$bin" probed_work)
	WORK2_OFF=$((WORK_OFF + $(second_insn "$bin" probed_work)))
	ECHO_OFF=$(sym_offset "$BASH_BIN" echo_builtin)
	ECHO2_OFF=$((ECHO_OFF + $(second_insn "$BASH_BIN" echo_builtin)))
	# Every place an event may name, as a file and an offset
	PLACES=("$bin $WORK_OFF" "$bin $WORK2_OFF" "$BASH_BIN $ECHO_OFF" "$BASH_BIN $ECHO2_OFF")
	declare -gA E1 E2 XR ORIG USER_PROC
	for p in "$OWN" "$OTHER"; do
		E1[$p]=$(offset_vaddr "$p" "$bin" "$WORK_OFF")
		E2[$p]=$(offset_vaddr "$p" "$bin" "$WORK2_OFF")
	done
	E1[1]=$(offset_vaddr 1 "$BASH_BIN" "$ECHO_OFF")
	E2[1]=$(offset_vaddr 1 "$BASH_BIN" "$ECHO2_OFF")
	for p in "$OWN" "$OTHER" 1; do
		XR[$p]=$(exec_ranges "$p")
	done
	ORIG[$bin $WORK_OFF]=$(file_bytes "$bin" "$WORK_OFF" 1)
	ORIG[$bin $WORK2_OFF]=$(file_bytes "$bin" "$WORK2_OFF" 1)
	ORIG[$BASH_BIN $ECHO_OFF]=$(file_bytes "$BASH_BIN" "$ECHO_OFF" 1)
	ORIG[$BASH_BIN $ECHO2_OFF]=$(file_bytes "$BASH_BIN" "$ECHO2_OFF" 1)
	REF=$("$bin" -g -n $CALLS | grep '^checksum')
	parts
}

# The parts lines are made of.  @E@ is the entry of the chosen process's
# probed_work (echo_builtin for init's bash), @E2@ its second instruction,
# @I@ the line's number.  A bad part carries "|MESSAGE|CARET" where its
# error does not depend on the rest of the line: the caret counts from the
# start of the part's word; the oracle works out the others.
parts() {
	local long own=$OWN data stack anon rodata
	long=$(printf 'n%.0s' $(seq 80))
	data=$(scale_vaddr "$OWN" "$bin")
	stack=$(stack_vaddr "$OWN")
	anon=0x$(awk '$6 == "" { split($1, r, "-"); print r[1]; exit }' "/proc/$OWN/maps")
	rodata=0x$(awk -v f="$bin" '$6 == f && $2 ~ /^r--/ { split($1, r, "-"); print r[1]; exit }' \
		"/proc/$OWN/maps")
	LONGARG=$(printf 'x%.0s' $(seq 4200))
	NAME_OK=("" ":f@I@" ":fz/f@I@" ":fy.f@I@" ":dup" ":g/")
	NAME_BAD=(":1bad|$E_BADNAME|2" ":a-b|$E_BADNAME|2" ":a/b/c|$E_BADNAME|4"
		":$long|Event name is too long|2" ":/e|Group name is not specified|2"
		":$long/e|Group name is too long|2" ":|Event name is not specified|2"
		":fz/f@I@:x|$E_BADNAME|5")
	PID_OK=("$own" "$own" "$own" "$OTHER" 1 "+$own")
	PID_BAD=("$GONE" 0 -1 -4096 2 4294967297 2147483648
		99999999999999999999999 abc "" "${own}x" "$(printf '0x%x' "$own")")
	# 6.12 takes a bare name for a BTF argument, which uprobes have not
	BARE_ARG_ERROR="Invalid fetch argument"
	[ "$KERNEL" = 6.1 ] || BARE_ARG_ERROR="BTF is not available or not supported"
	ADDR_OK=(@E@ @E@ @E2@ "@E@%return")
	ADDR_BAD=("$data" "$stack" "$anon" "$rodata" 0x1000 0 0xffffffff81000000
		0x1ffffffffffffffff 0x 0xzz "" -0x10 "@E@%ret" "@E@:@E@" "@E@(1)"
		"@E@(2" "@E@(4)x" "@E@(zz)" "@E@(0x4)" "@E@%return(0x10)")
	ARG_OK=(%ip %ax @0x10:u64 "+0(%sp):u64" '$comm' x=%di:u32 @+0:u64
		%ax:x8 "+0(+0(%sp)):u64" "@$data:u64" "s=+0(%sp):string"
		'$stack' '$stack99999' '\123' 'c=\"abc"' "-8(%sp):s16")
	ARG_BAD=("%zz|Invalid register name|0" '$retval'
		"arg1|$BARE_ARG_ERROR|0" "y=%di:u33|Unknown type is specified|6"
		"x=|No argument expression|2" "=%ax|Argument name is not specified|0"
		"+0(%sp|Dereference brace is not closed|6"
		"+0(%di):strin|Unknown type is specified|8"
		"@sym:u64|Symbol is not available with uprobe|0"
		'$nosuch|Invalid $-variable specified|0'
		"%ax:string|String accepts only memory argument|4"
		'$comm:u8|$comm and immediate-string only accepts string type|6'
		'c=\"x":s32|$comm and immediate-string only accepts string type|7')
}

# ---- the oracle -------------------------------------------------------------

# Whether a word is a number kstrtoul() takes (base 0) and fits 64 bits.
is_ulong() { # word
	local d
	if [[ $1 =~ ^0[xX]([0-9a-fA-F]+)$ ]]; then
		d=${BASH_REMATCH[1]##+(0)}
		[ ${#d} -le 16 ]
	elif [[ $1 =~ ^0[0-7]*$ ]]; then
		[ ${#1} -le 22 ]
	elif [[ $1 =~ ^[1-9][0-9]*$ ]]; then
		[ ${#1} -lt 20 ] || { [ ${#1} = 20 ] && [[ $1 < 18446744073709551616 ]]; }
	else
		return 1
	fi
}

# A pid as kstrtoint() reads it and the kernel checks it: sets PIDN, or
# returns 1 for no positive int.
pid_number() { # word
	local d=${1#+}
	[[ $d =~ ^[0-9]+$ ]] || return 1
	d=${d##+(0)}
	[ -n "$d" ] && [ ${#d} -le 10 ] && [ $((10#$d)) -le $INT_MAX ] || return 1
	PIDN=$((10#$d))
}

# Whether a process has user memory (not a kernel thread, not gone).
user_process() { # pid
	if [ -z "${USER_PROC[$1]:-}" ]; then
		USER_PROC[$1]=no
		! readlink "/proc/$1/exe" >/dev/null 2>&1 || USER_PROC[$1]=yes
	fi
	[ "${USER_PROC[$1]}" = yes ]
}

in_exec_range() { # pid vaddr
	local r=(${XR[$1]:-$(exec_ranges "$1")}) i
	for ((i = 0; i < ${#r[@]}; i += 2)); do
		(($2 >= ${r[i]} && $2 < ${r[i + 1]})) && return 0
	done
	return 1
}

# Note an error at a word of the line and an offset in it, unless an error
# the kernel finds earlier was noted.
want_err() { # word-index offset message
	local i pos=$2
	[ "$WANT" = ok ] || return 0
	for ((i = 0; i < $1; i++)); do
		pos=$((pos + ${#TOK[i]} + 1))
	done
	WANT="$3@$pos"
}

# The PID:ADDR word, in the kernel's order: pid syntax, counter, suffix,
# address syntax, the process, the mapping, the counter's mapping.  Sets
# PIDN, VADDR and IS_RET.
oracle_place() { # pid-word addr-word
	local a=$2 base=$((${#1} + 1)) ref= rest refpos
	if ! pid_number "$1"; then
		want_err 1 0 "Invalid process ID"
		return
	fi
	if [[ $a == *"("* ]]; then
		rest=${a#*\(}
		if [[ $rest != *")"* ]]; then
			want_err 1 $((base + ${#a})) "Reference counter brace is not closed"
			return
		elif [ -n "${rest#*)}" ]; then
			rest=${a%)*}
			want_err 1 $((base + ${#rest} + 1)) "Reference counter has wrong suffix"
			return
		fi
		a=${a%%\(*}
		ref=${rest%)}
		refpos=$((base + ${#a} + 1))
		if ! is_ulong "$ref"; then
			want_err 1 "$refpos" "Invalid reference counter offset"
			return
		elif (($ref & 1)); then
			want_err 1 "$refpos" "Reference counter is not aligned to 2 bytes"
			return
		fi
	fi
	if [[ $a == *%* ]]; then
		rest=${a%%\%*}
		if [ "${a#"$rest"}" != "%return" ]; then
			want_err 1 $((base + ${#rest})) "Invalid probed address suffix"
			return
		fi
		IS_RET=1
		a=$rest
	fi
	if ! is_ulong "$a"; then
		want_err 1 "$base" "Invalid uprobe address"
		return
	fi
	VADDR=$((a))
	if ! user_process "$PIDN"; then
		want_err 1 0 "No such user process"
	elif ! in_exec_range "$PIDN" "$a"; then
		want_err 1 "$base" "$(no_exec_error)"
	elif [ -n "$ref" ]; then
		# the counters made above are all below any mapping
		want_err 1 "$refpos" "Reference counter is not in a writable file mapping"
	fi
}

# The event's group and name: sets GROUP and EVENT.
oracle_name() { # name-part (after "p")
	local n=${1#:}
	GROUP=uprobes EVENT=
	if [ -z "$1" ]; then
		:
	elif [[ $n == */* ]]; then
		GROUP=${n%%/*} EVENT=${n#*/}
	elif [[ $n == *.* ]]; then
		GROUP=${n%%.*} EVENT=${n#*.}
	else
		EVENT=$n
	fi
	[ -n "$EVENT" ] || printf -v EVENT '%s_%d_0x%016x' "$TYPE" "$PIDN" "$VADDR"
}

# A fetch argument, the K-th: its name, then its body.  Sets ARGNAMES[K]
# and adds " NAME=BODY" to the expected listing line.
oracle_arg() { # k part-word message caret
	local k=$1 w=$2 name body=$2
	if [ "${w:0:1}" = "=" ]; then
		want_err $((k + 2)) 0 "Argument name is not specified"
		return
	fi
	name=arg$((k + 1))
	if [[ $w == *=* ]]; then
		name=${w%%=*} body=${w#*=}
	fi
	if [[ " ${ARGNAMES[*]} " == *" $name "* ]]; then
		want_err $((k + 2)) 0 "This argument name is already used"
		return
	fi
	ARGNAMES+=("$name")
	if [ "$w" = '$retval' ] && [ "$TYPE" = p ]; then
		want_err $((k + 2)) 0 '$retval is not available on probe'
	elif [ -n "$3" ]; then
		want_err $((k + 2)) "$4" "$3"
	fi
	WANT_ARGS+=" $name=$body"
}

# ---- the lines --------------------------------------------------------------

# Split a chosen part "VALUE[|MESSAGE|CARET]" into PART, PMSG and PCARET.
split_part() {
	IFS='|' read -r PART PMSG PCARET <<<"$REPLY"
}

# One definition line, of a class: def (built of parts, with the oracle's
# verdict in WANT and the listing line of an accepted one in WANT_LINE),
# noise (a command letter and random characters), long (more than the
# parser takes).
gen_line() { # i
	local i=$1 cmd name namemsg namecaret pid addr k n e
	WANT=ok WANT_LINE= IS_RET= PIDN=0 VADDR=0
	case $((RANDOM % 20)) in
	0)
		pick p r x
		cmd=$REPLY
		garbage $((RANDOM % 60))
		cmd+=$REPLY
		garbage 30
		LINE="$cmd $REPLY" CLASS=noise
		WANT=any
		[ "${cmd:0:1}" != x ] || WANT="Unknown command: expected p, r or -@0"
		return ;;
	1)
		LINE="p:long $OWN:${E1[$OWN]} $LONGARG" CLASS=long WANT=any
		return ;;
	esac
	CLASS=def
	pick p p p r
	cmd=$REPLY
	choose NAME_OK NAME_BAD "$i"
	split_part
	name=$PART namemsg=$PMSG namecaret=$PCARET
	choose PID_OK PID_BAD "$i"
	pid=$REPLY
	e=$OWN
	pid_number "$pid" && [ -n "${E1[$PIDN]:-}" ] && e=$PIDN
	choose ADDR_OK ADDR_BAD "$i"
	# the kernel cannot tell a function's entry, where a return probe
	# must be; none is made elsewhere (it would corrupt the stack)
	[ "$REPLY" != @E2@ ] || cmd=p
	addr=${REPLY//@E@/${E1[$e]}}
	addr=${addr//@E2@/${E2[$e]}}
	TOK=("$cmd$name" "$pid:$addr")
	ARGS=()
	for ((n = RANDOM % 4; n > 0; n--)); do
		choose ARG_OK ARG_BAD "$i"
		ARGS+=("$REPLY")
		split_part
		TOK+=("$PART")
	done
	LINE="${TOK[*]}"

	# the kernel's order: the place, the name, the arguments, the event
	[ "$cmd" = p ] || IS_RET=1
	oracle_place "$pid" "$addr"
	TYPE=p
	[ -z "$IS_RET" ] || TYPE=r
	[ -z "$namemsg" ] || want_err 0 "$namecaret" "$namemsg"
	oracle_name "$name"
	ARGNAMES=() WANT_ARGS=
	for ((k = 0; k < ${#ARGS[@]}; k++)); do
		REPLY=${ARGS[k]}
		split_part
		oracle_arg "$k" "$PART" "$PMSG" "$PCARET"
	done
	[ -z "${EVENTS[$GROUP/$EVENT]:-}" ] ||
		want_err 0 0 "Given group/event name is already used by another event"
	printf -v WANT_LINE '%s:%s/%s %d:0x%016x%s' "$TYPE" "$GROUP" "$EVENT" \
		"$PIDN" "$VADDR" "$WANT_ARGS"
}

# ---- the checks after each write ------------------------------------------

# The listing and the last error_log entry, without forking.
snapshot() {
	local l e
	mapfile -t l <"$TRACING/uprobe_events"
	mapfile -t e <"$TRACING/error_log"
	NLIST=${#l[@]}
	LISTING= LAST=
	[ "$NLIST" = 0 ] || printf -v LISTING "%s\n" "${l[@]}"
	[ "$NLIST" = 0 ] || LAST=${l[-1]}
	ERRTAIL=("${e[@]: -3}")
}

# The last error_log entry as "MESSAGE@CARET", and its command in ERRCMD.
last_error() {
	local caret=${ERRTAIL[2]:-}
	ERRCMD=${ERRTAIL[1]#  Command: }
	caret=${caret%^}
	REPLY="${ERRTAIL[0]#*trace_uprobe: error: }@$((${#caret} - 11))"
}

check_write() { # status
	local old=$LISTING oldn=$NLIST olderr="${ERRTAIL[*]}"
	snapshot
	if [ "$1" = 0 ]; then
		ACCEPTED=$((ACCEPTED + 1))
		[ "$NLIST" = $((oldn + 1)) ] && [ "${LISTING:0:${#old}}" = "$old" ] ||
			bad "accepted, but the listing did not grow by one line"
		if [ "$WANT" != ok ]; then
			bad "accepted, but the oracle wants $WANT"
		elif [ "$LAST" != "$WANT_LINE" ]; then
			bad "listed as '$LAST', the oracle wants '$WANT_LINE'"
		fi
		[ "$WANT" != ok ] || keep_event
		return 0
	fi
	REJECTED=$((REJECTED + 1))
	[ "$LISTING" = "$old" ] || bad "rejected, but the listing changed"
	if [ "$CLASS" = long ]; then
		[ "${ERRTAIL[*]}" = "$olderr" ] || bad "too long, but error_log changed"
		return 0
	elif [ "${ERRTAIL[*]}" = "$olderr" ] || [[ ${ERRTAIL[0]} != *"trace_uprobe: error: "* ]]; then
		bad "rejected without a trace_uprobe error_log entry"
		return 0
	fi
	last_error
	LOGGED=$((LOGGED + 1))
	MSGS+=("${REPLY%@*}")
	if [ "$WANT" = ok ]; then
		bad "rejected with '$REPLY', but the oracle wants it accepted as '$WANT_LINE'"
	elif [ "$WANT" != any ] && [ "$REPLY" != "$WANT" ]; then
		bad "rejected with '$REPLY', the oracle wants '$WANT'"
	elif [ "$CLASS" = def ] && [ "$ERRCMD" != "$LINE" ]; then
		bad "error_log names the command '${ERRCMD:0:100}'"
	fi
}

bad() {
	BAD=$((BAD + 1))
	[ "$BAD" -gt 10 ] || echo "  #$I ($CLASS) '${LINE:0:200}': $*"
}

# A disagreement after the lines were written.
bad_at() { # phase what message
	I=- CLASS=$1 LINE=$2
	bad "$3"
}

# ---- enabling a share of the accepted events -------------------------------

# An accepted event: its group/event, name, pid and address (decimal).
keep_event() {
	EVENTS[$GROUP/$EVENT]=1
	EV_KEY+=("$GROUP/$EVENT")
	EV_PID+=("$PIDN")
	EV_VA+=("$VADDR")
	EV_NAME+=("$EVENT")
}

# Every process that maps a probed file has, at each place, a breakpoint
# exactly where one of its own enabled events (BP) names it.
check_bytes() { # when
	local p i va got want
	for p in $(ls /proc | grep -E '^[0-9]+$'); do
		# "PLACE-INDEX VADDR" for each place the process maps
		gawk -v places="${PLACES[*]}" '
			BEGIN { n = split(places, w, " ")
				for (i = 1; i < n; i += 2) { f[(i - 1) / 2] = w[i]; o[(i - 1) / 2] = w[i + 1] } }
			$2 ~ /x/ { split($1, r, "-"); m = strtonum("0x" $3)
				s = strtonum("0x" r[1]); e = strtonum("0x" r[2])
				for (i in f) if ($6 == f[i] && o[i] >= m && o[i] < m + e - s)
					print i, s + o[i] - m }' "/proc/$p/maps" 2>/dev/null >/tmp/fuzz-places || true
		while read -r i va; do
			got=$(mem_bytes "$p" "$va" 1)
			[ -n "$got" ] || continue	# gone meanwhile
			want=${ORIG[${PLACES[i]}]}
			[ -z "${BP[$p $va]:-}" ] || want=cc
			BYTES=$((BYTES + 1))
			[ "$got" = "$want" ] ||
				bad_at "$1" "pid $p, ${PLACES[i]}" "byte $got, want $want"
		done </tmp/fuzz-places
	done
}

# Hits of each (pid, name) of uprobe_profile against the expected: CALLS
# for each enabled event of OWN, none for the others; init's events may
# have hits of their own.
check_hits() {
	local k key
	declare -A want got
	for ((k = 0; k < ${#EV_KEY[@]}; k++)); do
		key="${EV_PID[k]} ${EV_NAME[k]}"
		want[$key]=$((${want[$key]:-0} + (${ON[$k]:-0} && EV_PID[k] == OWN ? CALLS : 0)))
	done
	while read -r p name hits rest; do
		key="$p $name"
		got[$key]=$((${got[$key]:-0} + hits))
	done <"$TRACING/uprobe_profile"
	for key in "${!want[@]}"; do
		[ "${key%% *}" != 1 ] || continue
		HITCHECKS=$((HITCHECKS + 1))
		[ "${got[$key]:-}" = "${want[$key]}" ] ||
			bad_at hits "$key" "${got[$key]:-no} hits, want ${want[$key]}"
	done
}

enable_share() {
	local n=${#EV_KEY[@]} k j t order
	order=($(seq 0 $((n - 1))))
	for ((k = n - 1; k > 0; k--)); do
		j=$((RANDOM % (k + 1)))
		t=${order[k]} order[k]=${order[j]} order[j]=$t
	done
	declare -gA ON BP
	for k in "${order[@]:0:NENABLE}"; do
		if echo 1 >"$TRACING/events/${EV_KEY[k]}/enable"; then
			ON[$k]=1
			BP[${EV_PID[k]} ${EV_VA[k]}]=1
		else
			bad_at enable "${EV_KEY[k]}" "enabling failed"
		fi
	done
}

disable_all() {
	local k
	for k in "${!ON[@]}"; do
		echo 0 >"$TRACING/events/${EV_KEY[k]}/enable"
	done
	BP=()
}

# The result line of a target started with -k, after its work.
result_of() { # pid out
	target_go "$1"
	wait_line "$2" '^checksum' 60
	grep '^checksum' "$2"
}

main() {
	local rc
	shopt -s extglob
	echo "fuzz: seed $SEED (FUZZ_SEED=$SEED replays this run)"
	setup
	echo > "$TRACING/uprobe_events"
	ACCEPTED=0 REJECTED=0 LOGGED=0 BAD=0 BYTES=0 HITCHECKS=0
	MSGS=() EV_KEY=() EV_PID=() EV_VA=() EV_NAME=()
	declare -gA EVENTS=()
	snapshot
	for ((I = 0; I < COUNT; I++)); do
		gen_line "$I"
		rc=0
		echo "$LINE" >>"$TRACING/uprobe_events" 2>/dev/null || rc=$?
		check_write "$rc"
	done
	echo "fuzz: $COUNT lines in ${SECONDS}s: $ACCEPTED accepted, $REJECTED rejected" \
		"($LOGGED with an error_log entry, the rest too long to parse)"
	printf '%s\n' "${MSGS[@]}" | sort | uniq -c | sort -rn | sed 's/^/  /'
	expect_eq "listing lines against accepted lines" "$ACCEPTED" "$NLIST"

	enable_share
	check_bytes "enabled"
	expect_eq "our target's result, probed" "$REF" "$(result_of "$OWN" /tmp/fuzz-own.out)"
	check_hits
	disable_all
	check_bytes "disabled"
	echo > "$TRACING/uprobe_events"
	expect_eq "uprobe_events after clearing" "" "$(cat "$TRACING/uprobe_events")"
	check_bytes "deleted"
	target_go "$OWN"
	wait "$OWN"
	expect_eq "the other target's result" "$REF" "$(result_of "$OTHER" /tmp/fuzz-other.out)"
	expect_eq "the bystander's result" "$REF" "$(result_of "$BYST" /tmp/fuzz-byst.out)"
	target_go "$OTHER"
	target_go "$BYST"
	wait "$OTHER" "$BYST"
	echo "fuzz: enabled ${#ON[@]} of $ACCEPTED accepted events; $HITCHECKS hit counts" \
		"and $BYTES bytes of every process that maps a probed file checked;" \
		"$BAD disagreements with the oracle"
	expect_eq "disagreements with the oracle" 0 "$BAD"
}

main "$@"
