/* tp-lib.so: a dlopen'ed module with its own provider and call sites. */
#define TRACEPOINT_CREATE_PROBES
#define TRACEPOINT_DEFINE
/* All its call sites are in this module: hidden tracepoints (no GOT). */
#define TRACEPOINT_HIDDEN_DEFINITION
#include "tp-lib.h"

void tp_lib_emit(int v);

void tp_lib_emit(int v)
{
	tracepoint(ltt_lib, hello, v);
}
