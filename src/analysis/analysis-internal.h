/*
 * analysis-internal.h - helpers shared by the analyses (src/analysis only).
 */
#ifndef LTT_ANALYSIS_INTERNAL_H
#define LTT_ANALYSIS_INTERNAL_H

#include <stdint.h>

/* FNV-1a of a string: the analyses' table keys. */
static inline uint64_t an_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

#endif /* LTT_ANALYSIS_INTERNAL_H */
