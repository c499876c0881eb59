// SPDX-License-Identifier: GPL-2.0
/*
 * A debugger's breakpoint, from setting it to its first stop.
 *
 *   bpstop PID ADDRESS SECONDS
 *
 * Attaches to process PID with ptrace, sets an int3 at ADDRESS with
 * PTRACE_POKETEXT, prints "set <byte that was there>" and lets the process
 * run.  When the process stops with SIGTRAP with its pc just after
 * ADDRESS, prints "stopped at ADDRESS", puts the byte back, moves the pc
 * back to ADDRESS and detaches, as a debugger does, and exits 0.  Other
 * signals are passed on.  With no such stop within SECONDS, or when the
 * process exits first, prints "no stop" and exits 1 (the byte put back if
 * the process is still there).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

static pid_t pid;
static unsigned long addr;
static long orig;

static void die(const char *what)
{
	perror(what);
	exit(2);
}

static void on_alarm(int sig)
{
	(void)sig;
}

/* Stop the running process and wait until it is stopped */
static void interrupt(void)
{
	int st;

	if (ptrace(PTRACE_INTERRUPT, pid, 0, 0))
		die("PTRACE_INTERRUPT");
	if (waitpid(pid, &st, __WALL) != pid)
		die("waitpid");
}

static void restore(void)
{
	if (ptrace(PTRACE_POKETEXT, pid, addr, orig))
		die("PTRACE_POKETEXT");
}

static int no_stop(int alive)
{
	if (alive) {
		interrupt();
		restore();
		if (ptrace(PTRACE_DETACH, pid, 0, 0))
			die("PTRACE_DETACH");
	}
	printf("no stop\n");
	return 1;
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	struct user_regs_struct regs;
	int st, sig;

	if (argc != 4) {
		fprintf(stderr, "usage: bpstop PID ADDRESS SECONDS\n");
		return 2;
	}
	pid = atoi(argv[1]);
	addr = strtoul(argv[2], NULL, 0);

	if (ptrace(PTRACE_SEIZE, pid, 0, 0))
		die("PTRACE_SEIZE");
	interrupt();
	errno = 0;
	orig = ptrace(PTRACE_PEEKTEXT, pid, addr, 0);
	if (errno)
		die("PTRACE_PEEKTEXT");
	if (ptrace(PTRACE_POKETEXT, pid, addr, (orig & ~0xffL) | 0xcc))
		die("PTRACE_POKETEXT");
	printf("set %02lx\n", orig & 0xff);
	fflush(stdout);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	alarm(atoi(argv[3]));
	sig = 0;
	for (;;) {
		if (ptrace(PTRACE_CONT, pid, 0, sig))
			die("PTRACE_CONT");
		if (waitpid(pid, &st, __WALL) != pid) {
			if (errno == EINTR)
				return no_stop(1);
			die("waitpid");
		}
		if (WIFEXITED(st) || WIFSIGNALED(st))
			return no_stop(0);
		sig = WSTOPSIG(st);
		if (st >> 16 == PTRACE_EVENT_STOP)
			sig = 0;	/* a group stop or our interrupt */
		if (sig != SIGTRAP)
			continue;
		if (ptrace(PTRACE_GETREGS, pid, 0, &regs))
			die("PTRACE_GETREGS");
		if (regs.rip != addr + 1)
			continue;
		break;
	}
	alarm(0);
	printf("stopped at 0x%lx\n", addr);
	restore();
	regs.rip = addr;
	if (ptrace(PTRACE_SETREGS, pid, 0, &regs))
		die("PTRACE_SETREGS");
	if (ptrace(PTRACE_DETACH, pid, 0, 0))
		die("PTRACE_DETACH");
	return 0;
}
