// xmc.c - user-space imitation of uprobes' XOL slot use, no uprobes at all.
//
// A memfd page is mapped twice (RW alias + RX alias, like the kernel writing
// the XOL page through its own mapping while the task executes it through
// the user mapping), or once RWX (mode rwx).  NTHREADS threads loop:
//   take a slot (find_first_zero_bit + test_and_set_bit, as xol_take_insn_slot)
//   write their own "mov $imm32,%eax; ret" (16 bytes, as arch_uprobe_copy_ixol)
//   [optionally cpuid]  call it through the executable alias, check %eax
//   free the slot (clear_bit, as xol_free_insn_slot)
// A wrong result means the thread executed code other than the bytes it had
// just written: a stale translation (QEMU) or a cross-modifying-code bug.
//
// tests/mttcg/run runs it; Documentation/reliability.md has the results.
//
// usage: xmc MODE SECONDS [NTHREADS]
//   MODE: alias | rwx | alias-cpuid | rwx-cpuid | own | own-cpuid | own-rwx,
//         any with "-flush": after a wrong result, madvise(MADV_DONTNEED)
//         the RW alias (shmem keeps the data; the guest kernel zaps the
//         PTE and flushes the TLB, so QEMU drops its soft-TLB entry)
//   shared modes: slots shared through the bitmap, imm = per-thread constant
//   own modes: each thread has a fixed private slot on the same page and
//              writes a fresh imm (its iteration count) each time, so a
//              stale translation of its *own* earlier write is detected.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096
#define SLOT 128
#define NSLOTS (PAGE / SLOT)

static unsigned char *rw, *rx;
static _Atomic unsigned long bitmap;
static volatile int stop;
static int use_cpuid, own, flush;
static double t0;

struct th {
	int id;
	pthread_t t;
	unsigned long iters, fails, episodes;
	int last_bad;
	double first_fail;
	uint32_t bad_val;
	int bad_slot;
} th[16];

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int take_slot(void)
{
	for (;;) {
		unsigned long b = atomic_load(&bitmap);
		if (~b == 0)
			continue;
		int nr = __builtin_ctzl(~b);
		if (nr >= NSLOTS)
			continue;
		if (!(atomic_fetch_or(&bitmap, 1UL << nr) & (1UL << nr)))
			return nr;
	}
}

static void free_slot(int nr)
{
	atomic_fetch_and(&bitmap, ~(1UL << nr));
}

static inline void serialize(void)
{
	unsigned a = 0, b, c = 0, d;
	__asm__ volatile("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d) :: "memory");
}

static void *run(void *arg)
{
	struct th *t = arg;
	uint32_t base = 0x11111111u * (t->id + 1);

	while (!stop) {
		int nr = own ? t->id : take_slot();
		uint32_t imm = own ? (uint32_t)(t->id << 28 | (t->iters & 0x0fffffff)) : base;
		unsigned char code[16];
		memset(code, 0x90, sizeof(code));
		code[0] = 0xb8;			/* mov $imm32,%eax */
		memcpy(code + 1, &imm, 4);
		code[5] = 0xc3;			/* ret */
		memcpy(rw + nr * SLOT, code, sizeof(code));
		if (use_cpuid)
			serialize();
		uint32_t (*fn)(void) = (uint32_t (*)(void))(rx + nr * SLOT);
		uint32_t got = fn();
		if (got != imm) {
			if (!t->fails++) {
				t->first_fail = now() - t0;
				t->bad_val = got;
				t->bad_slot = nr;
			}
			if (!t->last_bad)
				t->episodes++;
			t->last_bad = 1;
			if (flush)	/* guest kernel zaps the PTEs and flushes the TLB */
				madvise(rw, PAGE, MADV_DONTNEED);
		} else {
			t->last_bad = 0;
		}
		if (!own)
			free_slot(nr);
		t->iters++;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: xmc MODE SECONDS [NTHREADS]\n");
		return 2;
	}
	const char *mode = argv[1];
	int secs = atoi(argv[2]);
	int n = argc > 3 ? atoi(argv[3]) : 2;
	int rwx = strstr(mode, "rwx") != NULL;
	use_cpuid = strstr(mode, "cpuid") != NULL;
	own = strncmp(mode, "own", 3) == 0;
	flush = strstr(mode, "flush") != NULL;

	int fd = memfd_create("xol", 0);
	if (fd < 0 || ftruncate(fd, PAGE)) {
		perror("memfd");
		return 2;
	}
	if (rwx) {
		rw = rx = mmap(NULL, PAGE, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_SHARED, fd, 0);
	} else {
		rw = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		rx = mmap(NULL, PAGE, PROT_READ | PROT_EXEC, MAP_SHARED, fd, 0);
	}
	if (rw == MAP_FAILED || rx == MAP_FAILED) {
		perror("mmap");
		return 2;
	}
	t0 = now();
	for (int i = 0; i < n; i++) {
		th[i].id = i;
		pthread_create(&th[i].t, NULL, run, &th[i]);
	}
	sleep(secs);
	stop = 1;
	unsigned long it = 0, f = 0;
	for (int i = 0; i < n; i++) {
		pthread_join(th[i].t, NULL);
		it += th[i].iters;
		f += th[i].fails;
		printf("xmc %s thread %d: %lu iterations, %lu wrong in %lu episodes", mode, i, th[i].iters, th[i].fails, th[i].episodes);
		if (th[i].fails)
			printf(" (first at %.2fs: slot %d returned %#x)", th[i].first_fail, th[i].bad_slot, th[i].bad_val);
		printf("\n");
	}
	printf("xmc %s: %d threads %ds: %lu iterations, %lu wrong\n", mode, n, secs, it, f);
	return f ? 1 : 0;
}
