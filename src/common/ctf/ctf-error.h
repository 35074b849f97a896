/*
 * ctf-error.h - the message that goes with a CTF writer error.
 *
 * Functions that check caller-supplied declarations take a struct ctf_error
 * (may be NULL): on failure they return a negative errno and write a
 * sentence naming the offending object ("event 'app:tick': field 'int':
 * 'int' is a TSDL keyword"), which the caller prints. Libraries never print.
 */
#ifndef LTT_CTF_ERROR_H
#define LTT_CTF_ERROR_H

struct ctf_error {
	char msg[256];
};

/* Writes the message (printf format) if err is non-NULL; returns r. */
int ctf_error_set(struct ctf_error *err, int r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* LTT_CTF_ERROR_H */
