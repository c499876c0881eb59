#!/bin/bash
# perf probe -l and -d: a kprobe on a module whose name starts with digits
# (8021q:vlan_dev_init) is a kprobe on that module, not a per-process probe
# of pid 8021; only an all-digit prefix of a place is a pid.
set -eu
. "$(dirname "$0")/../lib.sh"

T=/sys/kernel/tracing
cleanup() { echo >$T/kprobe_events 2>/dev/null || true; }
trap cleanup EXIT

# The module need not be loaded: the kernel keeps the probe for it.
echo 'p:probe/vlan_dev_init 8021q:vlan_dev_init' >$T/kprobe_events
grep -qx 'p:probe/vlan_dev_init 8021q:vlan_dev_init' $T/kprobe_events

perf probe -l 'probe:vlan_dev_init' >/tmp/km.out 2>&1
cat /tmp/km.out
expect_eq "perf probe -l" "  probe:vlan_dev_init (on vlan_dev_init in 8021q)" \
	"$(sed 's/  */ /g; s/^ /  /' /tmp/km.out)"

perf probe -d probe:vlan_dev_init
expect_eq "kprobe_events after -d" "" "$(cat $T/kprobe_events)"
