/*
 * macros.h - small language helpers shared by every part of ltt.
 * Header-only; may be included by code on the tracing fast path.
 */
#ifndef LTT_UTIL_MACROS_H
#define LTT_UTIL_MACROS_H

#include <stddef.h>
#include <stdint.h>

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

/* Exported from a shared library; everything else is hidden by default. */
#define LTT_EXPORT __attribute__((visibility("default")))

/* Rounds v up to a multiple of align, a power of two. */
static inline uint64_t align_up(uint64_t v, uint64_t align)
{
	return (v + align - 1) & ~(align - 1);
}

/* Bytes of padding that bring v to a multiple of align, a power of two. */
static inline uint64_t align_pad(uint64_t v, uint64_t align)
{
	return (align - (v & (align - 1))) & (align - 1);
}

static inline int is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

#define _cleanup_(f) __attribute__((cleanup(f)))

#endif /* LTT_UTIL_MACROS_H */
