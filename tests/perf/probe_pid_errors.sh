#!/bin/bash
# perf probe -p: errors name the problem, exit non-zero and write nothing
set -eu
. "$(dirname "$0")/../lib.sh"

T=/sys/kernel/tracing
target_start /tmp/e.out "$TBIN/target" -n 1 -k
p=$TPID

probe_refused "no process with pid 999999" -p 999999 probed_work
probe_refused "no process with pid 0" -p 0 probed_work
probe_refused "no process with pid -1" -p -1 probed_work
probe_refused '-p takes a process ID, not "12x"' -p 12x probed_work
probe_refused "nosuchfunc.* not found" -p $p nosuchfunc
probe_refused 'no DSO matches "nosuchlib" in pid' -p $p write@nosuchlib
probe_refused "libc.so.6" -p $p write@nosuchlib
probe_refused "0x1000 is not in an executable file mapping of pid $p" -p $p 0x1000
# an argument the kernel refuses: its error_log entry, the caret at the
# argument; not perf's guess that the kernel is older than 3.14
probe_refused "The kernel refused it: Invalid register name" -p $p probed_work %zz
grep -qx "  Command: p:probe/p_${p}_probed_work $p:0x[0-9a-f]* %zz" /tmp/refused.out
cmd=$(grep '^  Command: ' /tmp/refused.out)
expect_eq "caret of the refused argument" $((${#cmd} - 3)) \
	"$(grep -A1 '^  Command: ' /tmp/refused.out | tail -1 | sed 's/\^$//' | tr -d '\n' | wc -c)"
if grep -q "upgrade your kernel" /tmp/refused.out; then
	echo "perf says the kernel is too old"
	exit 1
fi
probe_refused "The kernel refused it: Dereference brace is not closed" -p $p probed_work "+0(%sp"
# a point of only a lazy pattern or a line: refused, not a crash
probe_refused "A probe point needs a function, a source file or an address" -p $p ';'
probe_refused "A probe point needs a function, a source file or an address" -p $p ':10'
# a point not found says so with arguments too, and a label with an
# argument is found as without
probe_refused "Probe point 'nosuchfunc:3' not found" -p $p nosuchfunc:3 '$comm'
perf probe -q -p $p probed_call '$comm'
grep -q "^p:probe/p_${p}_probed_call $p:0x[0-9a-f]* arg1=\$comm$" $T/uprobe_events
perf probe -q -d "probe:p_${p}_probed_call"
probe_refused "cannot be used with -m" -p $p -m foo probed_work
# with the usage of both options, as for other misused options
expect_eq "usage lines of -p -m" "    -p, --pid <pid>       probe in this process only: FUNC[@DSO][+OFF|%return] or 0xVADDR
    -m, --module <modname|path>" "$(grep -e '^    -[pm], ' /tmp/refused.out)"
# an unprivileged user may not look into root's process
rc=0
setpriv --reuid=65534 --regid=65534 --clear-groups perf probe -p $p probed_work >/tmp/err.out 2>&1 || rc=$?
cat /tmp/err.out
[ $rc != 0 ]
grep -q "not permitted to read the mappings of pid $p" /tmp/err.out
test -z "$(cat $T/uprobe_events)"

kill -USR1 $p
wait_line /tmp/e.out '^checksum'
kill -USR1 $p
wait $p
