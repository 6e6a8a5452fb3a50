/* text.c - UTF-8 validity and escaping (base/text.h). */
#include "base/text.h"

#include <stdio.h>
#include <string.h>

bool cl_utf8_valid(const unsigned char *s, size_t n)
{
	unsigned char tail[4];
	size_t i = 0;

	while (i < n) {
		size_t k;

		if (s[i] < 0x80) {
			i++;
			continue;
		}
		if (n - i >= 4) {
			k = cl_utf8_len(s + i);
		} else {
			/* the last bytes: a cut sequence reads a NUL, not past n */
			memset(tail, 0, sizeof(tail));
			memcpy(tail, s + i, n - i);
			k = cl_utf8_len(tail);
		}
		if (k == 0)
			return false;
		i += k;
	}
	return true;
}

size_t cl_text_escaped_bytes(const unsigned char *p, size_t *n, enum cl_text_escapes what)
{
	*n = cl_utf8_len(p);
	if (*n == 0)
		return 1;
	if ((what & CL_ESC_CONTROLS) && (*p < 0x20 || *p == 0x7F))
		return 1;
	if (what == CL_ESC_TERMINAL && p[0] == 0xC2 && p[1] < 0xA0)
		return 2;
	return 0;
}

size_t cl_text_escape(const char *s, char *buf, size_t cap, enum cl_text_escapes what)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0, escaped = 0;

	while (*p) {
		size_t n, bad = cl_text_escaped_bytes(p, &n, what);

		if (bad) {
			if (o + 4 * bad >= cap)
				break;
			for (size_t i = 0; i < bad; i++)
				o += (size_t)snprintf(buf + o, cap - o, "\\x%02X", p[i]);
			p += bad;
			escaped += bad;
			continue;
		}
		if (o + n >= cap)
			break;
		memcpy(buf + o, p, n);
		o += n;
		p += n;
	}
	buf[o] = '\0';
	return escaped;
}

void cl_text_clean(char *s, size_t cap)
{
	char out[CL_TEXT_CLEAN_MAX];

	if (cap > sizeof(out))
		cap = sizeof(out);
	(void)cl_text_escape(s, out, cap, CL_ESC_CONTROLS);
	memcpy(s, out, strlen(out) + 1);
}
