/* bench-tp-probes.c - the probes of bench-tp.h (for either tracer). */
#define TRACEPOINT_CREATE_PROBES
#define TRACEPOINT_DEFINE
#include "bench-tp.h"
