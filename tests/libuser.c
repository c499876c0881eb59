// SPDX-License-Identifier: GPL-2.0
/*
 * A user of libprobed.so (tests/libprobed.c).
 *
 *   libuser CALLS
 *
 * Starts a thread that only sleeps and names it in a line "sleeper <tid>"
 * (a thread id that is not the process's), prints "ready <pid>" and waits
 * for SIGUSR1, calls lib_probed() CALLS times, prints "checksum <sum>
 * calls <n>", waits for another SIGUSR1 and exits.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

unsigned long lib_probed(unsigned long x);

static pthread_barrier_t started;

static void *sleeper(void *arg)
{
	(void)arg;
	printf("sleeper %d\n", gettid());
	pthread_barrier_wait(&started);
	for (;;)
		pause();
	return NULL;
}

static void wait_usr1(sigset_t *set)
{
	int sig;

	sigwait(set, &sig);
}

int main(int argc, char **argv)
{
	long calls = argc > 1 ? atol(argv[1]) : 1000, i;
	unsigned long sum = 0;
	pthread_t tid;
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);
	pthread_barrier_init(&started, NULL, 2);
	if (pthread_create(&tid, NULL, sleeper, NULL))
		return 2;
	pthread_barrier_wait(&started);
	printf("ready %d\n", getpid());
	wait_usr1(&set);
	for (i = 0; i < calls; i++)
		sum += lib_probed(i);
	printf("checksum %lu calls %ld\n", sum, calls);
	wait_usr1(&set);
	return 0;
}
