/* tp-dyn-emit.h - the call site of ltt_dyn:ping (tp-dyn-define.c). */
#ifndef LTT_TEST_TP_DYN_EMIT_H
#define LTT_TEST_TP_DYN_EMIT_H
void tp_dyn_emit(int v, const char *s);
#endif
