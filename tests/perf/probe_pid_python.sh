#!/bin/bash
# perf probe -p: a non-PIE executable, Debian's python3.11
# PyObject_Malloc is probed in one python; the report is 100% that
# python's comm, DSO and symbol, and 0xVADDR at the symbol's ELF address
# (non-PIE: the same as the runtime address) counts the same calls.
set -eu
. "$(dirname "$0")/../lib.sh"

py=$(readlink -f /usr/bin/python3.11)
[ -x "$py" ] || skip_test "no /usr/bin/python3.11"
rm -f /tmp/go.py
mkfifo /tmp/go.py
"$py" -c 'open("/tmp/go.py").read()
for i in range(2000): x = [str(j) for j in range(10)]' &
p=$!
cleanup() { perf probe -q -d "probe:p_${p}_*" 2>/dev/null || true; kill $p 2>/dev/null || true; }
trap cleanup EXIT
sleep 1
addr=0x$(nm -D --defined-only "$py" | awk '$3 == "PyObject_Malloc" { print $1; exit }')
expect_eq "runtime address of PyObject_Malloc" "$(printf '0x%x' $addr)" "$(sym_vaddr $p "$py" PyObject_Malloc)"

perf probe -p $p PyObject_Malloc
perf probe -p $p "$addr"
a16=$(hex16 $addr)
perf_record_during /tmp/py.data "probe:p_${p}_PyObject_Malloc,probe:p_${p}_$a16" \
	sh -c "echo go >/tmp/go.py; while kill -0 $p 2>/dev/null; do sleep 0.1; done"
n=$(perf_count /tmp/py.data "probe:p_${p}_PyObject_Malloc" $p)
echo "PyObject_Malloc calls: $n"
[ "$n" -gt 0 ]
expect_eq "all samples from the target" "$n" "$(perf_count /tmp/py.data "probe:p_${p}_PyObject_Malloc")"
expect_eq "0xVADDR probe" "$n" "$(perf_count /tmp/py.data "probe:p_${p}_$a16" $p)"
perf report -i /tmp/py.data --stdio --sort comm,dso,sym 2>/dev/null | tee /tmp/py.report
grep -qE "^ +100\.00% +python3(\.11)? +python3\.11 +\[\.\] PyObject_Malloc *\$" /tmp/py.report
