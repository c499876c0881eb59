// SPDX-License-Identifier: GPL-2.0
/*
 * LD_PRELOAD=hold-write.so HOLD_DIR=DIR perf probe ...
 *
 * Holds perf probe just before its first write of an event definition to
 * uprobe_events: creates DIR/waiting, waits until DIR/go exists, then
 * writes.  Tests use the pause to change the world between perf probe's
 * reading of a process and its write (the pid's process exits and another
 * one gets the pid).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int is_definition(int fd, const char *buf, size_t n)
{
	char link[64], path[PATH_MAX];
	ssize_t len;

	if (n < 2 || (memcmp(buf, "p:", 2) && memcmp(buf, "r:", 2)))
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	len = readlink(link, path, sizeof(path) - 1);
	if (len < 0)
		return 0;
	path[len] = '\0';
	return strstr(path, "/uprobe_events") != NULL;
}

ssize_t write(int fd, const void *buf, size_t n)
{
	static ssize_t (*real_write)(int, const void *, size_t);
	static int held;
	const char *dir = getenv("HOLD_DIR");
	char file[PATH_MAX];

	if (!real_write)
		real_write = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	if (dir && !held && is_definition(fd, buf, n)) {
		held = 1;
		snprintf(file, sizeof(file), "%s/waiting", dir);
		close(open(file, O_CREAT | O_WRONLY, 0644));
		snprintf(file, sizeof(file), "%s/go", dir);
		while (access(file, F_OK))
			usleep(10000);
	}
	return real_write(fd, buf, n);
}
