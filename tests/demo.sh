#!/bin/bash
# make demo: the seeds' workflow on a real program, in the VM.  Each command
# is printed before its output.  `perf probe -p` is not there yet (it is the
# perf issue); until then this writes the definition it will write, by hand,
# to uprobe_events, and the rest is the real perf.
set -eu
. "$(dirname "$0")/lib.sh"

T=/sys/kernel/tracing
run() { printf '\n$ %s\n' "$*"; "$@"; }

# Two bash processes run the same loop; only the first is probed.
loop='for i in $(seq 40); do echo $i >/dev/null; sleep 0.05; done'
bash -c "sleep 1; $loop" &
target=$!
bash -c "sleep 1; $loop" &
bystander=$!
bash_bin=$(readlink -f /bin/bash)
off=$(sym_offset "$bash_bin" echo_builtin)
vaddr=$(offset_vaddr "$target" "$bash_bin" "$off")
event=p_${target}_echo_builtin

echo "target: bash pid $target; bystander: bash pid $bystander (same loop)"
echo "echo_builtin: file offset $(printf '0x%x' "$off") of $bash_bin, at $vaddr in pid $target"
echo "(perf probe -p $target echo_builtin@bash is the perf issue; its definition, by hand:)"
run sh -c "echo 'p:probe/$event $target:$vaddr' >> $T/uprobe_events"
run cat $T/uprobe_events
run perf record -q -o /tmp/perf.data -e "probe:$event" -a -- sleep 4
run cat $T/uprobe_profile
run perf report -i /tmp/perf.data --stdio --sort comm,pid,dso,sym
run perf script -i /tmp/perf.data -F comm,pid,event,ip,sym,dso | head -n 5
wait
run sh -c "echo '-:probe/$event' >> $T/uprobe_events"
run cat $T/uprobe_events
