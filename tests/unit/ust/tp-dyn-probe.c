/* tp-dyn-probe.so: the probes of tp-dyn.h, loaded with dlopen. */
#define TRACEPOINT_CREATE_PROBES
#include "tp-dyn.h"
