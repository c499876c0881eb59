// SPDX-License-Identifier: GPL-2.0
/*
 * A small JIT compiler: its code lives in anonymous memory, as a runtime's.
 *
 *   jit [-w] FIFO
 *
 * Maps anonymous memory, writes a function jit_fn(x) = 3 * x + 1 into it,
 * and 64 bytes after it jit_g(x), which calls jit_fn(x) and returns its
 * value, and makes it executable: read-write, then read-exec (W^X), or
 * with -w read-write-exec from the start, as V8's and HotSpot's code
 * spaces are.  Writes /tmp/perf-PID.map for them (jit_g as
 * "JS:*g~[0]\x /tmp/jit.c:64:1": a name with characters perf's parser
 * takes as syntax, then its source, as V8 writes names), prints
 * "fn <address>" and "ready <pid>",
 * then runs the commands it reads from FIFO, one per line, and prints
 * "done <n> <command>" after the nth; "sum" lines have the form
 * "sum <sum of jit_fn(i), i < N> calls <N>":
 *
 *   call N      calls the function in use (jit_fn at first) N times;
 *               prints a sum line
 *   copy        copies both functions as they are in memory to other
 *               memory, as a moving GC does: jit_g's copy still calls
 *               jit_fn; prints "copy <address>"
 *   use F       the function "call", "fork" and "churn" call: fn or g
 *               (jit_fn, jit_g), copyfn or copyg (their copies)
 *   poke        writes a byte on the function's page, after its code;
 *               prints "poke faults <page faults the write took>"
 *   race N [CPU]
 *               (-w only) a second thread, on CPU if given, writes that
 *               byte in a loop while this one calls the function N
 *               times; prints a sum line, then "race writes <W> ns <T>
 *               faults <F>": the writes the writer made in the T ns the
 *               calls took, and the page faults of both threads then
 *   wcycle N    N times: writes that byte, then calls the function once
 *   fcycle N    N times: MADV_DONTNEED on a scratch anonymous page, a
 *               write to it (an ordinary write fault), then a call
 *   tcall N     "call", timed
 *               The last three print a sum line, then "ns <command> <ns
 *               per cycle> faults <page faults per cycle>" (the time
 *               from CLOCK_MONOTONIC)
 *   sled N      maps more code: N one-byte nops, then a ret, none of
 *               them called; the nops lie in the first SLED_PER_PAGE
 *               (4080) bytes of each page (an instruction in the last 16
 *               bytes could reach past its page, and is not probed), the
 *               rest of the page being nops too; prints "sled <address>
 *               <nops a page>"
 *   rewrite     writes the function again, the same bytes (a JIT that
 *               recompiles in place)
 *   peek ADDR [N]
 *               prints "peek <hex>": the N (12) bytes at ADDR as this
 *               process reads them (what it runs: a debugger reading
 *               /proc/PID/mem is shown the instructions under a uprobe's
 *               int3 in JIT code)
 *   patch       rewrites jit_fn's add $1,%eax (at +7) as inc %eax; nop:
 *               other bytes, the same result (a JIT that patches code)
 *   prot MODE   mprotect()s the code to MODE: r, rw, rx or rwx
 *   free        MADV_FREE on the code, then writes it again
 *   dontneed    MADV_DONTNEED on the code, then writes it again
 *   move        mremap()s the code elsewhere; prints "fn <address>"
 *   unmap       munmap()s the code, then maps and writes it again
 *   fork N      a forked child calls jit_fn N times and prints its sum
 *               line as "child sum ..."; then "child status <wait status>"
 *   churn N     N of the changes above that keep the code where it is
 *               or move it (not copy: a copy of a probe's int3 is the
 *               process's own; prot: rx, then back), in a fixed
 *               pseudo-random order, each followed by 50 calls and a fork
 *               whose child makes 20; exits 3 if a sum or a child's exit
 *               status is wrong; then prints "churned N"
 *   exec        executes itself again, with the same arguments: a new
 *               image, with new code, starts ("fn ...", "ready ...")
 *   exit        exits
 *
 * A signal (SIGTRAP from a breakpoint nobody handles) kills it, and the
 * test sees it in the exit status.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CODE_SIZE 4096
#define SLED_PER_PAGE (CODE_SIZE - 16)	/* probed nops of a sled page */
#define G_OFF 64	/* jit_g */
#define G_CALL 4	/* its call to jit_fn, 5 bytes */

/* push %rbp; mov %rsp,%rbp; lea (%rdi,%rdi,2),%eax; add $1,%eax; pop; ret */
static const unsigned char jit_code[] = {
	0x55, 0x48, 0x89, 0xe5, 0x8d, 0x04, 0x7f, 0x83, 0xc0, 0x01, 0x5d, 0xc3,
};

