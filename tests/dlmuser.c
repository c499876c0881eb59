// SPDX-License-Identifier: GPL-2.0
/*
 * Two copies of one library in one process (dlmopen).
 *
 *   dlmuser LIBRARY N M
 *
 * Loads LIBRARY twice, each in a new link-map namespace, prints
 * "lib_probed <addr1> <addr2>" (lib_probed() of each copy) and
 * "ready <pid>", waits for SIGUSR1, calls the first copy's lib_probed()
 * N times and the second's M times, prints "checksum <sum>", waits for
 * another SIGUSR1 and exits.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

typedef unsigned long (*probed_fn)(unsigned long);

static probed_fn load(const char *lib)
{
	void *h = dlmopen(LM_ID_NEWLM, lib, RTLD_NOW);
	probed_fn f;

	if (!h) {
		fprintf(stderr, "dlmuser: %s\n", dlerror());
		exit(1);
	}
	f = (probed_fn)dlsym(h, "lib_probed");
	if (!f) {
		fprintf(stderr, "dlmuser: %s\n", dlerror());
		exit(1);
	}
	return f;
}

int main(int argc, char **argv)
{
	unsigned long sum = 0;
	probed_fn f1, f2;
	long n, m, i;
	sigset_t set;
	int sig;

	if (argc != 4) {
		fprintf(stderr, "usage: dlmuser LIBRARY N M\n");
		return 2;
	}
	n = atol(argv[2]);
	m = atol(argv[3]);
	f1 = load(argv[1]);
	f2 = load(argv[1]);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("lib_probed %p %p\n", (void *)f1, (void *)f2);
	printf("ready %d\n", getpid());
	sigwait(&set, &sig);
	for (i = 0; i < n; i++)
		sum += f1(i);
	for (i = 0; i < m; i++)
		sum += f2(i);
	printf("checksum %lu\n", sum);
	sigwait(&set, &sig);
	return 0;
}
