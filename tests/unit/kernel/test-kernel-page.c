#include "ltt-test.h"
#include "kernel/kernel.h"
TEST(placeholder) { ASSERT_TRUE(1); }