/* push %rbp; mov %rsp,%rbp; call jit_fn; pop %rbp; ret */
static const unsigned char g_code[] = {
	0x55, 0x48, 0x89, 0xe5, 0xe8, 0, 0, 0, 0, 0x5d, 0xc3,
};

typedef int (*fn_t)(int);

static unsigned char *code, *copied, *sled, *scratch;
static size_t sled_size;
static int rwx;
static int use_copy, use_off;	/* what "call" calls */
static char **args;		/* for exec */

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void writable(unsigned char *mem, int on)
{
	int prot = on ? PROT_READ | PROT_WRITE : PROT_READ | PROT_EXEC;

	if (!rwx && mprotect(mem, CODE_SIZE, prot))
		die("mprotect");
}

/* jit_g at @g calls jit_fn at @fn */
static void link_g(unsigned char *g, unsigned char *fn)
{
	int rel = (int)(fn - (g + G_CALL + 5));

	memcpy(g + G_CALL + 1, &rel, sizeof(rel));
}

static void emit(void)
{
	writable(code, 1);
	memcpy(code, jit_code, sizeof(jit_code));
	memcpy(code + G_OFF, g_code, sizeof(g_code));
	link_g(code + G_OFF, code);
	writable(code, 0);
}

static void copy_code(void)
{
	int prot = PROT_READ | PROT_WRITE | (rwx ? PROT_EXEC : 0);

	if (!copied) {
		copied = mmap(NULL, CODE_SIZE, prot,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (copied == MAP_FAILED)
			die("mmap");
	}
	writable(copied, 1);
	memcpy(copied, code, G_OFF + sizeof(g_code));
	link_g(copied + G_OFF, code);
	writable(copied, 0);
	printf("copy %p\n", (void *)copied);
}

static void map_code(void)
{
	int prot = PROT_READ | PROT_WRITE | (rwx ? PROT_EXEC : 0);

	code = mmap(NULL, CODE_SIZE, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (code == MAP_FAILED)
		die("mmap");
	emit();
}

static void write_map(void)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/perf-%d.map", getpid());
	f = fopen(path, "w");
	if (!f)
		die(path);
	/* A name as V8 writes them, with its source after a space */
	fprintf(f, "%lx %zx JS:*g~[0]\\x /tmp/jit.c:64:1\n",
		(unsigned long)code + G_OFF, sizeof(g_code));
	fprintf(f, "%lx %zx jit_fn\n", (unsigned long)code, sizeof(jit_code));
	fclose(f);
	printf("fn %p\n", (void *)code);
}

/* The function "call" calls */
static fn_t in_use(void)
{
	return (fn_t)((use_copy ? copied : code) + use_off);
}

static unsigned long calls(long n)
{
	fn_t fn = in_use();
	unsigned long sum = 0;
	long i;

	for (i = 0; i < n; i++)
		sum += (unsigned int)fn((int)i);
	return sum;
}

/* calls(n) as it must be */
static unsigned long right_sum(long n)
{
	return 3 * n * (n - 1) / 2 + n;
}

static int prot_of(const char *mode)
{
	int prot = PROT_READ;

	if (strchr(mode, 'w'))
		prot |= PROT_WRITE;
	if (strchr(mode, 'x'))
		prot |= PROT_EXEC;
	return prot;
}

static void move_code(void)
{
	/* A free range of twice the size: the code moves to its second half */
	unsigned char *to = mmap(NULL, 2 * CODE_SIZE, PROT_NONE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (to == MAP_FAILED)
		die("mmap");
	code = mremap(code, CODE_SIZE, CODE_SIZE, MREMAP_MAYMOVE | MREMAP_FIXED,
		      to + CODE_SIZE);
	if (code == MAP_FAILED)
		die("mremap");
	munmap(to, CODE_SIZE);
	write_map();
}

static void run(const char *cmd, long n, const char *arg2);

/*
 * A forked child makes n calls, prints their sum line as "child sum ..."
 * if asked to, and exits 0 if the sum is right; returns its wait status.
 */
static int fork_check(long n, int print)
{
	unsigned long sum;
	pid_t pid;
	int status;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		sum = calls(n);
		if (print)
			printf("child sum %lu calls %ld\n", sum, n);
		exit(sum == right_sum(n) ? 0 : 3);
	}
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid");
	return status;
}

static void churn(long n)
{
	static const char * const changes[] = {
		"rewrite", "poke", "move", "unmap", "dontneed", "free", "prot",
	};
	int n_changes = sizeof(changes) / sizeof(changes[0]);
	unsigned int seed = 1;
	int status;
	long i;

	for (i = 0; i < n; i++) {
		const char *c = changes[rand_r(&seed) % n_changes];

		if (strcmp(c, "prot")) {
			run(c, 0, "");
		} else if (mprotect(code, CODE_SIZE, PROT_READ | PROT_EXEC) ||
			   (rwx && mprotect(code, CODE_SIZE,
					    PROT_READ | PROT_WRITE | PROT_EXEC))) {
			die("mprotect");
		}
		if (calls(50) != right_sum(50)) {
			printf("bad sum after %s\n", c);
			exit(3);
		}
		status = fork_check(20, 0);
		if (status) {
			printf("child status %d after %s\n", status, c);
			exit(3);
		}
		usleep(1000);
	}
	printf("churned %ld\n", n);
}

static void peek(unsigned long addr, long n)
{
	const volatile unsigned char *p = (const void *)addr;
	long i;

	printf("peek ");
	for (i = 0; i < n; i++)
		printf("%02x", p[i]);
	printf("\n");
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long minor_faults(void)
{
	struct rusage r;

	getrusage(RUSAGE_SELF, &r);
	return r.ru_minflt;
}

/* The byte "poke" writes: on the function's page, after its code */
static void write_next(void)
{
	*(volatile unsigned char *)&code[CODE_SIZE - 1] = 0xc3;
}

static int race_stop;
static long race_writes;

static void *race_writer(void *arg __attribute__((unused)))
{
	long n = 0;

	while (!__atomic_load_n(&race_stop, __ATOMIC_RELAXED)) {
		write_next();
		__atomic_store_n(&race_writes, ++n, __ATOMIC_RELAXED);
	}
	return NULL;
}

/*
 * n calls while a second thread keeps writing next to the code, on @cpu
 * unless it is negative
 */
static void race(long n, int cpu)
{
	long w0, w1, f0, f1;
	long long t0, t1;
	unsigned long sum;
	pthread_attr_t attr;
	pthread_t writer;
	cpu_set_t set;

	if (!rwx) {
		fprintf(stderr, "race: the code must stay writable (jit -w)\n");
		exit(1);
	}
	race_stop = 0;
	race_writes = 0;
	pthread_attr_init(&attr);
	if (cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (pthread_attr_setaffinity_np(&attr, sizeof(set), &set))
			die("pthread_attr_setaffinity_np");
	}
	if (pthread_create(&writer, &attr, race_writer, NULL))
		die("pthread_create");
	pthread_attr_destroy(&attr);
	while (!(w0 = __atomic_load_n(&race_writes, __ATOMIC_RELAXED)))
		;
	f0 = minor_faults();
	t0 = now_ns();
	sum = calls(n);
	t1 = now_ns();
	w1 = __atomic_load_n(&race_writes, __ATOMIC_RELAXED);
	f1 = minor_faults();
	__atomic_store_n(&race_stop, 1, __ATOMIC_RELAXED);
	if (pthread_join(writer, NULL))
		die("pthread_join");
	printf("sum %lu calls %ld\n", sum, n);
	printf("race writes %ld ns %lld faults %ld\n", w1 - w0, t1 - t0,
	       f1 - f0);
}

/* What a cycle of wcycle and of fcycle does before its call */
static void cycle_write(void)
{
	writable(code, 1);
	write_next();
	writable(code, 0);
}

static void cycle_fault(void)
{
	if (madvise(scratch, CODE_SIZE, MADV_DONTNEED))
		die("madvise");
	*(volatile unsigned char *)scratch = 1;
}

/* n cycles of @before (if any), then a call; timed */
static void timed(const char *cmd, long n, void (*before)(void))
{
	fn_t fn = in_use();
	unsigned long sum = 0;
	long faults, i;
	long long t;

	faults = minor_faults();
	t = now_ns();
	for (i = 0; i < n; i++) {
		if (before)
			before();
		sum += (unsigned int)fn((int)i);
	}
	t = now_ns() - t;
	faults = minor_faults() - faults;
	printf("sum %lu calls %ld\n", sum, n);
	printf("ns %s %.1f faults %.3f\n", cmd, (double)t / n,
	       (double)faults / n);
}

static void map_scratch(void)
{
	if (scratch)
		return;
	scratch = mmap(NULL, CODE_SIZE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (scratch == MAP_FAILED)
		die("mmap");
}

/* Where a sled's nop i is, from its start */
static size_t sled_at(long i)
{
	return i / SLED_PER_PAGE * CODE_SIZE + i % SLED_PER_PAGE;
}

static void map_sled(long n)
{
	int prot = PROT_READ | PROT_WRITE | (rwx ? PROT_EXEC : 0);

	if (sled && munmap(sled, sled_size))
		die("munmap");
	sled_size = (n / SLED_PER_PAGE + 1) * CODE_SIZE;
	sled = mmap(NULL, sled_size, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (sled == MAP_FAILED)
		die("mmap");
	memset(sled, 0x90, sled_size);
	sled[sled_at(n)] = 0xc3;
	if (!rwx && mprotect(sled, sled_size, PROT_READ | PROT_EXEC))
		die("mprotect");
	printf("sled %p %d\n", (void *)sled, SLED_PER_PAGE);
}

static void run(const char *cmd, long n, const char *arg2)
{
	if (!strcmp(cmd, "call")) {
		printf("sum %lu calls %ld\n", calls(n), n);
	} else if (!strcmp(cmd, "poke")) {
		struct rusage r0, r1;

		writable(code, 1);
		getrusage(RUSAGE_SELF, &r0);
		write_next();
		getrusage(RUSAGE_SELF, &r1);
		writable(code, 0);
		printf("poke faults %ld\n", r1.ru_minflt - r0.ru_minflt);
	} else if (!strcmp(cmd, "race")) {
		race(n, *arg2 ? atoi(arg2) : -1);
	} else if (!strcmp(cmd, "wcycle")) {
		timed(cmd, n, cycle_write);
	} else if (!strcmp(cmd, "fcycle")) {
		map_scratch();
		timed(cmd, n, cycle_fault);
	} else if (!strcmp(cmd, "tcall")) {
		timed(cmd, n, NULL);
	} else if (!strcmp(cmd, "sled")) {
		map_sled(n);
	} else if (!strcmp(cmd, "copy")) {
		copy_code();
	} else if (!strcmp(cmd, "patch")) {
		static const unsigned char inc[] = { 0xff, 0xc0, 0x90 };

		writable(code, 1);
		memcpy(code + 7, inc, sizeof(inc));
		writable(code, 0);
	} else if (!strcmp(cmd, "rewrite")) {
		emit();
	} else if (!strcmp(cmd, "free") || !strcmp(cmd, "dontneed")) {
		if (madvise(code, CODE_SIZE,
			    cmd[0] == 'f' ? MADV_FREE : MADV_DONTNEED))
			die("madvise");
		emit();
	} else if (!strcmp(cmd, "move")) {
		move_code();
	} else if (!strcmp(cmd, "unmap")) {
		if (munmap(code, CODE_SIZE))
			die("munmap");
		map_code();
		write_map();
	} else if (!strcmp(cmd, "fork")) {
		printf("child status %d\n", fork_check(n, 1));
	} else if (!strcmp(cmd, "churn")) {
		churn(n);
	} else if (!strcmp(cmd, "exec")) {
		fflush(stdout);
		execv("/proc/self/exe", args);
		die("exec");
	} else if (!strcmp(cmd, "exit")) {
		exit(0);
	} else {
		fprintf(stderr, "unknown command %s\n", cmd);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	char line[128], cmd[32], arg[32], arg2[32];
	int done = 0;
	FILE *in;

	args = argv;
	if (argc > 1 && !strcmp(argv[1], "-w")) {
		rwx = 1;
		argv++;
		argc--;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: jit [-w] FIFO\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* Read-write: the fifo stays open when a writer closes it */
	in = fopen(argv[1], "r+");
	if (!in)
		die(argv[1]);
	map_code();
	write_map();
	printf("ready %d\n", getpid());

	while (fgets(line, sizeof(line), in)) {
		arg[0] = arg2[0] = '\0';
		if (sscanf(line, "%31s %31s %31s", cmd, arg, arg2) < 1)
			continue;
		if (!strcmp(cmd, "prot")) {
			if (mprotect(code, CODE_SIZE, prot_of(arg)))
				die("mprotect");
		} else if (!strcmp(cmd, "peek")) {
			peek(strtoul(arg, NULL, 0), arg2[0] ? atol(arg2) : 12);
		} else if (!strcmp(cmd, "use")) {
			use_copy = !strncmp(arg, "copy", 4);
			use_off = arg[strlen(arg) - 1] == 'g' ? G_OFF : 0;
			if (use_copy && !copied)
				copy_code();
		} else {
			run(cmd, atol(arg), arg2);
		}
		printf("done %d %s", ++done, line);
	}
	return 0;
}
