#!/bin/bash
# A seeded fuzzer of uprobe_events: FUZZ_LINES (1500) generated definitions
# with pids of our own target, another target, init, an exited process, 0,
# negative, huge and malformed ones; addresses at function entries, inside
# instructions, in data, stack and heap, unmapped, in the kernel, overflowing
# and malformed; names, suffixes and fetch arguments good and bad; random
# bytes; lines too long to parse.  After each write: an accepted line added
# exactly one line to the listing, a rejected one changed nothing and left a
# new trace_uprobe entry in error_log (lines too long for the parser are
# refused before it, with no entry).  At the end the listing is exactly the
# accepted lines.  FUZZ_SEED (1) makes a run reproducible.
set -eu
. "$(dirname "$0")/../lib.sh"

SEED=${FUZZ_SEED:-1}
COUNT=${FUZZ_LINES:-1500}
bin=$TBIN/target
RANDOM=$SEED

# ---- the processes and addresses the definitions point at -----------------

setup() {
	target_start /tmp/fuzz-own.out "$bin" -n 1 -k
	OWN=$TPID
	target_start /tmp/fuzz-other.out "$bin" -n 1 -k
	OTHER=$TPID
	"$bin" -g -n 1 >/dev/null &
	GONE=$!
	wait "$GONE"
	ENTRY=$(sym_vaddr "$OWN" "$bin" probed_work)
	DATA=$(scale_vaddr "$OWN" "$bin")
	STACK=$(stack_vaddr "$OWN")
	ANON=0x$(awk '$6 == "" { split($1, r, "-"); print r[1]; exit }' "/proc/$OWN/maps")
	LONGNAME=$(printf 'n%.0s' $(seq 80))
	LONGARG=$(printf 'x%.0s' $(seq 4200))
	OWNHEX=$(printf '0x%x' "$OWN")
	parts
}

# The parts lines are made of; @E@ is the entry of the chosen process's
# probed_work (echo_builtin for init's bash), @E5@ five bytes into it.
parts() {
	local bash_bin
	bash_bin=$(readlink -f /proc/1/exe)
	declare -gA ENTRY_OF=([$OWN]=$ENTRY
		[$OTHER]=$(sym_vaddr "$OTHER" "$bin" probed_work)
		[1]=$(sym_vaddr 1 "$bash_bin" echo_builtin))
	NAME_OK=("" ":f@I@" ":fz/f@I@" ":fz/f@I@" ":dup")
	NAME_BAD=(":1bad" ":a-b" ":$LONGNAME" ":g/" ":/e" ":$LONGNAME/e" ":"
		":fz/f@I@:x")
	PID_OK=("$OWN" "$OWN" "$OWN" "$OTHER" 1)
	PID_BAD=("$GONE" 0 -1 -4096 2 4294967297 99999999999999999999999 abc ""
		"+$OWN" "${OWN}x" "$OWNHEX")
	ADDR_OK=(@E@ @E@ @E5@ "@E@%return")
	ADDR_BAD=("$DATA" "$STACK" "$ANON" 0x1000 0 0xffffffff81000000
		0x1ffffffffffffffff 0x 0xzz "" -0x10 "$ENTRY%ret" "$ENTRY(1)"
		"$ENTRY:$ENTRY")
	ARG_OK=(%ip %ax @0x10:u64 +0\(%sp\):u64 \$comm x=%di:u32 @+0:u64 %ax:x8
		"+0(+0(%sp)):u64" "@$DATA:u64" "s=+0(%sp):string")
	ARG_BAD=(%zz \$retval arg1 y=%di:u33 \$stack99999 x= =%ax "+0(%sp"
		"+0(%di):strin" "@sym:u64")
}

