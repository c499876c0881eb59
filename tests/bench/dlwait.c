// SPDX-License-Identifier: GPL-2.0
/*
 * Load a shared library and wait, so that a probe can be resolved in it.
 *
 *   dlwait LIBRARY
 *
 * dlopen()s LIBRARY with RTLD_NOW, prints "ready <pid>" and waits for
 * SIGUSR1 (or SIGTERM), then exits.
 */
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	sigset_t set;
	int sig;

	if (argc != 2) {
		fprintf(stderr, "usage: dlwait LIBRARY\n");
		return 2;
	}
	if (!dlopen(argv[1], RTLD_NOW)) {
		fprintf(stderr, "dlwait: %s\n", dlerror());
		return 1;
	}
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("ready %d\n", getpid());
	sigwait(&set, &sig);
	return 0;
}
