// SPDX-License-Identifier: GPL-2.0
/*
 * A breakpoint the way a debugger places one, for comparison with uprobes.
 *
 *   ptrace-bp PID VADDR
 *
 * Attaches to PID, writes int3 over the byte at VADDR with PTRACE_POKETEXT
 * and prints "armed".  On each SIGTRAP at the breakpoint it puts the
 * original byte back, moves rip back by one, single-steps the instruction,
 * writes int3 again and lets the process go on.  Other signals are passed
 * on.  On SIGTERM it stops the process, takes the breakpoint out and
 * detaches; when it detaches or the process exits it prints "hits <n>".
 * One thread only; send SIGTERM while the process is not hitting the
 * breakpoint (between two runs of tests/bench/bench.c, say).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/user.h>
#include <sys/wait.h>

static pid_t pid;
static unsigned long addr;
static long orig, hits;
static volatile sig_atomic_t detach;

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void on_term(int sig)
{
	(void)sig;
	detach = 1;
}

static void done(void)
{
	printf("hits %ld\n", hits);
	exit(0);
}

static void poke(long word)
{
	if (ptrace(PTRACE_POKETEXT, pid, (void *)addr, (void *)word) < 0)
		die("PTRACE_POKETEXT");
}

/* Stop the process, restore the original byte and let it go. */
static void detach_now(void)
{
	int status;

	kill(pid, SIGSTOP);
	do {
		if (waitpid(pid, &status, 0) < 0)
			die("waitpid");
		if (WIFEXITED(status) || WIFSIGNALED(status))
			done();
	} while (WSTOPSIG(status) != SIGSTOP);
	poke(orig);
	if (ptrace(PTRACE_DETACH, pid, NULL, NULL) < 0)
		die("PTRACE_DETACH");
	done();
}

/* The signal of the next stop; exits once the process has ended. */
static int next_stop(void)
{
	int status;

	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			die("waitpid");
		if (detach)
			detach_now();
	}
	if (WIFEXITED(status) || WIFSIGNALED(status))
		done();
	return WSTOPSIG(status);
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_term };
	struct user_regs_struct regs;
	int sig;

	if (argc != 3) {
		fprintf(stderr, "usage: ptrace-bp PID VADDR\n");
		return 2;
	}
	pid = atoi(argv[1]);
	addr = strtoul(argv[2], NULL, 0);
	setvbuf(stdout, NULL, _IOLBF, 0);
	sigaction(SIGTERM, &sa, NULL);	/* no SA_RESTART: waitpid returns */

	if (ptrace(PTRACE_ATTACH, pid, NULL, NULL) < 0)
		die("PTRACE_ATTACH");
	next_stop();
	errno = 0;
	orig = ptrace(PTRACE_PEEKTEXT, pid, (void *)addr, NULL);
	if (errno)
		die("PTRACE_PEEKTEXT");
	poke((orig & ~0xffL) | 0xcc);
	printf("armed\n");

	sig = 0;
	for (;;) {
		if (detach)
			detach_now();
		if (ptrace(PTRACE_CONT, pid, NULL, (void *)(long)sig) < 0)
			die("PTRACE_CONT");
		sig = next_stop();
		if (sig != SIGTRAP)
			continue;	/* passed on by the next PTRACE_CONT */
		if (ptrace(PTRACE_GETREGS, pid, NULL, &regs) < 0)
			die("PTRACE_GETREGS");
		if (regs.rip - 1 != addr)
			continue;	/* a SIGTRAP that is not ours */
		hits++;
		poke(orig);
		regs.rip = addr;
		if (ptrace(PTRACE_SETREGS, pid, NULL, &regs) < 0)
			die("PTRACE_SETREGS");
		if (ptrace(PTRACE_SINGLESTEP, pid, NULL, NULL) < 0)
			die("PTRACE_SINGLESTEP");
		if (next_stop() != SIGTRAP) {
			fprintf(stderr, "ptrace-bp: unexpected stop after a step\n");
			return 1;
		}
		poke((orig & ~0xffL) | 0xcc);
		sig = 0;
	}
}
