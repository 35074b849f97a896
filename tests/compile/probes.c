/* probes.c - the probe object (the probe pass is C only). */
#define TRACEPOINT_CREATE_PROBES
#include "tp-compile.h"
