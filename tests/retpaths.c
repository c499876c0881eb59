// SPDX-License-Identifier: GPL-2.0
/*
 * Ways out of probed functions other than a plain return, and processes
 * whose threads outlive the leader or exec: for return probes and for
 * per-process probes that must follow their process.
 *
 *   retpaths fork N    N times: probed_fork() forks, and the parent and
 *                      the child both return from it; the child checks
 *                      what it got and exits with it.
 *   retpaths jump N    N times: probed_jump(i) calls probed_deep(i), which
 *                      longjmp()s past it for odd i; then probed_leaf(i).
 *   retpaths leader N  the leader exits (pthread_exit()) and a thread calls
 *                      probed_leaf() N times.
 *   retpaths exec N    a thread other than the leader calls probed_leaf()
 *                      N times, then execs "retpaths leaf N".
 *   retpaths leaf N    probed_leaf() N times, at once.
 *
 * Prints "ready PID" (and "leader gone" when the leader has exited), waits
 * for SIGUSR1 (not in leaf), does its part and prints "done SUM BAD": SUM
 * depends only on the work, BAD counts children that got a wrong value.
 */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static long n;
static char *self;
static sigset_t usr1;
static jmp_buf env;

__attribute__((noinline)) long probed_leaf(long i)
{
	asm volatile("" : "+r"(i));
	return i * 3 + 1;
}

/* Returns i in the parent, -1 in the child. */
__attribute__((noinline)) long probed_fork(long i)
{
	pid_t p = fork();

	if (p < 0)
		exit(2);
	return p ? i : -1;
}

__attribute__((noinline)) void probed_deep(long i)
{
	if (i % 2)
		longjmp(env, 1);
	asm volatile("");
}

__attribute__((noinline)) long probed_jump(long i)
{
	probed_deep(i);
	asm volatile("" : "+r"(i));
	return i + 7;
}

static void wait_go(void)
{
	int sig;

	sigwait(&usr1, &sig);
}

static void done(unsigned long sum, long bad)
{
	printf("done %lu %ld\n", sum, bad);
	fflush(stdout);
}

static void do_fork(void)
{
	unsigned long sum = 0;
	long i, r, bad = 0;
	int status;

	for (i = 0; i < n; i++) {
		r = probed_fork(i);
		if (r == -1)
			_exit(0);
		if (r != i)
			bad++;
		if (wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			bad++;
		sum += r;
	}
	done(sum, bad);
}

static void do_jump(void)
{
	volatile unsigned long sum = 0;
	volatile long i;

	for (i = 0; i < n; i++) {
		if (setjmp(env) == 0)
			sum += probed_jump(i);
		else
			sum += 1000;
		sum += probed_leaf(i);
	}
	done(sum, 0);
}

static unsigned long leaves(void)
{
	unsigned long sum = 0;
	long i;

	for (i = 0; i < n; i++)
		sum += probed_leaf(i);
	return sum;
}

static void *leader_gone(void *arg)
{
	(void)arg;
	wait_go();
	done(leaves(), 0);
	exit(0);
}

static void *exec_thread(void *arg)
{
	char num[32];
	char *args[] = { self, "leaf", num, NULL };

	(void)arg;
	wait_go();
	printf("before exec %lu\n", leaves());
	fflush(stdout);
	snprintf(num, sizeof(num), "%ld", n);
	execv("/proc/self/exe", args);
	perror("execv");
	exit(2);
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (argc != 3)
		return 2;
	self = argv[0];
	n = atol(argv[2]);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(argv[1], "leaf")) {
		done(leaves(), 0);
		return 0;
	}
	printf("ready %d\n", getpid());
	if (!strcmp(argv[1], "leader")) {
		if (pthread_create(&t, NULL, leader_gone, NULL))
			return 2;
		printf("leader gone\n");
		pthread_exit(NULL);
	}
	if (!strcmp(argv[1], "exec")) {
		if (pthread_create(&t, NULL, exec_thread, NULL))
			return 2;
		pthread_join(t, NULL);
		return 2;
	}
	wait_go();
	if (!strcmp(argv[1], "fork"))
		do_fork();
	else if (!strcmp(argv[1], "jump"))
		do_jump();
	else
		return 2;
	return 0;
}
