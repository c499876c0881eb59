// SPDX-License-Identifier: GPL-2.0
/*
 * A small library built twice: libprobed.so, and libprobed-b.so with
 * -DPADDED, where a never-called run of nops sits before the rest.  The
 * two builds have lib_probed() at different file offsets, and the offsets
 * of one build are nops in the other: a probe placed from the wrong build
 * is never hit rather than breaking the program.
 *
 * lib_step() is inlined into lib_even() and lib_odd(): a spec with two
 * addresses, each hit by half of the calls of lib_probed().
 *
 * lib_semaphore is where an SDT semaphore is: in the file's writable data.
 */
__attribute__((section(".probes"), used)) unsigned short lib_semaphore;

#ifdef PADDED
__attribute__((noinline, used)) void lib_padding(void)
{
	asm volatile(".skip 4096, 0x90");
}
#endif

static inline __attribute__((always_inline)) unsigned long lib_step(unsigned long x)
{
	asm volatile("" : "+r"(x));
	return (x ^ (x >> 7)) * 2654435761UL;
}

__attribute__((noinline)) unsigned long lib_even(unsigned long x)
{
	return lib_step(x) + 1;
}

__attribute__((noinline)) unsigned long lib_odd(unsigned long x)
{
	return lib_step(x) + 3;
}

__attribute__((noinline)) unsigned long lib_probed(unsigned long x)
{
	return x & 1 ? lib_odd(x) : lib_even(x);
}
