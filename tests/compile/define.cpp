// define.cpp - the tracepoint definitions, compiled as C++.
#define TRACEPOINT_DEFINE
#include "tp-compile.h"
