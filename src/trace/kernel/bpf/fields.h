/*
 * src/trace/kernel/bpf/fields.h - key=value text as probegen-tracing
 * writes a span's or an event's fields (an argument tagged @fields):
 * `key=value` pairs one space apart, a value bare (no space, no quote)
 * or quoted with Rust's escapes (\" \\ \n \t \r \0).  One byte at a
 * time, so that the BPF side runs it under bpf_loop (filter.bpf.h:
 * --where on fields.KEY) and probegen the very same steps (the printer's
 * JSON object, --by, --show, --expect: trace/decode/meant.c, verdict.c).
 * Plain C for both compilers; the caller includes the __u32 types and
 * trace_abi.h.
 */
#ifndef PROBEGEN_FIELDS_H
#define PROBEGEN_FIELDS_H

#define FIELDS_EVAL static inline __attribute__((always_inline))

/* What a byte of the text is. */
enum field_byte {
	FIELD_SKIP,	 /* a separator, a quote, an escape's backslash */
	FIELD_KEY,	 /* a byte of a key */
	FIELD_KEY_END,	 /* the = after a key */
	FIELD_VALUE,	 /* a byte of a value (an escape decoded) */
	FIELD_VALUE_END, /* the end of a value: its closing quote or space */
};
enum field_phase {
	PHASE_KEY, PHASE_VALUE_START, PHASE_BARE, PHASE_QUOTED, PHASE_ESCAPE,
	PHASE_AFTER_QUOTE
};

/* Byte c in phase *phase: what it is, and *out the value's byte it
 * stands for. */
FIELDS_EVAL int field_byte(__u32 *phase, char c, char *out)
{
	*out = c;
	switch (*phase) {
	case PHASE_KEY:
		if (c == '=') {
			*phase = PHASE_VALUE_START;
			return FIELD_KEY_END;
		}
		return c == ' ' ? FIELD_SKIP : FIELD_KEY;
	case PHASE_VALUE_START:
		if (c == '"') {
			*phase = PHASE_QUOTED;
			return FIELD_SKIP;
		}
		if (c == ' ') {
			*phase = PHASE_KEY;
			return FIELD_VALUE_END;
		}
		*phase = PHASE_BARE;
		return FIELD_VALUE;
	case PHASE_BARE:
		if (c == ' ') {
			*phase = PHASE_KEY;
			return FIELD_VALUE_END;
		}
		return FIELD_VALUE;
	case PHASE_QUOTED:
		if (c == '\\') {
			*phase = PHASE_ESCAPE;
			return FIELD_SKIP;
		}
		if (c == '"') {
			*phase = PHASE_AFTER_QUOTE;
			return FIELD_VALUE_END;
		}
		return FIELD_VALUE;
	case PHASE_ESCAPE:
		*out = c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r'
		       : c == '0' ? '\0' : c;
		*phase = PHASE_QUOTED;
		return FIELD_VALUE;
	default: /* after a closing quote: its space */
		if (c == ' ')
			*phase = PHASE_KEY;
		return FIELD_SKIP;
	}
}

/* The search of one key's value, written over the text it is read
 * from (a value's byte is never after the byte it came from). */
struct field_find {
	__u32 phase, at, out;
	__u32 key_at, key_ok, matching, found;
};

/* Step at of text's n bytes for key (m bytes): 1 when the search is
 * over (found, or the text ended); the value is then text[0, out). */
FIELDS_EVAL int field_find_step(struct field_find *f, char *text,
				__u32 n, const char *key, __u32 m,
				__u32 mask)
{
	char c, v;
	int kind;

	if (f->at >= n) {
		/* The text ends in the key's value: cut, or the last. */
		f->found = f->matching &&
			   f->phase != PHASE_KEY && f->phase != PHASE_AFTER_QUOTE;
		return 1;
	}
	c = text[f->at & mask];
	f->at++;
	kind = field_byte(&f->phase, c, &v);
	if (kind == FIELD_KEY) {
		if (f->key_ok && f->key_at < m &&
		    key[f->key_at & (TRACE_FIELD_LEN - 1)] == c)
			f->key_at++;
		else
			f->key_ok = 0;
	} else if (kind == FIELD_KEY_END) {
		f->matching = f->key_ok && f->key_at == m;
		f->key_at = 0;
		f->key_ok = 1;
		f->out = 0;
	} else if (kind == FIELD_VALUE) {
		if (f->matching)
			text[f->out++ & mask] = v;
	} else if (kind == FIELD_VALUE_END) {
		if (f->matching) {
			f->found = 1;
			return 1;
		}
		f->key_at = 0;
		f->key_ok = 1;
	} else if (f->phase == PHASE_KEY) {
		/* A space between pairs, or after a word without its =: a
		   key starts after it. */
		f->key_at = 0;
		f->key_ok = 1;
	}
	return 0;
}

#endif
