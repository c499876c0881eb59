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
 *   rewrite     writes the function again, the same bytes (a JIT that
 *               recompiles in place)
 *   peek ADDR   prints "peek <hex>": the 12 bytes at ADDR as this process
 *               reads them (what it runs: a debugger reading
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define CODE_SIZE 4096
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

static unsigned char *code, *copied;
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

static unsigned long calls(long n)
{
	fn_t fn = (fn_t)((use_copy ? copied : code) + use_off);
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

static void run(const char *cmd, long n);

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
			run(c, 0);
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

static void peek(unsigned long addr)
{
	const volatile unsigned char *p = (const void *)addr;
	int i;

	printf("peek ");
	for (i = 0; i < 12; i++)
		printf("%02x", p[i]);
	printf("\n");
}

static void run(const char *cmd, long n)
{
	if (!strcmp(cmd, "call")) {
		printf("sum %lu calls %ld\n", calls(n), n);
	} else if (!strcmp(cmd, "poke")) {
		struct rusage r0, r1;

		writable(code, 1);
		getrusage(RUSAGE_SELF, &r0);
		*(volatile unsigned char *)&code[CODE_SIZE - 1] = 0xc3;
		getrusage(RUSAGE_SELF, &r1);
		writable(code, 0);
		printf("poke faults %ld\n", r1.ru_minflt - r0.ru_minflt);
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
	char line[128], cmd[32], arg[32];
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
		arg[0] = '\0';
		if (sscanf(line, "%31s %31s", cmd, arg) < 1)
			continue;
		if (!strcmp(cmd, "prot")) {
			if (mprotect(code, CODE_SIZE, prot_of(arg)))
				die("mprotect");
		} else if (!strcmp(cmd, "peek")) {
			peek(strtoul(arg, NULL, 0));
		} else if (!strcmp(cmd, "use")) {
			use_copy = !strncmp(arg, "copy", 4);
			use_off = arg[strlen(arg) - 1] == 'g' ? G_OFF : 0;
			if (use_copy && !copied)
				copy_code();
		} else {
			run(cmd, atol(arg));
		}
		printf("done %d %s", ++done, line);
	}
	return 0;
}
