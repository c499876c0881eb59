#!/bin/bash
# Each refused registration returns its error and leaves no breakpoint.
set -eu
. "$(dirname "$0")/../lib.sh"

bin=$TBIN/target
target_start /tmp/t.out "$bin" -n 10 -k
pid=$TPID
work=$(sym_vaddr "$pid" "$bin" probed_work)
orig=$(mem_bytes "$pid" "$work")

# Loading the sample on pid/vaddr fails with errno.
load_fails() { # what errno pid vaddr
	if sample_load "$3" "$4" 2>/dev/null; then
		rmmod uprobe_example
		echo "$1: registration succeeded"
		exit 1
	fi
	expect_eq "$1: error" "$2" "$(sample_error)"
}

refused() { # what errno pid vaddr
	load_fails "$@"
	expect_eq "$1: target bytes" "$orig" "$(mem_bytes "$pid" "$work")"
	echo "ok: $1: $2"
}

# A process that has exited but is not reaped yet: a zombie.
bash -c 'sleep 0.1 & echo $! >/tmp/zombie; exec sleep 30' >/dev/null &
parent=$!
sleep 1
zombie=$(cat /tmp/zombie)
grep -q '^State:.*Z' "/proc/$zombie/status"

data=$(scale_vaddr "$pid" "$bin")
stack=$(stack_vaddr "$pid")

refused "no such process" -3 999999 "$work"
refused "pid 0" -3 0 "$work"
refused "negative pid" -3 -5 "$work"
refused "kernel thread" -3 2 "$work"
refused "zombie" -3 "$zombie" "$work"
refused "unmapped address" -22 "$pid" 0x1000
refused "data (not executable)" -22 "$pid" "$data"
refused "anonymous memory (stack)" -22 "$pid" "$stack"
refused "kernel address" -22 "$pid" 0xffffffff81000000

# A trap instruction (int3) in the file cannot be probed: -EOPNOTSUPP.
trap=$(sym_vaddr "$pid" "$bin" probed_trap)
load_fails int3 -95 "$pid" "$trap"
expect_eq "int3: bytes" cc "$(mem_bytes "$pid" "$trap" 1)"

# A debugger's breakpoint at the address: -EBUSY, and it stays the
# debugger's.
byte=$("$TBIN/poke" "$pid" "$work")
load_fails "debugger's int3" -16 "$pid" "$work"
expect_eq "debugger's int3: bytes" cc "$(mem_bytes "$pid" "$work" 1)"
expect_eq "debugger's int3: taken back" cc "$("$TBIN/poke" "$pid" "$work" "$byte")"
expect_eq "debugger's int3: target bytes" "$orig" "$(mem_bytes "$pid" "$work")"

# After all that, a good registration still counts exactly.
sample_load "$pid" "$work"
target_go "$pid"
wait_line /tmp/t.out '^checksum'
expect_eq "hits after refusals" 10 "$(sample_hits)"
expect_eq "bytes after unregister" "$orig" "$(mem_bytes "$pid" "$work")"
target_go "$pid"
wait
kill "$parent" 2>/dev/null || true
