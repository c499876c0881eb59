#!/bin/bash
# perf probe -p: Debian's bash, echo_builtin in the PIE and write in libc
# A bash that echoes 7 times is probed; a second bash doing the same at the
# same time is not.  perf record -a sees exactly the first one's 7 calls of
# each function, and perf report attributes them to bash's and libc's
# symbols, 100%.
set -eu
. "$(dirname "$0")/../lib.sh"

N=7
bash_echo_start /tmp/go.a $N
a=$BPID
bash_echo_start /tmp/go.b $N
b=$BPID
cleanup() { perf probe -q -d "probe:p_${a}_*" 2>/dev/null || true; kill $a $b 2>/dev/null || true; }
trap cleanup EXIT

perf probe -p $a echo_builtin
perf probe -p $a write@libc
grep -qx "p:probe/p_${a}_echo_builtin $a:0x[0-9a-f]*" /sys/kernel/tracing/uprobe_events
perf_record_during /tmp/pb.data "probe:p_${a}_echo_builtin,probe:p_${a}_write" \
	sh -c "echo go >/tmp/go.a; echo go >/tmp/go.b; wait_pid() { while kill -0 \$1 2>/dev/null; do sleep 0.1; done; }; wait_pid $a; wait_pid $b"

expect_eq "echo_builtin samples from the target" $N "$(perf_count /tmp/pb.data "probe:p_${a}_echo_builtin" $a)"
expect_eq "echo_builtin samples in all" $N "$(perf_count /tmp/pb.data "probe:p_${a}_echo_builtin")"
expect_eq "write samples from the target" $N "$(perf_count /tmp/pb.data "probe:p_${a}_write" $a)"
expect_eq "write samples in all" $N "$(perf_count /tmp/pb.data "probe:p_${a}_write")"

perf report -i /tmp/pb.data --stdio --sort comm,dso,sym 2>/dev/null | tee /tmp/pb.report
grep -qE '^ +100\.00% +bash +bash +\[\.\] echo_builtin$' /tmp/pb.report
grep -qE '^ +100\.00% +bash +libc\.so\.6 +\[\.\] [_a-zA-Z]*write$' /tmp/pb.report
perf report -i /tmp/pb.data --stdio --sort comm,dso 2>/dev/null | grep -qE '^ +100\.00% +bash +libc\.so\.6 *$'
