#!/bin/bash
# A probe belongs to its process: it never fires after exec, never in a
# forked child (whose inherited breakpoint is dropped), never in a new
# process that got the same pid; unregistering after exit is clean; once
# the process is gone the probe no longer holds its file.
set -eu
. "$(dirname "$0")/../lib.sh"

bin=$TBIN/target
off=$(sym_offset "$bin" probed_work)
orig=$(file_bytes "$bin" "$off")

# fork: the parent's 500 calls count, the child's 500 do not.
target_start /tmp/f.out "$bin" -n 500 -f -k
p=$TPID
sample_load "$p" "$(offset_vaddr "$p" "$bin" "$off")"
target_go "$p"
wait_line /tmp/f.out '^child checksum'
c=$(pgrep -P "$p")
expect_eq "child bytes after its run" "$orig" "$(mem_bytes "$c" "$(offset_vaddr "$c" "$bin" "$off")")"
target_go "$c"
wait_line /tmp/f.out '^checksum'
expect_eq "fork: hits" 500 "$(sample_hits)"
expect_eq "fork: child result" "$(sed -n 's/^child //p' /tmp/f.out)" "$(grep '^checksum' /tmp/f.out)"
target_go "$p"
wait
echo "ok: fork"

# exec: bash echoes once, then execs a new bash that echoes twice.  It
# waits on a fifo, so that the probe is on its own bash (once the child
# of this shell has exec'd, its command line is its own) and in place
# before it echoes, however slow the machine.
bash_bin=$(readlink -f /bin/bash)
eoff=$(sym_offset "$bash_bin" echo_builtin)
rm -f /tmp/e.go
mkfifo /tmp/e.go
bash -c 'read go </tmp/e.go; echo a; exec bash -c "echo b; echo c"' >/tmp/e.out &
p=$!
for i in $(seq 250); do
	tr '\0' ' ' <"/proc/$p/cmdline" | grep -q 'read go' && break
	sleep 0.02
done
sample_load "$p" "$(offset_vaddr "$p" "$bash_bin" "$eoff")"
echo go >/tmp/e.go
wait "$p"
expect_eq "exec: output" "a b c" "$(echo $(cat /tmp/e.out))"
expect_eq "exec: hits" 1 "$(sample_hits)"
echo "ok: exec"

# exit, then pid reuse: the first process makes 300 calls and exits with
# the probe still registered; a new process forced onto the same pid makes
# 700 calls and none of them count.
target_start /tmp/r1.out "$bin" -n 300
p=$TPID
sample_load "$p" "$(offset_vaddr "$p" "$bin" "$off")"
target_go "$p"
wait "$p"
echo $((p - 1)) >/proc/sys/kernel/ns_last_pid
target_start /tmp/r2.out "$bin" -n 700
expect_eq "reused pid" "$p" "$TPID"
target_go "$TPID"
wait "$TPID"
expect_eq "pid reuse: hits" 300 "$(sample_hits)"
echo "ok: exit and pid reuse"

# exit lets the file go: with the module still loaded and its probe still
# registered, the filesystem the target ran from unmounts.
mnt=/tmp/uptest-release
tmpfs_copy "$mnt" "$bin"
target_start /tmp/u.out "$mnt/target" -n 200
p=$TPID
sample_load "$p" "$(offset_vaddr "$p" "$mnt/target" "$off")"
target_go "$p"
wait "$p"
umount_soon "$mnt"
expect_eq "release: hits" 200 "$(sample_hits)"
echo "ok: exit releases the file"
