/* The probe object of tp-test.h, and the module's tracepoint definitions. */
#define TRACEPOINT_CREATE_PROBES
#define TRACEPOINT_DEFINE
#include "tp-test.h"
