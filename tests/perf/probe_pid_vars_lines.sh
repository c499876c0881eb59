#!/bin/bash
# perf probe -p with -V and -L look in the process's files, not in the
# kernel: -V of probed_mix (in the executable) and of lib_probed@libprobed,
# and -L of probed_work show exactly what -x on the same files shows.
set -eu
. "$(dirname "$0")/../lib.sh"

bin=$TBIN/target
lib=$TBIN/libprobed.so
target_start /tmp/vl.out "$TBIN/libuser" 1
u=$TPID
target_start /tmp/vl2.out "$bin" -n 1 -k
p=$TPID
cleanup() { kill $u $p 2>/dev/null || true; }
trap cleanup EXIT

# perf probe's output of one command and of another must be the same.
same_output() { # what grep-pattern -- args1... -- args2...
	local what=$1 pat=$2 a=() b=()
	shift 3
	while [ "$1" != -- ]; do a+=("$1"); shift; done
	shift
	b=("$@")
	perf probe "${a[@]}" >/tmp/vl.a 2>&1 || { cat /tmp/vl.a; exit 1; }
	perf probe "${b[@]}" >/tmp/vl.b 2>&1 || { cat /tmp/vl.b; exit 1; }
	cat /tmp/vl.a
	grep -q "$pat" /tmp/vl.a || { echo "  $what: no '$pat'"; exit 1; }
	cmp /tmp/vl.a /tmp/vl.b || { echo "  $what differs from -x:"; cat /tmp/vl.b; exit 1; }
}

same_output "-V probed_mix" 'long unsigned int.x$' -- -p $p -V probed_mix -- -x "$bin" -V probed_mix
same_output "-V lib_probed@libprobed" 'long unsigned int.x$' -- -p $u -V lib_probed@libprobed -- -x "$lib" -V lib_probed
same_output "-L probed_work" 'probed_work(unsigned long x)' -- -p $p -L probed_work -- -x "$bin" -L probed_work
