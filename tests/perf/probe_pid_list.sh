#!/bin/bash
# perf probe -l on per-process events: a %return probe is listed as one,
# and when the process is gone the listing says so, as the kernel knows
# it, even though another process of the same non-PIE program has its
# pid now (a listing guessed from the pid would show that process's
# probed_work).
set -eu
. "$(dirname "$0")/../lib.sh"

N=5
bin=$TBIN/target-nopie
pids=
cleanup() {
	perf probe -q -d 'probe:p_*' 2>/dev/null || true
	[ -z "$pids" ] || kill $pids 2>/dev/null || true
}
trap cleanup EXIT

# perf probe -l of the events of pid $1, blanks squeezed.
list() { # pid
	perf probe -l "probe:p_$1_*" 2>&1 | sed 's/  */ /g; s/^ /  /'
}

target_start /tmp/l1.out "$bin" -n $N -k
p=$TPID
pids+=" $p"
va=$(sym_vaddr $p "$bin" probed_work)
perf probe -q -p $p probed_work
perf probe -q -p $p 'probed_work%return' '$retval'
expect_eq "-l of a live process" "  probe:p_${p}_probed_work (on probed_work+0@target-nopie in pid $p)
  probe:p_${p}_probed_work__return (on probed_work%return@target-nopie in pid $p with arg1)" "$(list $p)"

kill $p
wait $p || true
target_start_pid $p /tmp/l2.out "$bin" -n $N -k
pids+=" $TPID"
expect_eq "-l after the process is gone" "  probe:p_${p}_probed_work (on $va in pid $p (gone))
  probe:p_${p}_probed_work__return (on $va%return in pid $p (gone) with arg1)" "$(list $p)"
