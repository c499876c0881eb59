#!/bin/bash
# perf probe -p on a process in its own mount namespace (unshare -m) and
# in its own pid namespace too (unshare -m -p -f --mount-proc), where a
# second build of libprobed.so is bind-mounted over the host's: the probe
# lands on lib_probed() of the namespace's build and counts its calls
# exactly.  A path mounted over after the process mapped the library is
# not the file the process maps: perf probe refuses and writes nothing.
# Programs on a container's overlayfs root, before and after a copy-up,
# are found and probed too.
set -eu
. "$(dirname "$0")/../lib.sh"

N=25
T=/sys/kernel/tracing
lib=$TBIN/libprobed.so
libb=$TBIN/libprobed-b.so
pids=
cleanup() {
	perf probe -q -d 'probe:p_*' 2>/dev/null || true
	[ -z "$pids" ] || kill $pids 2>/dev/null || true
}
trap cleanup EXIT

# The process that a background unshare runs: unshare itself, or with
# -f its child.
ns_process() { # unshare-pid
	local c
	c=$(pgrep -P "$1" || true)
	echo "${c:-$1}"
}

# Start libuser under unshare with the second build mounted over the
# first; sets NSP to its pid as seen from here.
ns_start() { # outfile unshare-args...
	local out=$1
	shift
	unshare "$@" bash -c "mount --bind '$libb' '$lib' && exec '$TBIN/libuser' $N" >"$out" 2>&1 &
	pids+=" $!"
	wait_line "$out" '^ready'
	NSP=$(ns_process $!)
	pids+=" $NSP"
}

# Probe lib_probed in the namespace's process: it must land on the second
# build's lib_probed and see all N calls.
probe_ns_build() { # outfile unshare-args...
	local out=$1 off va
	ns_start "$@"
	off=$(sym_offset "$libb" lib_probed)
	[ "$off" != "$(sym_offset "$lib" lib_probed)" ]
	va=$(offset_vaddr $NSP "$lib" "$off")
	perf probe -p $NSP lib_probed@libprobed
	expect_eq "uprobe_events ($*)" "p:probe/p_${NSP}_lib_probed $NSP:$(hex16 "$va")" \
		"$(cat $T/uprobe_events)"
	perf_record_during /tmp/pn.data "probe:p_${NSP}_lib_probed" \
		sh -c "kill -USR1 $NSP; while ! grep -q ^checksum '$out'; do sleep 0.1; done"
	expect_eq "samples ($*)" $N "$(perf_count /tmp/pn.data "probe:p_${NSP}_lib_probed" $NSP)"
	perf probe -q -d "probe:p_${NSP}_*"
	kill -USR1 $NSP
}

probe_ns_build /tmp/pn1.out -m
probe_ns_build /tmp/pn2.out -m -p -f --mount-proc

# Mounted over after the process mapped the first build
unshare -m bash -c "'$TBIN/libuser' $N >/tmp/pn3.out 2>&1 & u=\$!
	while ! grep -q ^ready /tmp/pn3.out; do sleep 0.05; done
	mount --bind '$libb' '$lib'; echo mounted >>/tmp/pn3.out; wait \$u" &
pids+=" $!"
wait_line /tmp/pn3.out '^mounted'
p=$(ns_process $!)
pids+=" $p"
rc=0
perf probe -p $p lib_probed@libprobed >/tmp/pn3.err 2>&1 || rc=$?
cat /tmp/pn3.err
[ $rc != 0 ]
grep -q "Error: $lib in the mount namespace of pid $p is not the file it maps" /tmp/pn3.err
expect_eq "uprobe_events after the refusal" "" "$(cat $T/uprobe_events)"

# A container's root on overlayfs, mounted in its own namespace only: A
# started before a copy-up maps the lower layer's file, B started after
# it the upper layer's copy, both at one path, and their mappings show the
# layer's device and inode, not the overlay's.  perf probe -p finds the
# program of each, and each event counts its own process's calls.
O=/tmp/pn-ovl
mkdir -p $O
unshare -m bash -c "mount -t tmpfs pn-ovl $O && mkdir $O/l $O/u $O/w $O/m &&
	cp '$TBIN/target' $O/l/ &&
	mount -t overlay overlay -o lowerdir=$O/l,upperdir=$O/u,workdir=$O/w $O/m &&
	{ $O/m/target -n $N -k >/tmp/pno-a.out 2>&1 & } &&
	while ! grep -q ^ready /tmp/pno-a.out; do sleep 0.05; done &&
	touch $O/m/target && test -f $O/u/target &&
	{ $O/m/target -n $((2 * N)) -k >/tmp/pno-b.out 2>&1 & } && wait" &
pids+=" $!"
wait_line /tmp/pno-b.out '^ready'
A=$(awk '/^ready/ { print $2 }' /tmp/pno-a.out)
B=$(awk '/^ready/ { print $2 }' /tmp/pno-b.out)
pids+=" $A $B"
off=$(sym_offset "$TBIN/target" probed_work)
perf probe -q -p "$A" probed_work
perf probe -q -p "$B" probed_work
expect_eq "uprobe_events (overlay)" \
	"p:probe/p_${A}_probed_work $A:$(hex16 "$(offset_vaddr "$A" $O/m/target "$off")")
p:probe/p_${B}_probed_work $B:$(hex16 "$(offset_vaddr "$B" $O/m/target "$off")")" \
	"$(cat $T/uprobe_events)"
perf_record_during /tmp/pno.data "probe:p_${A}_probed_work,probe:p_${B}_probed_work" \
	sh -c "kill -USR1 $A $B; while ! grep -q ^checksum /tmp/pno-a.out ||
		! grep -q ^checksum /tmp/pno-b.out; do sleep 0.1; done"
expect_eq "A's samples (overlay, lower)" $N "$(perf_count /tmp/pno.data "probe:p_${A}_probed_work" "$A")"
expect_eq "B's samples (overlay, upper)" $((2 * N)) "$(perf_count /tmp/pno.data "probe:p_${B}_probed_work" "$B")"
expect_eq "A's result" "$(plain_run "$TBIN/target" -n $N)" "$(grep '^checksum' /tmp/pno-a.out)"
expect_eq "B's result" "$(plain_run "$TBIN/target" -n $((2 * N)))" "$(grep '^checksum' /tmp/pno-b.out)"
perf probe -q -d "probe:p_*"
kill -USR1 "$A" "$B"
