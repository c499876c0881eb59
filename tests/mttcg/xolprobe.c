// xolprobe.c - two threads, each calling its own uprobed function in a loop.
// Probe fa and fb (first instruction) with uprobes; both instructions are
// single-stepped out of line (neither is emulated by arch/x86/kernel/uprobes.c).
//
//   fa: b8 11 11 90 90   mov $0x90901111,%eax   (5 bytes)   then nops; ret
//   fb: 48 89 f8         mov %rdi,%rax          (3 bytes)   then nops; ret
//
// If thread A executes fb's instruction from the XOL slot it comes back at
// fa+3, which is the 90 90 of fa's immediate, so it falls into the nops and
// returns its argument (0xaaaa) instead of 0x90901111.  If thread B executes
// fa's instruction it comes back at fb+5 (nops) and returns 0x90901111
// instead of its argument.  Both are counted, not fatal.
//
// usage: xolprobe SECONDS [readyfile]   (prints per-thread counts)
// tests/mttcg/run runs it; Documentation/reliability.md has the results.
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

__asm__(".text\n"
	".globl fa\n.type fa,@function\n.p2align 6\n"
	"fa: .byte 0xb8,0x11,0x11,0x90,0x90\n"
	"    .byte 0x90,0x90,0x90,0x90,0x90,0x90,0x90,0x90\n"
	"    ret\n.size fa,.-fa\n"
	".globl fb\n.type fb,@function\n.p2align 6\n"
	"fb: .byte 0x48,0x89,0xf8\n"
	"    .byte 0x90,0x90,0x90,0x90,0x90,0x90,0x90,0x90\n"
	"    ret\n.size fb,.-fb\n");

uint64_t fa(uint64_t);
uint64_t fb(uint64_t);

static volatile int stop;
static double t0;

struct th {
	int id;
	pthread_t t;
	unsigned long iters, fails, other;
	double first_fail;
	uint64_t bad_val;
} th[2];

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *run(void *arg)
{
	struct th *t = arg;
	while (!stop) {
		uint64_t got, want, theirs;
		if (t->id == 0) {
			got = fa(0xaaaa);
			want = 0x90901111;
			theirs = 0xaaaa;
		} else {
			uint64_t a = 0xbbbb0000 | (t->iters & 0xffff);
			got = fb(a);
			want = a;
			theirs = 0x90901111;
		}
		if ((uint32_t)got != want) {
			if (!t->fails++) {
				t->first_fail = now() - t0;
				t->bad_val = got;
			}
			if ((uint32_t)got != theirs)
				t->other++;
		}
		t->iters++;
	}
	return NULL;
}

static void onsig(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	char buf[128];
	int n = snprintf(buf, sizeof(buf), "xolprobe: signal %d at %.2fs addr %p\n",
			 sig, now() - t0, si->si_addr);
	write(1, buf, n);
	_exit(3);
}

int main(int argc, char **argv)
{
	int secs = argc > 1 ? atoi(argv[1]) : 10;
	struct sigaction sa = { .sa_sigaction = onsig, .sa_flags = SA_SIGINFO };
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGILL, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGTRAP, &sa, NULL);
	if (argc > 2) {		/* wait for the probes: ready file appears */
		while (access(argv[2], F_OK))
			usleep(10000);
	}
	t0 = now();
	for (int i = 0; i < 2; i++) {
		th[i].id = i;
		pthread_create(&th[i].t, NULL, run, &th[i]);
	}
	sleep(secs);
	stop = 1;
	unsigned long it = 0, f = 0;
	for (int i = 0; i < 2; i++) {
		pthread_join(th[i].t, NULL);
		it += th[i].iters;
		f += th[i].fails;
		printf("xolprobe thread %d (%s): %lu calls, %lu wrong (%lu neither mine nor the other's)",
		       i, i ? "fb" : "fa", th[i].iters, th[i].fails, th[i].other);
		if (th[i].fails)
			printf(", first at %.2fs: %#lx", th[i].first_fail, (unsigned long)th[i].bad_val);
		printf("\n");
	}
	printf("xolprobe: %ds: %lu calls, %lu wrong\n", secs, it, f);
	return f ? 1 : 0;
}
