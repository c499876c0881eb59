# SPDX-License-Identifier: GPL-2.0
"""A Python process with known calls, for SDT marker tests and make bench.

  python3.11 -S pywork.py CALLS GCS

Prints "ready <pid>" and waits for SIGUSR1; then calls beta() CALLS times
(each calls alpha() 3 times) and gc.collect() GCS times (automatic
collections are off), prints "result <sum>", and waits for another
SIGUSR1 before it exits.  It runs with a profile function that does
nothing: Python 3.11 fires its function__entry marker only on the path
the interpreter takes while a trace or profile function is set (its
function__return, line and gc markers fire without).

  python3.11 -S pywork.py bench SECONDS

Prints "ready <pid>"; at each SIGUSR1 calls alpha() 1000 times to warm
up, then for SECONDS, and prints "result <ns per call> calls <timed
calls> total <all calls of this run>", as tests/bench/bench.c does.
"""
import gc
import os
import _signal as signal
import sys
import time


def alpha(x):
    return x + 1


def beta(n):
    t = 0
    for i in range(n):
        t += alpha(i)
    return t


def thousand():
    for i in range(1000):
        alpha(i)


def bench(secs):
    print("ready", os.getpid(), flush=True)
    while True:
        signal.sigwait([signal.SIGUSR1])
        thousand()
        calls = 0
        t0 = time.perf_counter_ns()
        end = t0 + int(secs * 1e9)
        t = t0
        while t < end:
            thousand()
            calls += 1000
            t = time.perf_counter_ns()
        print("result %.2f calls %d total %d" % ((t - t0) / calls, calls,
                                                 calls + 1000), flush=True)


def profile(frame, event, arg):
    pass


def main():
    signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGUSR1])
    if sys.argv[1] == "bench":
        bench(float(sys.argv[2]))
        return
    calls, gcs = int(sys.argv[1]), int(sys.argv[2])
    sys.setprofile(profile)
    gc.disable()
    print("ready", os.getpid(), flush=True)
    signal.sigwait([signal.SIGUSR1])
    r = 0
    for _ in range(calls):
        r += beta(3)
    for _ in range(gcs):
        gc.collect()
    print("result", r, flush=True)
    signal.sigwait([signal.SIGUSR1])


main()
