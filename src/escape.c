/*
 * escape.c - the one escaper of every output: text that came from
 * outside (a binary's notes, a traced program's memory) made safe to
 * print as text or JSON.
 */
#include <string.h>

#include "probegen.h"

size_t utf8_length(const unsigned char *s, size_t n)
{
	size_t len, i;
	unsigned min, cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, min = 0x80, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, min = 0x800, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, min = 0x10000, cp = s[0] & 0x07;
	else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* Overlong forms, UTF-16 surrogates and past U+10FFFF are not UTF-8. */
	if (cp < min || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

char *escape_to(char *out, const char *s, size_t n, int json)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s, *end = p + n;

	while (p < end) {
		size_t len = utf8_length(p, (size_t)(end - p));
		unsigned char c = *p;

		if (c == '"' || c == '\\') {
			*out++ = '\\';
			*out++ = (char)c;
		} else if (c == '\n' || c == '\t') {
			*out++ = '\\';
			*out++ = c == '\n' ? 'n' : 't';
		} else if (len == 1 && c >= 0x20 && c != 0x7f) {
			*out++ = (char)c;
		} else if (len > 1) {
			memcpy(out, p, len);
			out += len;
			p += len;
			continue;
		} else if (json && c >= 0x80) {
			memcpy(out, "\\ufffd", 6);
			out += 6;
		} else {
			memcpy(out, json ? "\\u00" : "\\x", json ? 4 : 2);
			out += json ? 4 : 2;
			*out++ = hex[c >> 4];
			*out++ = hex[c & 15];
		}
		p++;
	}
	return out;
}

void buf_escaped(struct buf *b, const char *s, size_t n, int json)
{
	char *end;

	buf_reserve(b, ESCAPED_MAX(n));
	end = escape_to(b->data + b->len, s, n, json);
	b->len = (size_t)(end - b->data);
	b->data[b->len] = '\0';
}

void buf_json_string(struct buf *b, const char *s)
{
	buf_lit(b, "\"");
	buf_escaped(b, s, strlen(s), 1);
	buf_lit(b, "\"");
}

/* ';' separates a folded stack's frames and a line ends the stack, so
 * neither may be in a frame (nor any other control byte). */
void buf_folded_frame(struct buf *b, const char *s, size_t n)
{
	for (; n--; s++)
		buf_add(b,
			*s == ';'				 ? ":"
			: (unsigned char)*s < 0x20 || *s == 0x7f ? "?"
								 : s,
			1);
}

void buf_utf8(struct buf *b, const char *s, size_t n)
{
	size_t i = 0, len;

	while (i < n) {
		len = utf8_length((const unsigned char *)s + i, n - i);
		if (len)
			buf_add(b, s + i, len);
		else
			buf_lit(b, "\xef\xbf\xbd");
		i += len ? len : 1;
	}
}
