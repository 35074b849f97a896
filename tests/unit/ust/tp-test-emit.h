/* tp-test-emit.h - see tp-test-emit.c. */
#ifndef LTT_TP_TEST_EMIT_H
#define LTT_TP_TEST_EMIT_H

/* Emits one event of each kind of tp-test.h, with fixed values. */
void tp_test_emit_all(void);

#endif
