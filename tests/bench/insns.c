// SPDX-License-Identifier: GPL-2.0
/*
 * A QEMU TCG plugin that counts the guest instructions a piece of guest
 * code takes, for make bench's "cost when unused" (section 8), where time
 * under TCG varies with the kernel's layout by more than the 1% to judge.
 *
 *   qemu-system-x86_64 -plugin insns.so -d plugin -D LOG ...
 *
 * Every translation block adds its instruction count to its vCPU's
 * counter when it runs.  The guest marks what to count with a 7-byte
 * "nopl DISP(%rax)" (0f 1f 80 + DISP) whose displacement is MARK_MAGIC,
 * one of the kinds below in bits 8-11 and a tag (0-255) in bits 0-7; no
 * compiler pads with such a displacement.  On the marking vCPU:
 *   RESUME  starts counting
 *   PAUSE   stops counting, keeping what was counted
 *   END     stops counting and records the window's count under the tag
 *   REPORT  writes "insns TAG WINDOWS MEDIAN Q1 Q3" to LOG for the tag's
 *           windows since its last report, and forgets them
 * Interrupts and other tasks that run on the vCPU inside a window are
 * counted with it; the median over many windows leaves them out.
 * Instruction counts are those of whole blocks, so a block left early by
 * an exception counts in full; that is the same on any kernel.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* QEMU's plugin ABI, version 1 (QEMU 7.2): the few calls used here. */
typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
struct qemu_info;
typedef void (*tb_trans_cb)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*vcpu_cb)(unsigned int vcpu, void *data);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, tb_trans_cb cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
					  vcpu_cb cb, int flags, void *data);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    vcpu_cb cb, int flags, void *data);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
						 size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
void qemu_plugin_outs(const char *string);

#define EXPORT __attribute__((visibility("default")))
EXPORT int qemu_plugin_version = 1;

#define MARK_MAGIC	0x5bec0000u
#define MARK_RESUME	1
#define MARK_PAUSE	2
#define MARK_END	3
#define MARK_REPORT	4
#define MAX_VCPUS	64
#define TAGS		256

struct vcpu {
	uint64_t count;		/* instructions run by this vCPU */
	uint64_t base;		/* count when the window last resumed */
	uint64_t window;	/* counted in the window so far */
	bool open;
};

struct tag {
	uint64_t *w;
	size_t n, size;
};

static struct vcpu vcpus[MAX_VCPUS];
static struct tag tags[TAGS];

static void block_run(unsigned int vcpu, void *n)
{
	vcpus[vcpu % MAX_VCPUS].count += (uintptr_t)n;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void record(struct tag *t, uint64_t n)
{
	if (t->n == t->size) {
		t->size = t->size ? 2 * t->size : 1024;
		t->w = realloc(t->w, t->size * sizeof(*t->w));
		if (!t->w)
			abort();
	}
	t->w[t->n++] = n;
}

static void report(unsigned int tag)
{
	struct tag *t = &tags[tag];
	char line[128];

	if (!t->n)
		return;
	qsort(t->w, t->n, sizeof(*t->w), cmp_u64);
	snprintf(line, sizeof(line), "insns %u %zu %llu %llu %llu\n", tag, t->n,
		 (unsigned long long)t->w[t->n / 2],
		 (unsigned long long)t->w[t->n / 4],
		 (unsigned long long)t->w[t->n * 3 / 4]);
	qemu_plugin_outs(line);
	t->n = 0;
}

static void mark(unsigned int vcpu, void *data)
{
	uint32_t disp = (uintptr_t)data;
	struct vcpu *v = &vcpus[vcpu % MAX_VCPUS];

	switch (disp >> 8 & 0xf) {
	case MARK_RESUME:
		v->base = v->count;
		v->open = true;
		break;
	case MARK_PAUSE:
		if (v->open)
			v->window += v->count - v->base;
		v->open = false;
		break;
	case MARK_END:
		if (v->open)
			v->window += v->count - v->base;
		record(&tags[disp & 0xff], v->window);
		v->window = 0;
		v->open = false;
		break;
	case MARK_REPORT:
		report(disp & 0xff);
		break;
	}
}

/* The displacement of a marking nopl, or 0. */
static uint32_t mark_of(const struct qemu_plugin_insn *insn)
{
	const uint8_t *b = qemu_plugin_insn_data(insn);
	uint32_t disp;

	if (qemu_plugin_insn_size(insn) != 7 || b[0] != 0x0f || b[1] != 0x1f ||
	    b[2] != 0x80)
		return 0;
	memcpy(&disp, b + 3, sizeof(disp));
	return (disp & 0xffff0000u) == MARK_MAGIC ? disp : 0;
}

static void translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	(void)id;
	size_t i, n = qemu_plugin_tb_n_insns(tb);
	struct qemu_plugin_insn *insn;
	uint32_t disp;

	qemu_plugin_register_vcpu_tb_exec_cb(tb, block_run, 0, (void *)n);
	for (i = 0; i < n; i++) {
		insn = qemu_plugin_tb_get_insn(tb, i);
		disp = mark_of(insn);
		if (disp)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, mark, 0,
							       (void *)(uintptr_t)disp);
	}
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const struct qemu_info *info,
			       int argc, char **argv)
{
	(void)info;
	(void)argc;
	(void)argv;
	qemu_plugin_register_vcpu_tb_trans_cb(id, translated);
	return 0;
}
