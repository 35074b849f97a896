/*
 * <ltt/tracepoint-callsite.h> - internal to <ltt/tracepoint.h>: the
 * call-site pass. No include guard: <ltt/tracepoint.h> reads it at each
 * inclusion (what it defines depends on TRACEPOINT_DEFINE and
 * TRACEPOINT_PROBE_DYNAMIC_LINKAGE as set then), and
 * <ltt/tracepoint-event.h> reads it after its passes to restore these
 * definitions for the provider headers that follow.
 *
 * For each event it declares (every file):
 *   struct ltt_tracepoint ltt_tp__P___E;       the state word and name
 *   void ltt_probe__P___E(TP_ARGS);            the probe (static linkage)
 *   static inline ltt_tp_call__P___E(TP_ARGS); what the call site calls
 * and, in the file that defines TRACEPOINT_DEFINE, defines the tracepoint,
 * puts a pointer to it in the section ltt_tracepoints_ptrs, and (once per
 * file) a constructor and destructor that register the module's section
 * with libltt-ust (once per module: a weak hidden counter).
 */
#if defined(TRACEPOINT_DEFINE) && !defined(LTT_TRACEPOINT_DEFINE) && \
	!defined(LTT_TRACEPOINT_NO_CLASSIC)
#define LTT_TRACEPOINT_DEFINE
#endif
#if defined(TRACEPOINT_PROBE_DYNAMIC_LINKAGE) && \
	!defined(LTT_TRACEPOINT_PROBE_DYNAMIC_LINKAGE) && !defined(LTT_TRACEPOINT_NO_CLASSIC)
#define LTT_TRACEPOINT_PROBE_DYNAMIC_LINKAGE
#endif

/*
 * LTT_TRACEPOINT_HIDDEN_DEFINITION (or TRACEPOINT_HIDDEN_DEFINITION), in
 * every file of a module: its tracepoints are hidden symbols, so that call
 * sites in a shared object reach the state word without going through the
 * GOT (one load instead of two). Only when all the call sites are in the
 * module that defines the tracepoints.
 */
#if defined(TRACEPOINT_HIDDEN_DEFINITION) && !defined(LTT_TRACEPOINT_HIDDEN_DEFINITION) && \
	!defined(LTT_TRACEPOINT_NO_CLASSIC)
#define LTT_TRACEPOINT_HIDDEN_DEFINITION
#endif
#undef LTT__TP_VISIBILITY
#ifdef LTT_TRACEPOINT_HIDDEN_DEFINITION
#define LTT__TP_VISIBILITY __attribute__((visibility("hidden")))
#else
#define LTT__TP_VISIBILITY
#endif

#ifdef __cplusplus
#define LTT__TP_EXTERN_C extern "C"
#else
#define LTT__TP_EXTERN_C extern
#endif

/* The call: direct to the probe, or through the pointer libltt-ust installs. */
#undef LTT__TP_CALL
#ifdef LTT_TRACEPOINT_PROBE_DYNAMIC_LINKAGE
#define LTT__TP_CALL(provider, name, args)                                      \
	static inline void LTT__TP_SYM(ltt_tp_call__, provider, name)(LTT__TP_PROTO(args)) \
	{                                                                       \
		/* Acquire: pairs with the release store of the probe pointer  \
		 * in libltt-ust, after which the probe's object is loaded. */ \
		void (*ltt__fp)(LTT__TP_PROTO(args)) = (void (*)(LTT__TP_PROTO(args)))  \
			__atomic_load_n(&LTT__TP_SYM(ltt_tp__, provider, name).probe, \
					__ATOMIC_ACQUIRE);                      \
		if (ltt__fp)                                                    \
			ltt__fp(LTT__TP_ARGS(args));                            \
	}
#define LTT__TP_PROVIDER_REF(provider) NULL
#else
#define LTT__TP_CALL(provider, name, args)                                      \
	LTT__TP_EXTERN_C void LTT__TP_SYM(ltt_probe__, provider, name)(LTT__TP_PROTO(args)); \
	static inline void LTT__TP_SYM(ltt_tp_call__, provider, name)(LTT__TP_PROTO(args)) \
	{                                                                       \
		LTT__TP_SYM(ltt_probe__, provider, name)(LTT__TP_ARGS(args));   \
	}
