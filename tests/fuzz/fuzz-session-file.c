/*
 * fuzz-session-file.c - session files as ltt load reads them: parsed
 * (session-file.c), then built into a detached session (save.c and the
 * registry's checks); when that succeeds, saved again, and the saved text
 * must load back (what save writes, load reads).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "save.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct reg_session *s = NULL, *again = NULL;
	struct strbuf text = { 0 };
	const char *detail;
	bool started;

	if (load_text((const char *)data, size, "fuzz", NULL, &s, &started, &detail) != 0)
		return 0;
	if (save_text(s, &text) == 0 &&
	    load_text(strbuf_str(&text), text.len, "saved", NULL, &again, &started, &detail) != 0)
		abort();	/* save wrote what load refuses */
	registry_session_free(again);
	registry_session_free(s);
	strbuf_free(&text);
	return 0;
}
