// SPDX-License-Identifier: GPL-2.0
/*
 * A process whose probed library moves to another address.
 *
 *   remap LIBRARY CALLS
 *
 * Loads LIBRARY, prints "lib <address of lib_probed>" and "ready <pid>" and
 * waits for SIGUSR1; calls lib_probed() CALLS times and prints "sum1 <sum>".
 * Then unloads it, keeps the range it was mapped at busy with an anonymous
 * PROT_NONE mapping, loads it again (so at another address), prints "lib
 * <address>" and "moved", waits for SIGUSR1, makes the same calls, prints
 * "sum2 <sum>", and waits for a last SIGUSR1 before exiting.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef unsigned long (*fn_t)(unsigned long);

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void wait_go(void)
{
	sigset_t set;
	int sig;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigwait(&set, &sig);
}

static void *load(const char *path, fn_t *fn)
{
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		exit(1);
	}
	*fn = (fn_t)dlsym(h, "lib_probed");
	if (!*fn)
		die("dlsym");
	printf("lib %p\n", (void *)*fn);
	return h;
}

/* The lowest and highest address at which the library is mapped. */
static void lib_range(const char *path, unsigned long *lo, unsigned long *hi)
{
	char line[PATH_MAX + 128], real[PATH_MAX];
	unsigned long s, e;
	FILE *f;

	if (!realpath(path, real))
		die("realpath");
	f = fopen("/proc/self/maps", "r");
	if (!f)
		die("maps");
	*lo = ULONG_MAX;
	*hi = 0;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strstr(line, real) || sscanf(line, "%lx-%lx", &s, &e) != 2)
			continue;
		if (s < *lo)
			*lo = s;
		if (e > *hi)
			*hi = e;
	}
	fclose(f);
	if (*lo >= *hi)
		die("library not in maps");
}

static unsigned long calls(fn_t fn, long n)
{
	unsigned long sum = 0;
	long i;

	for (i = 0; i < n; i++)
		sum += fn(i);
	return sum;
}

int main(int argc, char **argv)
{
	unsigned long lo, hi;
	sigset_t set;
	long n;
	void *h;
	fn_t fn;

	if (argc != 3)
		return 2;
	n = atol(argv[2]);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	setvbuf(stdout, NULL, _IONBF, 0);

	h = load(argv[1], &fn);
	printf("ready %d\n", getpid());
	wait_go();
	printf("sum1 %lu\n", calls(fn, n));

	lib_range(argv[1], &lo, &hi);
	dlclose(h);
	if (mmap((void *)lo, hi - lo, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0) !=
	    (void *)lo)
		die("mmap over the old range");
	h = load(argv[1], &fn);
	printf("moved\n");
	wait_go();
	printf("sum2 %lu\n", calls(fn, n));
	wait_go();
	dlclose(h);
	return 0;
}