/* Referencing the provider makes the linker pull the probe object in. */
#define LTT__TP_PROVIDER_REF(provider) (&ltt_provider__##provider)
#endif

#undef LTT__TP_DEFINITION
#ifdef LTT_TRACEPOINT_DEFINE
#define LTT__TP_DEFINITION(provider, name, args)                                \
	LTT__TP_EXTERN_C const struct ltt_provider_desc ltt_provider__##provider; \
	struct ltt_tracepoint LTT__TP_SYM(ltt_tp__, provider, name) = {         \
		0, sizeof(struct ltt_tracepoint), #provider ":" #name,          \
		LTT__TP_STR(args), NULL, LTT__TP_PROVIDER_REF(provider)         \
	};                                                                      \
	static struct ltt_tracepoint *LTT__TP_SYM(ltt_tp_ptr__, provider, name) \
		__attribute__((used, section("ltt_tracepoints_ptrs"))) =        \
		&LTT__TP_SYM(ltt_tp__, provider, name);
#else
#define LTT__TP_DEFINITION(provider, name, args)
#endif

#undef LTT__TP_DECLARE
#define LTT__TP_DECLARE(provider, name, args)                                   \
	LTT__TP_EXTERN_C struct ltt_tracepoint LTT__TP_SYM(ltt_tp__, provider, name) \
		LTT__TP_VISIBILITY;                                             \
	LTT__TP_DEFINITION(provider, name, LTT__TP_PARAMS(args))                \
	LTT__TP_CALL(provider, name, LTT__TP_PARAMS(args))

#undef LTT_TRACEPOINT_EVENT_CLASS
#define LTT_TRACEPOINT_EVENT_CLASS(provider, name, args, fields)
#undef LTT_TRACEPOINT_EVENT_INSTANCE
#define LTT_TRACEPOINT_EVENT_INSTANCE(provider, class_name, name, args)         \
	LTT__TP_DECLARE(provider, name, LTT__TP_PARAMS(args))
#undef LTT_TRACEPOINT_LOGLEVEL
#define LTT_TRACEPOINT_LOGLEVEL(provider, name, loglevel)
#undef LTT_TRACEPOINT_MODEL_EMF_URI
#define LTT_TRACEPOINT_MODEL_EMF_URI(provider, name, uri)
#undef LTT_TRACEPOINT_ENUM
#define LTT_TRACEPOINT_ENUM(provider, name, values)

/* Registration of the module's tracepoints: once per file that defines them. */
#if defined(LTT_TRACEPOINT_DEFINE) && !defined(LTT__TP_REGISTRATION_DONE)
#define LTT__TP_REGISTRATION_DONE
#ifdef __cplusplus
extern "C" {
#endif
extern struct ltt_tracepoint *const __start_ltt_tracepoints_ptrs[]
	__attribute__((weak, visibility("hidden")));
extern struct ltt_tracepoint *const __stop_ltt_tracepoints_ptrs[]
	__attribute__((weak, visibility("hidden")));
/* Files of one module that define tracepoints share this counter. */
extern int ltt_tp_registered__ __attribute__((weak, visibility("hidden")));
int ltt_tp_registered__ __attribute__((weak, visibility("hidden")));

static void __attribute__((constructor)) ltt_tp_register__(void)
{
	/* Constructors run one at a time, before threads: no atomics needed. */
	if (ltt_tp_registered__++ || !__start_ltt_tracepoints_ptrs)
		return;
	(void)ltt_ust_tracepoints_register(__start_ltt_tracepoints_ptrs,
		(size_t)(__stop_ltt_tracepoints_ptrs - __start_ltt_tracepoints_ptrs));
}

static void __attribute__((destructor)) ltt_tp_unregister__(void)
{
	if (--ltt_tp_registered__ || !__start_ltt_tracepoints_ptrs)
		return;
	ltt_ust_tracepoints_unregister(__start_ltt_tracepoints_ptrs);
}
#ifdef __cplusplus
}
#endif
#endif
