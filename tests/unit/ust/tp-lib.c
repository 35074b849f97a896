/* tp-lib.so: a dlopen'ed module with its own provider and call sites. */
#define TRACEPOINT_CREATE_PROBES
#define TRACEPOINT_DEFINE
#include "tp-lib.h"

void tp_lib_emit(int v);

void tp_lib_emit(int v)
{
	tracepoint(ltt_lib, hello, v);
}
