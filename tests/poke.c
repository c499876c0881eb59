// SPDX-License-Identifier: GPL-2.0
/*
 * Set or clear a breakpoint in a process as a debugger does.
 *
 *   poke PID ADDRESS [BYTE]
 *
 * Writes BYTE (hex, cc if not given) at ADDRESS of process PID with
 * ptrace(PTRACE_POKETEXT), prints the byte that was there, and detaches.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ptrace.h>
#include <sys/wait.h>

static void die(const char *what)
{
	perror(what);
	exit(1);
}

int main(int argc, char **argv)
{
	unsigned long addr, byte = 0xcc;
	long word;
	pid_t pid;
	int st;

	if (argc < 3)
		return 2;
	pid = atoi(argv[1]);
	addr = strtoul(argv[2], NULL, 0);
	if (argc > 3)
		byte = strtoul(argv[3], NULL, 16) & 0xff;

	if (ptrace(PTRACE_SEIZE, pid, 0, 0) || ptrace(PTRACE_INTERRUPT, pid, 0, 0))
		die("ptrace attach");
	if (waitpid(pid, &st, 0) != pid)
		die("waitpid");
	errno = 0;
	word = ptrace(PTRACE_PEEKTEXT, pid, addr, 0);
	if (errno)
		die("PTRACE_PEEKTEXT");
	if (ptrace(PTRACE_POKETEXT, pid, addr, (word & ~0xffL) | byte))
		die("PTRACE_POKETEXT");
	if (ptrace(PTRACE_DETACH, pid, 0, 0))
		die("PTRACE_DETACH");
	printf("%02lx\n", word & 0xff);
	return 0;
}
