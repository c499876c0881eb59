// SPDX-License-Identifier: GPL-2.0
/*
 * The loop that make bench times.
 *
 *   bench hot [-d SECONDS] [-n RUNS]    calls bench_hot() in a tight loop
 *   bench write [-d SECONDS] [-n RUNS]  calls write(2) of one byte to /dev/null
 *   bench pace [-u USEC]                one such write(2) every USEC us
 *   bench spawn [-d SECONDS] [-n RUNS]  fork()s a child that execs "bench
 *                                       exit" (which maps libc and exits),
 *                                       and waits for it
 *   bench fork [-d SECONDS] [-n RUNS]   fork()s a child that _exit()s at
 *                                       once, and waits for it
 *   bench maplib -f FILE [-d SECONDS] [-n RUNS]
 *                                       mmap()s FILE whole, executable and
 *                                       private, and munmap()s it
 *   bench fault [-d SECONDS] [-n RUNS]  mmap()s 64 private anonymous pages,
 *                                       writes to each and munmap()s them
 *   bench threads [-d SECONDS] [-n RUNS]
 *                                       fork()s a child that starts 63
 *                                       threads and then exits, and waits
 *                                       for it; only the exit is timed
 *   bench exit                          exits at once
 *
 * With -m TAG (1-8), each timed repetition of a loop is followed by
 * COUNTED single calls (fewer where they take over 2 s), each in a window
 * whose guest instructions tests/bench/insns.c, a QEMU plugin, counts
 * under TAG (threads leaves its start out of the window, as it does out
 * of the time), and then by the plugin's report of them.
 *
 * Prints "ready <pid>" and waits for SIGUSR1.  hot, write, spawn, fork and
 * maplib then call their function for a short warm-up and then, timed with
 * CLOCK_MONOTONIC, in growing batches until SECONDS (default 0.5) have
 * passed, and print "result <ns per call> calls <timed calls> total <all
 * calls> vcs <voluntary> ivcs <involuntary>", the last two the process's
 * context switches over the timed calls; they do that RUNS times (default 1, 0 for ever), each after a
 * SIGUSR1.  pace writes until the next SIGUSR1 and prints "result 0 calls
 * <n> total <n>" with a raw write system call, so that a probe on libc's
 * write() sees exactly the n calls counted.
 *
 * bench_hot() is written in assembly so that its instructions are known:
 * it starts with push %rbp (which uprobes emulates) and holds, at the label
 * bench_riprel, a rip-relative mov (which uprobes single-steps out of
 * line).  bench_sled is never called: 1100 one-byte nops, so that every
 * byte of it is an instruction boundary where a probe can go.
 */
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
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

#define FAULT_PAGES	64
#define COUNTED		100	/* calls counted in instructions per run, */
#define COUNTED_NS	2e9	/* unless they take longer than this */
#define THREADS		64	/* the child's threads, its main one included */

/*
 * The markers of tests/bench/insns.c: "nopl DISP(%rax)", DISP holding a
 * magic number, the kind (1-4) and the tag (1-8) as an immediate.  So
 * bench_marks holds one 8-byte stub per kind and tag, the marker and a
 * ret, kind by kind.
 */
#define MARK_RESUME	1
#define MARK_PAUSE	2
#define MARK_END	3
#define MARK_REPORT	4
#define MARK_TAG_MAX	8

void bench_marks(void);
asm(".text\n"
	".globl bench_marks\n.type bench_marks, @function\n"
	".p2align 3\n"
	"bench_marks:\n"
	"\t.set bench_mark_kind, 1\n"
	"\t.rept 4\n"
	"\t.set bench_mark_tag, 1\n"
	"\t.rept 8\n"
	"\tnopl (0x5bec0000 + (bench_mark_kind << 8) + bench_mark_tag)(%rax)\n"
	"\tret\n"
	"\t.set bench_mark_tag, bench_mark_tag + 1\n"
	"\t.endr\n"
	"\t.set bench_mark_kind, bench_mark_kind + 1\n"
	"\t.endr\n"
	".size bench_marks, .-bench_marks\n");

static int mark_tag;		/* -m TAG; 0: no markers */

static void mark(int kind)
{
	void (*stub)(void);

	if (!mark_tag)
		return;
	stub = (void (*)(void))((char *)bench_marks +
				((kind - 1) * MARK_TAG_MAX + mark_tag - 1) * 8);
	stub();
}

static unsigned long sink;
static double untimed_ns;	/* what a batch asks run_for() not to count */
static int devnull = -1;
static char self[PATH_MAX];
static int mapfd = -1;
static size_t mapsize;

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

/* Wait for a child, which must have exited with status 0. */
static void reap(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		exit(3);
}

static void spawn_batch(long n)
{
	char *argv[] = { self, "exit", NULL };
	pid_t pid;
	long i;

	for (i = 0; i < n; i++) {
		pid = fork();
		if (pid < 0)
			exit(3);
		if (!pid) {
			execv(self, argv);
			_exit(127);
		}
		reap(pid);
	}
}

static void fork_batch(long n)
{
	pid_t pid;
	long i;

	for (i = 0; i < n; i++) {
		pid = fork();
		if (pid < 0)
			exit(3);
		if (!pid)
			_exit(0);
		reap(pid);
	}
}

