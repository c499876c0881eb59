#!/bin/bash
# A second process running the same binary at the same time is not
# probed: it keeps the file's bytes at the probed address, its hits are not
# counted, and its result is unchanged.
set -eu
. "$(dirname "$0")/../lib.sh"

bin=$TBIN/target
off=$(sym_offset "$bin" probed_work)
orig=$(file_bytes "$bin" "$off")
ref=$(plain_run "$bin" -n 3000 -t 4)

target_start /tmp/a.out "$bin" -n 1000 -t 2 -k
a=$TPID
target_start /tmp/b.out "$bin" -n 3000 -t 4 -k
b=$TPID
va=$(offset_vaddr "$a" "$bin" "$off")
vb=$(offset_vaddr "$b" "$bin" "$off")
sample_load "$a" "$va"

expect_eq "probed process has int3" cc "$(mem_bytes "$a" "$va" 1)"
expect_eq "bystander bytes" "$orig" "$(mem_bytes "$b" "$vb")"
target_go "$a"
target_go "$b"
wait_line /tmp/a.out '^checksum'
wait_line /tmp/b.out '^checksum'
expect_eq "bystander bytes after the run" "$orig" "$(mem_bytes "$b" "$vb")"
expect_eq "bystander result" "$ref" "$(grep '^checksum' /tmp/b.out)"
hits=$(sample_hits)
expect_eq "hits (target only)" 2000 "$hits"
expect_eq "target bytes after unregister" "$orig" "$(mem_bytes "$a" "$va")"
target_go "$a"
target_go "$b"
wait
