/* define.c - the tracepoint definitions of the program (C). */
#define TRACEPOINT_DEFINE
#include "tp-compile.h"