static void fault_batch(long n)
{
	long page = sysconf(_SC_PAGESIZE), i, j;
	char *p;

	for (i = 0; i < n; i++) {
		p = mmap(NULL, FAULT_PAGES * page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			exit(3);
		for (j = 0; j < FAULT_PAGES; j++)
			p[j * page] = 1;
		if (munmap(p, FAULT_PAGES * page))
			exit(3);
	}
}

static void *idle_thread(void *arg)
{
	for (;;)
		pause();
	return arg;
}

/* The child of threads_batch(): its threads, then "ready", then exit. */
static void threads_child(int ready, int go)
{
	pthread_t t;
	char c = 0;
	int i;

	for (i = 1; i < THREADS; i++)
		if (pthread_create(&t, NULL, idle_thread, NULL))
			_exit(3);
	if (write(ready, &c, 1) != 1 || read(go, &c, 1) != 1)
		_exit(3);
	_exit(0);
}

static void threads_batch(long n)
{
	int ready[2], go[2];
	double t0;
	pid_t pid;
	char c = 0;
	long i;

	for (i = 0; i < n; i++) {
		mark(MARK_PAUSE);
		t0 = now_ns();
		if (pipe(ready) || pipe(go))
			exit(3);
		pid = fork();
		if (pid < 0)
			exit(3);
		if (!pid)
			threads_child(ready[1], go[0]);
		if (read(ready[0], &c, 1) != 1)
			exit(3);
		untimed_ns += now_ns() - t0;
		mark(MARK_RESUME);
		if (write(go[1], &c, 1) != 1)
			exit(3);
		reap(pid);
		close(ready[0]);
		close(ready[1]);
		close(go[0]);
		close(go[1]);
	}
}

static void maplib_batch(long n)
{
	void *p;
	long i;

	for (i = 0; i < n; i++) {
		p = mmap(NULL, mapsize, PROT_READ | PROT_EXEC, MAP_PRIVATE,
			 mapfd, 0);
		if (p == MAP_FAILED || munmap(p, mapsize))
			exit(3);
	}
}

/*
 * Call batch() with growing counts until ns nanoseconds have passed (a
 * batch grows while it takes under a sixteenth of that); return the calls.
 */
static long run_for(void (*batch)(long), double ns, double *elapsed)
{
	double t0 = now_ns(), t1 = t0, t, skip = 0;
	long n = 1, calls = 0;

	while (t1 - t0 - skip < ns) {
		t = t1;
		untimed_ns = 0;
		batch(n);
		calls += n;
		t1 = now_ns();
		skip += untimed_ns;
		if ((t1 - t - untimed_ns) * 16 < ns)
			n *= 2;
	}
	*elapsed = t1 - t0 - skip;
	return calls;
}

/* The calls that -m counts in instructions, one window each. */
static void counted(void (*batch)(long))
{
	double t0 = now_ns();
	int i;

	for (i = 0; i < COUNTED && now_ns() - t0 < COUNTED_NS; i++) {
		mark(MARK_RESUME);
		batch(1);
		mark(MARK_END);
	}
	mark(MARK_REPORT);
}

static void timed(void (*batch)(long), double seconds)
{
	struct rusage r0, r1;
	double warm_ns, ns;
	long warm, calls;

	warm = run_for(batch, seconds * 1e9 / 10, &warm_ns);
	getrusage(RUSAGE_SELF, &r0);
	calls = run_for(batch, seconds * 1e9, &ns);
	getrusage(RUSAGE_SELF, &r1);
	if (mark_tag)
		counted(batch);
	printf("result %.2f calls %ld total %ld vcs %ld ivcs %ld\n",
	       ns / calls, calls, warm + calls, r1.ru_nvcsw - r0.ru_nvcsw,
	       r1.ru_nivcsw - r0.ru_nivcsw);
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
	fprintf(stderr, "usage: bench hot|write|spawn|fork|fault|threads [-d SECONDS] [-n RUNS] [-m TAG] | maplib -f FILE [-d SECONDS] [-n RUNS] [-m TAG] | pace [-u USEC] | exit\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const char *const modes[] = {
		"hot", "write", "pace", "spawn", "fork", "maplib", "fault",
		"threads", NULL
	};
	const char *mode = argc > 1 ? argv[1] : "", *file = NULL;
	void (*batch)(long) = NULL;
	double seconds = 0.5;
	long usec = 10000, runs = 1, run;
	sigset_t set;
	struct stat st;
	int opt, sig, i;

	if (!strcmp(mode, "exit"))
		return 0;
	for (i = 0; modes[i] && strcmp(mode, modes[i]); i++)
		;
	if (!modes[i])
		usage();
	optind = 2;
	while ((opt = getopt(argc, argv, "d:f:m:n:u:")) != -1) {
		switch (opt) {
		case 'd':
			seconds = atof(optarg);
			break;
		case 'f':
			file = optarg;
			break;
		case 'm':
			mark_tag = atoi(optarg);
			if (mark_tag < 1 || mark_tag > MARK_TAG_MAX)
				usage();
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
	if (!strcmp(mode, "maplib")) {
		mapfd = file ? open(file, O_RDONLY) : -1;
		if (mapfd < 0 || fstat(mapfd, &st))
			usage();
		mapsize = st.st_size;
		batch = maplib_batch;
	}
	if (!strcmp(mode, "spawn")) {
		if (readlink("/proc/self/exe", self, sizeof(self) - 1) <= 0)
			exit(3);
		batch = spawn_batch;
	}
	if (!strcmp(mode, "fork"))
		batch = fork_batch;
	if (!strcmp(mode, "fault"))
		batch = fault_batch;
	if (!strcmp(mode, "threads"))
		batch = threads_batch;
	if (!strcmp(mode, "hot"))
		batch = hot_batch;
	if (!strcmp(mode, "write"))
		batch = write_batch;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("ready %d\n", getpid());
	for (run = 0; !runs || run < runs; run++) {
		sigwait(&set, &sig);
		if (batch)
			timed(batch, seconds);
		else
			paced(usec);
	}
	return 0;
}