# One definition line, of a class: def (built of parts), noise (p and
# random characters), long (more than the parser takes).
gen_line() { # i
	local i=$1 line n e e5
	case $((RANDOM % 20)) in
	0)
		pick p r x
		line=$REPLY
		garbage $((RANDOM % 60))
		line+=$REPLY
		garbage 30
		LINE="$line $REPLY" CLASS=noise
		return ;;
	1)
		LINE="p:long $OWN:$ENTRY $LONGARG" CLASS=long
		return ;;
	esac
	pick p p p r
	line=$REPLY
	choose NAME_OK NAME_BAD "$i"
	line+=$REPLY
	choose PID_OK PID_BAD "$i"
	line+=" $REPLY"
	e=$ENTRY
	[ -z "$REPLY" ] || e=${ENTRY_OF[$REPLY]:-$ENTRY}
	printf -v e5 '0x%x' $((e + 5))
	choose ADDR_OK ADDR_BAD "$i"
	REPLY=${REPLY//@E@/$e}
	line+=":${REPLY//@E5@/$e5}"
	for ((n = RANDOM % 4; n > 0; n--)); do
		choose ARG_OK ARG_BAD "$i"
		line+=" $REPLY"
	done
	LINE=$line CLASS=def
}

# ---- the checks after each write ------------------------------------------

# The listing and the last error_log entry, without forking.
snapshot() {
	local l e
	mapfile -t l <"$TRACING/uprobe_events"
	mapfile -t e <"$TRACING/error_log"
	LISTING=$(printf '%s\n' "${l[@]}")
	NLIST=${#l[@]}
	LASTERR=$(printf '%s\n' "${e[@]: -3}")
}

check_write() { # line class rc
	local old=$LISTING oldn=$NLIST olderr=$LASTERR
	snapshot
	if [ "$3" = 0 ]; then
		ACCEPTED=$((ACCEPTED + 1))
		[ "$NLIST" = $((oldn + 1)) ] && [ "${LISTING:0:${#old}}" = "$old" ] ||
			bad "accepted, but the listing did not grow by one line"
		return 0
	fi
	REJECTED=$((REJECTED + 1))
	[ "$LISTING" = "$old" ] || bad "rejected, but the listing changed"
	if [ "$2" = long ]; then
		[ "$LASTERR" = "$olderr" ] || bad "too long, but error_log changed"
	elif [ "$LASTERR" = "$olderr" ] || [[ $LASTERR != *"trace_uprobe: error: "* ]]; then
		bad "rejected without a trace_uprobe error_log entry"
	else
		LOGGED=$((LOGGED + 1))
		local m=${LASTERR#*error: }
		MSGS+=("${m%%$'\n'*}")
	fi
}

bad() {
	BAD=$((BAD + 1))
	[ "$BAD" -gt 10 ] || echo "  #$I ($CLASS) '${LINE:0:200}': $*"
}

main() {
	local rc
	setup
	echo > "$TRACING/uprobe_events"
	ACCEPTED=0 REJECTED=0 LOGGED=0 BAD=0
	MSGS=()
	snapshot
	for ((I = 0; I < COUNT; I++)); do
		gen_line "$I"
		rc=0
		echo "$LINE" >>"$TRACING/uprobe_events" 2>/dev/null || rc=$?
		check_write "$LINE" "$CLASS" "$rc"
	done
	echo "fuzz: seed $SEED, $COUNT lines in ${SECONDS}s: $ACCEPTED accepted, $REJECTED rejected" \
		"($LOGGED with an error_log entry, the rest too long to parse)," \
		"$BAD inconsistencies"
	printf '%s\n' "${MSGS[@]}" | sort | uniq -c | sort -rn | sed 's/^/  /'
	expect_eq "listing lines against accepted lines" "$ACCEPTED" "$NLIST"
	echo > "$TRACING/uprobe_events"
	expect_eq "uprobe_events after clearing" "" "$(cat "$TRACING/uprobe_events")"
	expect_eq "both targets' bytes at probed_work" "$(mem_bytes "$OWN" "$ENTRY")" \
		"$(mem_bytes "$OTHER" "$(sym_vaddr "$OTHER" "$bin" probed_work)")"
	target_finish "$OWN" /tmp/fuzz-own.out
	target_finish "$OTHER" /tmp/fuzz-other.out
	expect_eq "inconsistencies" 0 "$BAD"
}

main "$@"
