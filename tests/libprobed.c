// SPDX-License-Identifier: GPL-2.0
/* A library with one probed function, for tests whose probe target moves. */

__attribute__((noinline)) unsigned long probed_lib(unsigned long x)
{
	return (x * 2654435761UL) ^ (x >> 7);
}
