/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for <linux/bitops.h> and <linux/find.h>. */
#ifndef TW_US_LINUX_BITOPS_H
#define TW_US_LINUX_BITOPS_H

#include <linux/types.h>

#define BIT(nr)			(1UL << (nr))
#define BIT_WORD(nr)		((nr) / BITS_PER_LONG)
#define BIT_MASK(nr)		(1UL << ((nr) % BITS_PER_LONG))

/*
 * On x86-64 the kernel's non-atomic bit operations are single bts, btr and
 * bt instructions (arch/x86/include/asm/bitops.h); the same here keeps
 * user-space instruction counts those of the module.
 */
#ifdef __x86_64__
static inline void __set_bit(unsigned long nr, unsigned long *map)
{
	asm volatile("btsq %1,%0" : "+m" (*(volatile long *)map) : "Ir" (nr) : "memory");
}

static inline void __clear_bit(unsigned long nr, unsigned long *map)
{
	asm volatile("btrq %1,%0" : "+m" (*(volatile long *)map) : "Ir" (nr) : "memory");
}

static inline bool test_bit(unsigned long nr, const unsigned long *map)
{
	bool old;

	asm volatile("btq %2,%1" : "=@ccc" (old)
		     : "m" (*(const volatile long *)map), "Ir" (nr) : "memory");
	return old;
}
#else
static inline void __set_bit(unsigned long nr, unsigned long *map)
{
	map[BIT_WORD(nr)] |= BIT_MASK(nr);
}

static inline void __clear_bit(unsigned long nr, unsigned long *map)
{
	map[BIT_WORD(nr)] &= ~BIT_MASK(nr);
}

static inline bool test_bit(unsigned long nr, const unsigned long *map)
{
	return map[BIT_WORD(nr)] & BIT_MASK(nr);
}
#endif

static inline bool __test_and_clear_bit(unsigned long nr, unsigned long *map)
{
	bool was = test_bit(nr, map);

	__clear_bit(nr, map);
	return was;
}

/* The highest set bit's number; x must not be 0 (x86-64: one bsr). */
static inline unsigned long __fls(unsigned long x)
{
#ifdef __x86_64__
	asm("bsrq %1,%0" : "=r" (x) : "rm" (x));
	return x;
#else
	return BITS_PER_LONG - 1 - __builtin_clzl(x);
#endif
}

/* The lowest set bit's number; x must not be 0 (x86-64: one bsf). */
static inline unsigned long __ffs(unsigned long x)
{
#ifdef __x86_64__
	asm("rep; bsfq %1,%0" : "=r" (x) : "rm" (x));
	return x;
#else
	return __builtin_ctzl(x);
#endif
}

#define BIT_ULL(nr)		(1ULL << (nr))

static inline unsigned long __ffs64(u64 x)
{
	return __builtin_ctzll(x);
}

/* word rotated right by shift (0..63) */
static inline u64 ror64(u64 word, unsigned int shift)
{
	return (word >> (shift & 63)) | (word << (-shift & 63));
}

/* The first set bit at or after offset, or size when there is none. */
static inline unsigned long find_next_bit(const unsigned long *map,
					  unsigned long size,
					  unsigned long offset)
{
	unsigned long word, base;

	if (offset >= size)
		return size;
	base = offset - offset % BITS_PER_LONG;
	word = map[BIT_WORD(offset)] & (~0UL << (offset % BITS_PER_LONG));
	while (!word) {
		base += BITS_PER_LONG;
		if (base >= size)
			return size;
		word = map[BIT_WORD(base)];
	}
	base += __builtin_ctzl(word);
	return base < size ? base : size;
}

static inline unsigned long find_first_bit(const unsigned long *map,
					   unsigned long size)
{
	return find_next_bit(map, size, 0);
}

#endif /* TW_US_LINUX_BITOPS_H */
