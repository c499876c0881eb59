#!/bin/bash
# perf probe -l on per-process events: each is listed as -x lists the
# event at the same place of the file (function, %return, source file,
# path), with its process; once the kernel has the library unmapped or
# the process gone, by its address and the kernel's word for it, even
# when another process of the same non-PIE program has the pid now (a
# listing guessed from the pid would show that process's probed_work).
set -eu
. "$(dirname "$0")/../lib.sh"

N=5
bin=$TBIN/target-nopie
lib=$TBIN/libprobed.so
pids=
cleanup() {
	perf probe -q -d 'probe:p_*' -d 'probe:x_*' 2>/dev/null || true
	[ -z "$pids" ] || kill $pids 2>/dev/null || true
}
trap cleanup EXIT

# perf probe -l of the events matching $1, blanks squeezed.
list() { # event-glob
	perf probe -l "probe:$1" 2>&1 | sed 's/  */ /g; s/^ /  /'
}

# What -l says of the event $1 names (a return probe's name ends in
# __return), past its name.
place() { # event-glob
	list "$1" | sed -n 's/^  probe:[^ ]* //p'
}

# Per-process events on $3... of pid $1 in file $2 are listed as the -x
# events on the same specs, and "in pid $1".
same_as_x() { # pid file spec...
	local p=$1 file=$2 spec i=0
	shift 2
	for spec in "$@"; do
		perf probe -q -p "$p" -x "$file" "probe:p_${p}_$i=$spec"
		perf probe -q -x "$file" "probe:x_$i=$spec"
		[ -n "$(place "x_$i*")" ]
		expect_eq "-l of -p $spec" "$(place "x_$i*" |
			sed "s| in $file| in $file in pid $p|")" "$(place "p_${p}_$i*")"
		i=$((i + 1))
	done
	perf probe -q -d 'probe:x_*'
}

target_start /tmp/l1.out "$bin" -n $N -k
p=$TPID
pids+=" $p"
va=$(sym_vaddr $p "$bin" probed_work)
same_as_x $p "$bin" probed_work 'probed_work%return $retval' probed_work+4
place "p_${p}_1*" |
	grep -q "^(on probed_work%return@.* in $bin in pid $p with arg1)\$"

# The library moves away (remap): listed by address, "(unmapped)".
target_start /tmp/l3.out "$TBIN/remap" "$lib" 3
r=$TPID
pids+=" $r"
lva=$(sym_vaddr $r "$lib" lib_probed)
same_as_x $r "$lib" lib_probed
target_go $r
wait_line /tmp/l3.out '^moved'
expect_eq "-l after the library moved" \
	"(on $lva in pid $r (unmapped))" "$(place "p_${r}_0")"

kill $p
wait $p || true
target_start_pid $p /tmp/l2.out "$bin" -n $N -k
pids+=" $TPID"
expect_eq "-l after the process is gone" \
	"  probe:p_${p}_0 (on $va in pid $p (gone))
  probe:p_${p}_1__return (on $va%return in pid $p (gone) with arg1)" \
	"$(list "p_${p}_[01]*")"
place "p_${p}_2" | grep -qE "^\(on 0x[0-9a-f]+ in pid $p \(gone\)\)\$"
