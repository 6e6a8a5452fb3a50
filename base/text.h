/*
 * text.h - UTF-8 and the escaping of text quoted from files.
 *
 * Every place that checks UTF-8 or writes bytes of a file into a message,
 * a column or a terminal uses these: one definition of what is valid and
 * of how the rest is shown (\xNN, as the command line prints it).
 */
#ifndef CL_TEXT_H
#define CL_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* Length of the valid UTF-8 sequence at p (1-4), or 0 when the bytes there
 * are not valid UTF-8 (overlong forms, surrogates and > U+10FFFF included).
 * Reads no further than a NUL: a sequence cut by one is invalid. */
static inline size_t cl_utf8_len(const unsigned char *p)
{
	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xC2 && p[0] <= 0xDF)
		return (p[1] & 0xC0) == 0x80 ? 2 : 0;
	if (p[0] >= 0xE0 && p[0] <= 0xEF) {
		if ((p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80)
			return 0;
		if ((p[0] == 0xE0 && p[1] < 0xA0) || (p[0] == 0xED && p[1] > 0x9F))
			return 0;
		return 3;
	}
	if (p[0] >= 0xF0 && p[0] <= 0xF4) {
		if ((p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80 || (p[3] & 0xC0) != 0x80)
			return 0;
		if ((p[0] == 0xF0 && p[1] < 0x90) || (p[0] == 0xF4 && p[1] > 0x8F))
			return 0;
		return 4;
	}
	return 0;
}

/* Length of a UTF-8 byte order mark at the start of p[0..len): 3 or 0. */
static inline size_t cl_utf8_bom(const unsigned char *p, size_t len)
{
	return len >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF ? 3 : 0;
}

/* Whether s[0..n) is valid UTF-8 throughout (NUL bytes included as such). */
bool cl_utf8_valid(const unsigned char *s, size_t n);

/* What cl_text_escape writes as \xNN besides bytes that are not UTF-8. */
enum cl_text_escapes {
	CL_ESC_INVALID = 0,     /* only bytes that are not valid UTF-8 */
	CL_ESC_CONTROLS = 1,    /* also C0 controls and DEL */
	CL_ESC_TERMINAL = 3,    /* also the C1 controls U+0080-U+009F (CSI
				   among them): what reaches a terminal */
};

/* How many bytes at p are written as \xNN under `what` (0: the character
 * is kept, and *n is its length in bytes). */
size_t cl_text_escaped_bytes(const unsigned char *p, size_t *n, enum cl_text_escapes what);

/* Copy s into buf[cap] (cap >= 1), writing each byte `what` names as \xNN
 * and cutting at a whole character or escape to fit.  Returns how many
 * bytes of s were escaped. */
size_t cl_text_escape(const char *s, char *buf, size_t cap, enum cl_text_escapes what);

/* In place: s[cap] with C0 controls, DEL and bytes that are not UTF-8 as
 * \xNN (cl_text_escape, CL_ESC_CONTROLS), cut to fit; cap at most
 * CL_TEXT_CLEAN_MAX.  For messages that quote a file. */
#define CL_TEXT_CLEAN_MAX 1024
void cl_text_clean(char *s, size_t cap);

#endif
