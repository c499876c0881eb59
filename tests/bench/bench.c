// SPDX-License-Identifier: GPL-2.0
/*
 * The loop that make bench times.
 *
 *   bench hot [-d SECONDS] [-n RUNS]    calls bench_hot() in a tight loop
 *   bench write [-d SECONDS] [-n RUNS]  calls write(2) of one byte to /dev/null
 *   bench pace [-u USEC]                one such write(2) every USEC us
 *
 * Prints "ready <pid>" and waits for SIGUSR1.  hot and write then call
 * their function for a short warm-up and then, timed with CLOCK_MONOTONIC,
 * in growing batches until SECONDS (default 0.5) have passed, and print
 * "result <ns per call> calls <timed calls> total <all calls>"; they do
 * that RUNS times (default 1, 0 for ever), each after a SIGUSR1.  pace
 * writes until the next SIGUSR1 and prints "result 0 calls <n> total <n>"
 * with a raw write system call, so that a probe on libc's write() sees
 * exactly the n calls counted.
 *
 * bench_hot() is written in assembly so that its instructions are known:
 * it starts with push %rbp (which uprobes emulates) and holds, at the label
 * bench_riprel, a rip-relative mov (which uprobes single-steps out of
 * line).  bench_sled is never called: 1100 one-byte nops, so that every
 * byte of it is an instruction boundary where a probe can go.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

unsigned long bench_scale = 2654435761UL;
unsigned long bench_hot(unsigned long x);

asm(".text\n"
	".globl bench_hot\n.type bench_hot, @function\n"
	"bench_hot:\n"
	"\tpush %rbp\n"
	"\tmov %rsp, %rbp\n"
	".globl bench_riprel\n"
	"bench_riprel:\n"
	"\tmov bench_scale(%rip), %rax\n"
	"\timul %rdi, %rax\n"
	"\tpop %rbp\n"
	"\tret\n"
	".size bench_hot, .-bench_hot\n"
	".globl bench_sled\n.type bench_sled, @function\n"
	"bench_sled:\n"
	"\t.rept 1100\n\tnop\n\t.endr\n"
	"\tret\n"
	".size bench_sled, .-bench_sled\n");

static unsigned long sink;
static int devnull = -1;

static void hot_batch(long n)
{
	unsigned long s = 0;
	long i;

	for (i = 0; i < n; i++)
		s += bench_hot(i);
	sink += s;
}

static void write_batch(long n)
{
	long i;

	for (i = 0; i < n; i++)
		if (write(devnull, "x", 1) != 1)
			exit(3);
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/*
 * Call batch() with growing counts until ns nanoseconds have passed (a
 * batch grows while it takes under a sixteenth of that); return the calls.
 */
static long run_for(void (*batch)(long), double ns, double *elapsed)
{
	double t0 = now_ns(), t1 = t0, t;
	long n = 1, calls = 0;

	while (t1 - t0 < ns) {
		t = t1;
		batch(n);
		calls += n;
		t1 = now_ns();
		if ((t1 - t) * 16 < ns)
			n *= 2;
	}
	*elapsed = t1 - t0;
	return calls;
}

static void timed(void (*batch)(long), double seconds)
{
	double warm_ns, ns;
	long warm, calls;

	warm = run_for(batch, seconds * 1e9 / 10, &warm_ns);
	calls = run_for(batch, seconds * 1e9, &ns);
	printf("result %.2f calls %ld total %ld\n", ns / calls, calls,
	       warm + calls);
}

static int usr1_pending(void)
{
	sigset_t pending;

	sigpending(&pending);
	return sigismember(&pending, SIGUSR1);
}

static void paced(long usec)
{
	struct timespec gap = { usec / 1000000, usec % 1000000 * 1000 };
	char line[80];
	long n = 0;
	int len;

	while (!usr1_pending()) {
		write_batch(1);
		n++;
		nanosleep(&gap, NULL);
	}
	len = snprintf(line, sizeof(line), "result 0 calls %ld total %ld\n", n, n);
	if (syscall(SYS_write, 1, line, len) != len)
		exit(3);
}

static void usage(void)
{
	fprintf(stderr, "usage: bench hot|write [-d SECONDS] [-n RUNS] | pace [-u USEC]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	double seconds = 0.5;
	long usec = 10000, runs = 1, run;
	sigset_t set;
	int opt, sig;

	if (strcmp(mode, "hot") && strcmp(mode, "write") && strcmp(mode, "pace"))
		usage();
	optind = 2;
	while ((opt = getopt(argc, argv, "d:n:u:")) != -1) {
		switch (opt) {
		case 'd':
			seconds = atof(optarg);
			break;
		case 'n':
			runs = atol(optarg);
			break;
		case 'u':
			usec = atol(optarg);
			break;
		default:
			usage();
		}
	}
	devnull = open("/dev/null", O_WRONLY);
	if (devnull < 0 || seconds <= 0 || usec < 0 || runs < 0)
		usage();
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("ready %d\n", getpid());
	for (run = 0; !runs || run < runs; run++) {
		sigwait(&set, &sig);
		if (!strcmp(mode, "hot"))
			timed(hot_batch, seconds);
		else if (!strcmp(mode, "write"))
			timed(write_batch, seconds);
		else
			paced(usec);
	}
	return 0;
}
