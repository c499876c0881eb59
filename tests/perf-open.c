// SPDX-License-Identifier: GPL-2.0
/*
 * Open a tracepoint event with perf_event_open() and count it.
 *
 *   perf-open ID PID CPU SECONDS
 *
 * Opens tracepoint ID for PID (0: this process, -1: any) on CPU (-1: any),
 * inherited by the threads it creates later, prints "open", sleeps SECONDS
 * and prints the count.  If the open fails it
 * prints the error and exits 1.
 */
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct perf_event_attr attr;
	uint64_t count;
	int fd;

	if (argc != 5)
		return 2;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.config = strtoull(argv[1], NULL, 0);
	attr.inherit = 1;
	fd = syscall(SYS_perf_event_open, &attr, atoi(argv[2]), atoi(argv[3]),
		     -1, 0);
	if (fd < 0) {
		perror("perf_event_open");
		return 1;
	}
	printf("open\n");
	fflush(stdout);
	sleep(atoi(argv[4]));
	if (read(fd, &count, sizeof(count)) != sizeof(count)) {
		perror("read");
		return 1;
	}
	printf("count %llu\n", (unsigned long long)count);
	return 0;
}
