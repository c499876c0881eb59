#!/bin/bash
# make demo: the seeds' workflow on a real program, in the VM, each command
# printed before its output: two identical bash loops, one probed with
# perf probe -p, perf record -a while both run, perf report.
set -eu
. "$(dirname "$0")/lib.sh"

run() { printf '\n$ %s\n' "$*"; "$@"; }

loop='for i in $(seq 30); do echo $i >/dev/null; sleep 0.1; done'
rm -f /tmp/go /tmp/go2
mkfifo /tmp/go /tmp/go2
bash -c "read go </tmp/go; $loop" &
target=$!
bash -c "read go </tmp/go2; $loop" &
bystander=$!
echo "target: bash, pid $target; bystander: bash, pid $bystander, running the same loop"

run perf probe -p "$target" echo_builtin@bash
run perf probe -p "$target" write@libc
run cat /sys/kernel/tracing/uprobe_events
run perf probe -l
run perf record -q -o /tmp/perf.data -e "probe:p_${target}_echo_builtin" \
	-e "probe:p_${target}_write" -a -- \
	sh -c "echo go >/tmp/go; echo go >/tmp/go2; while kill -0 $target 2>/dev/null; do sleep 0.2; done"
run perf report -i /tmp/perf.data --stdio --stdio-color never
run perf report -i /tmp/perf.data --stdio --stdio-color never --sort comm,dso
run sh -c "perf script -i /tmp/perf.data | head -n 6"
run cat /sys/kernel/tracing/uprobe_profile
wait
run perf probe -d "probe:p_${target}_*"
