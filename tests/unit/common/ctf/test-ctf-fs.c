#include "ltt-test.h"
