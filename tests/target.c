// SPDX-License-Identifier: GPL-2.0
/*
 * A probe target whose work is known in advance.
 *
 *   target [-n CALLS] [-t THREADS] [-f [-w] [-m VMAS]] [-v] [-k] [-l] [-d SECONDS] [-x] [-g]
 *
 * Prints "ready <pid>" and waits for SIGUSR1 (not with -g).  Then each of
 * THREADS threads calls probed_work() CALLS times (and, with -f, a forked
 * child does the same first; with -v, then a vfork child calls it CALLS
 * times and the parent prints "vfork checksum <sum> calls <CALLS>"), and it
 * prints "checksum <sum> calls <total>".
 * With -d it repeats that round until SECONDS have passed or a SIGUSR1
 * came, then prints "rounds <n>".  With -x it then execs itself once more (with -g, without
 * -x, -d or -f).  With -k it then waits for another SIGUSR1 before exiting,
 * so that its memory can be read.  With -w the forked child prints "child
 * ready <pid>" and waits for a SIGUSR1 of its own before its work.  With -m
 * the process first maps VMAS pages of anonymous memory, written, every
 * other one then made read-only, so VMAS mappings that a fork copies one
 * by one, and prints "fork start <ns>" and "fork done <ns>" (CLOCK_REALTIME,
 * as date +%s%N) before and after its fork().  With -l
 * each call of probed_work() is
 * followed by one call of libc's getppid().
 *
 * probed_work() starts with a plain function entry, holds a rip-relative
 * load at the label probed_riprel and a call at the label probed_call, so
 * tests can probe each kind of instruction at a symbol.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long calls = 1000;
#define MAX_THREADS 128
static int threads = 1;
static int use_libc;
static int child_waits;
static unsigned long vfork_sum;
static long many_vmas;
unsigned long probed_scale = 2654435761UL;

__attribute__((noinline)) unsigned long probed_mix(unsigned long x)
{
	return (x ^ (x >> 13)) * 31;
}

__attribute__((noinline)) unsigned long probed_work(unsigned long x)
{
	unsigned long r = probed_mix(x), s;

	asm volatile(".globl probed_riprel\nprobed_riprel:\n\t"
		     "mov probed_scale(%%rip), %0" : "=r"(s));
	r *= s;
	asm volatile(".globl probed_call\nprobed_call:\n\t"
		     "call probed_mix" : "+D"(r) : : "rax", "rcx", "rdx",
		     "rsi", "r8", "r9", "r10", "r11", "memory", "cc");
	return r;
}

/* Never called: an instruction that uprobes refuses to probe. */
asm(".globl probed_trap\n.type probed_trap, @function\n"
    "probed_trap:\n\tint3\n\tret\n.size probed_trap, 2\n");

static void *worker(void *arg)
{
	unsigned long sum = 0;
	long i;

	for (i = 0; i < calls; i++) {
		sum += probed_work(i);
		if (use_libc)
			sum += getppid() != 0;
	}
	*(unsigned long *)arg = sum;
	return NULL;
}

static unsigned long run_threads(void)
{
	pthread_t tid[MAX_THREADS];
	unsigned long part[MAX_THREADS], sum = 0;
	int i;

	for (i = 0; i < threads; i++)
		if (pthread_create(&tid[i], NULL, worker, &part[i]))
			exit(2);
	for (i = 0; i < threads; i++) {
		pthread_join(tid[i], NULL);
		sum += part[i];
	}
	return sum;
}

static void wait_usr1(sigset_t *set)
{
	int sig;

	sigwait(set, &sig);
}

/* -m: n pages, written, every other one read-only: n mappings. */
static void map_many(long n)
{
	long page = sysconf(_SC_PAGESIZE), i;
	char *p;

	p = mmap(NULL, n * page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		exit(2);
	for (i = 0; i < n; i++)
		p[i * page] = 1;
	for (i = 1; i < n; i += 2)
		if (mprotect(p + i * page, page, PROT_READ))
			exit(2);
}

static long long realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Whether a SIGUSR1 is pending; it is consumed if so. */
static int got_usr1(sigset_t *set)
{
	sigset_t pending;

	sigpending(&pending);
	if (!sigismember(&pending, SIGUSR1))
		return 0;
	wait_usr1(set);
	return 1;
}

/* What a vfork child does: CALLS calls on the parent's stack. */
static __attribute__((noinline)) void vfork_work(void)
{
	unsigned long sum = 0;
	long i;

	for (i = 0; i < calls; i++)
		sum += probed_work(i);
	vfork_sum = sum;
}

/*
 * One round: the threads' work, with fork_child a child's first, and with
 * vfork_child a vfork child's before it.
 */
static void round_once(int fork_child, int vfork_child, int keep, sigset_t *set)
{
	pid_t child;

	if (fork_child) {
		if (many_vmas)
			printf("fork start %lld\n", realtime_ns());
		child = fork();
		if (child > 0 && many_vmas)
			printf("fork done %lld\n", realtime_ns());
		if (child == 0) {
			if (child_waits) {
				printf("child ready %d\n", getpid());
				wait_usr1(set);
			}
			printf("child checksum %lu calls %ld\n", run_threads(),
			       calls * threads);
			if (keep)
				wait_usr1(set);
			_exit(0);
		}
		waitpid(child, NULL, 0);
	}
	if (vfork_child) {
		child = vfork();
		if (child == 0) {
			vfork_work();
			_exit(0);
		}
		waitpid(child, NULL, 0);
		printf("vfork checksum %lu calls %ld\n", vfork_sum, calls);
	}
	printf("checksum %lu calls %ld\n", run_threads(), calls * threads);
}

static void exec_self(char *self)
{
	char n[32], t[32];
	char *args[] = { self, "-g", "-n", n, "-t", t, NULL };

	snprintf(n, sizeof(n), "%ld", calls);
	snprintf(t, sizeof(t), "%d", threads);
	execv("/proc/self/exe", args);
	perror("execv");
	exit(2);
}

int main(int argc, char **argv)
{
	int opt, fork_child = 0, vfork_child = 0, keep = 0, go = 0, re_exec = 0;
	long seconds = 0, rounds = 0;
	struct timespec start, now;
	sigset_t set;

	while ((opt = getopt(argc, argv, "n:t:fwm:vkld:xg")) != -1) {
		switch (opt) {
		case 'n': calls = atol(optarg); break;
		case 't': threads = atoi(optarg); break;
		case 'f': fork_child = 1; break;
		case 'w': child_waits = 1; break;
		case 'm': many_vmas = atol(optarg); break;
		case 'v': vfork_child = 1; break;
		case 'k': keep = 1; break;
		case 'l': use_libc = 1; break;
		case 'd': seconds = atol(optarg); break;
		case 'x': re_exec = 1; break;
		case 'g': go = 1; break;
		default:
			fprintf(stderr, "usage: target [-n CALLS] [-t THREADS] [-f [-w] [-m VMAS]] [-v] [-k] [-l] [-d SECONDS] [-x] [-g]\n");
			return 2;
		}
	}
	if (threads < 1 || threads > MAX_THREADS || many_vmas < 0)
		return 2;
	if (many_vmas)
		map_many(many_vmas);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("ready %d\n", getpid());
	if (!go)
		wait_usr1(&set);
	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		round_once(fork_child, vfork_child, keep && !seconds, &set);
		rounds++;
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (now.tv_sec - start.tv_sec < seconds && !got_usr1(&set));
	if (seconds)
		printf("rounds %ld\n", rounds);
	if (re_exec)
		exec_self(argv[0]);
	if (keep)
		wait_usr1(&set);
	return 0;
}
