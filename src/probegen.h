/*
 * probegen.h - what every part of probegen shares: limits, memory and
 * strings, diagnostics, targets and atomic output.  The compiler, the
 * inspector and the tracer stand over it, each a wing in its folder
 * with its own headers; HACKING.md maps them.
 */
#ifndef PROBEGEN_H
#define PROBEGEN_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* The limits of sys/sdt.h, libbpf and DTrace. */
#define MAX_PROBE_ARGS 12
#define MAX_NAME_LEN 63
/* Debian 12's bpftrace 0.17 reads arg0..arg5 of a USDT probe on x86-64. */
#define BPFTRACE_MAX_ARGS 6
/* Pointers, arrays and functions within one argument's type. */
#define MAX_TYPE_DEPTH 32

/* The version-3 stapsdt note every probe site has: its section, owner
 * and type, as the Rust module writes them and the inspector reads them.
 * The header's sites (src/compiler/header/self_site.h, plain text) write the
 * same; t_header_self_contained_notes holds them to sys/sdt.h's. */
#define STAPSDT_NOTE_SECTION ".note.stapsdt"
#define STAPSDT_NOTE_OWNER "stapsdt"
#define STAPSDT_NOTE_TYPE 3

/* Exit status, as listed in the man page. */
enum { EXIT_OK = 0, EXIT_INPUT = 1, EXIT_SYSTEM = 2 };

/* ---- util.c: memory and strings; allocation never returns NULL ---- */

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0])) /* elements of a */

void *xrealloc(void *p, size_t n);
/* Room for one more element past count (elements of size bytes) in an
 * array grown one at a time: doubled when needed, so that n appends copy
 * O(n) bytes, not O(n^2) (an array only xgrow sizes). */
void *xgrow(void *p, size_t count, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Seconds on the monotonic clock: for deadlines and durations. */
double now_seconds(void);

/* Strings an option gives one at a time (-n, --where), as given. */
struct string_list {
	const char **items;
	int n;
};

struct buf { /* a growable byte buffer */
	char *data;
	size_t len, cap;
};
/* Make room for more bytes and the NUL that always follows the text. */
void buf_reserve(struct buf *b, size_t more);

/* Inline: emitters append a few bytes at a time, millions of times.
 * Adding nothing is valid whatever p is (an empty buffer's data is
 * NULL, and callers pass one on), where memcpy's is not. */
static inline void buf_add(struct buf *b, const void *p, size_t n)
{
	if (b->len + n + 1 > b->cap)
		buf_reserve(b, n);
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
}

static inline void buf_puts(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

/* A string literal, its length known at compile time. */
#define buf_lit(b, s) buf_add((b), "" s, sizeof(s) - 1)

void buf_vprintf(struct buf *b, const char *fmt, va_list ap);
void buf_printf(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void buf_cat(struct buf *b, ...) __attribute__((sentinel));
void buf_free(struct buf *b);
/* The last part of path, after its last '/'. */
const char *path_base_name(const char *path);
/* Whether paths a and b name one file (the same path, or one file by
 * its device and inode: a link, /proc/PID/exe). */
int same_file(const char *a, const char *b);
/* Whether s is a likely typo of word (not word itself): one edit
 * (insert, delete, change, swap of neighbours) from a word of up to 4
 * letters, two from a longer one.  For "did you mean" suggestions. */
int likely_typo(const char *s, const char *word);

/* ---- escape.c ---- */

/* Text that came from outside (a binary's notes, a traced program's
 * memory), made safe to print: quotes and backslashes escaped, \n and
 * \t, other control bytes as \u00XX (JSON) or \xNN (text), valid UTF-8
 * kept, any other byte as \ufffd (JSON: the replacement character) or
 * \xNN (text).  The one escaper of every output.  escape_to writes at
 * most ESCAPED_MAX(n) bytes at out and returns their end; buf_escaped
 * appends to b. */
#define ESCAPED_MAX(n) (6 * (n))

char *escape_to(char *out, const char *s, size_t n, int json);
void buf_escaped(struct buf *b, const char *s, size_t n, int json);
void buf_json_string(struct buf *b, const char *s); /* s, quoted for JSON */
/* The length of the valid UTF-8 sequence at s (n > 0 bytes left), or 0:
 * overlong forms, UTF-16 surrogates and past U+10FFFF are not UTF-8.
 * The one judge of UTF-8: escape_to's and buf_utf8's, which appends n
 * bytes of s with each byte that is not UTF-8 as U+FFFD (--metrics's
 * label values, --pprof's strings: their readers reject such bytes). */
size_t utf8_length(const unsigned char *s, size_t n);
void buf_utf8(struct buf *b, const char *s, size_t n);
/* n bytes of s as a frame of a folded stack: no ';', no control byte. */
void buf_folded_frame(struct buf *b, const char *s, size_t n);

/* ---- name_set.c ---- */

/* A hash of n bytes: what the name sets and other tables index by. */
size_t hash_bytes(const void *p, size_t n);

/* A set of names, to find duplicates in linear time; each name has an
 * owner (the node that added it), and is kept by the caller while the
 * set lives. */
struct name_entry {
	const char *name; /* NULL: a free slot */
	const void *owner;
};
struct name_set {
	struct name_entry *slots;
	size_t cap, count;
};
/* Room for n names. */
void name_set_init(struct name_set *set, size_t n);
/* Add name of len bytes; return whoever already owns it, if anyone. */
const void *name_set_add(struct name_set *set, const char *name, size_t len,
			 const void *owner);
/* The owner of name, or NULL. */
const void *name_set_find(const struct name_set *set, const char *name);
void name_set_free(struct name_set *set);

/* Memory that lives as long as the tree: allocations are zeroed, and
 * all of it goes with arena_free(). */
struct arena_chunk;
struct arena {
	struct arena_chunk *chunks;
	char *next, *end;
};
void *arena_alloc(struct arena *a, size_t n);
char *arena_strndup(struct arena *a, const char *s, size_t n);
void arena_free(struct arena *a);

/* A number's macro as a string literal: PROBEGEN_STR(MAX_PROBE_ARGS). */
#define PROBEGEN_STR_(x) #x
#define PROBEGEN_STR(x) PROBEGEN_STR_(x)

/* The name every message begins with ("probegen: error: ..."). */
#define PROGRAM_NAME "probegen"

/* ---- diag.c: file:line:col diagnostics with source line and caret ---- */

struct loc {
	const char *file; /* interned by diag_intern(); never freed early */
	int line, col;
};

struct diag {
	FILE *stream; /* where messages go; NULL: stderr */
	int errors; /* in the input: each makes the run fail with EXIT_INPUT */
	int warnings;	 /* in the input: past 50, counted and not shown */
	int no_warnings; /* -w: none shown */
	int warnings_are_errors; /* -Werror: each is an error */
};
extern struct diag diag;

const char *diag_intern(const char *file);
/* Remember (a copy of) the main input so carets can quote it. */
void diag_add_source(const char *file, const char *text, size_t len);
void error_at(struct loc loc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void warning_at(struct loc loc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void note_at(struct loc loc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void verror_at(struct loc loc, const char *fmt, va_list ap);
void vwarning_at(struct loc loc, const char *fmt, va_list ap);
void vnote_at(struct loc loc, const char *fmt, va_list ap);
/* Errors without a source position: the environment (not counted in
 * diag.errors), or an input error found outside the source (counted). */
void error_plain(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning_plain(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* What a command is doing ("probegen: tracing 3 probes"), on stderr. */
void info_plain(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void error_input(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A command line probegen cannot run, with a pointer to --help. */
void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void diag_free(void);
/* The one error convention: a function that fails says why where it
 * knows (error_input for what the input holds, counted in diag.errors;
 * usage_error; error_plain for the system) and returns -1, or NULL when
 * it makes something.  Its caller, the mode, turns that into the exit
 * status with this, given diag.errors from before: EXIT_INPUT when an
 * input error was said since, else EXIT_SYSTEM. */
int failure_status(int errors_before);

/* ---- target.c: ELF class, byte order, machine by target name ---- */

/* The largest page any target's kernels use: for a machine probegen does
 * not know, and the Rust module's semaphores off x86-64. */
#define PAGE_LARGEST 65536

struct target {
	const char *name; /* canonical: x86_64, aarch64, ... */
	const char *kernel_arch; /* the kernel's: x86, arm64, powerpc, ... */
	int elfclass;	  /* ELFCLASS32 / ELFCLASS64 */
	int data;	  /* ELFDATA2LSB / ELFDATA2MSB */
	int machine;	  /* EM_* */
	unsigned flags;	  /* e_flags */
	int char_signed;
	unsigned page; /* the largest page its kernels use (ld's max-page-size) */
	const char *cpp; /* the macro its compilers predefine: __x86_64__ */
	const char *partner; /* the family's member of the other class (-32,
				-64), or NULL */
	/* Its .note.gnu.property feature property (x86's IBT and SHSTK,
	   aarch64's BTI and PAC) and the features an object without code
	   has; 0: none. */
	unsigned property_type, property_features;
	/* The argument forms libbpf 1.1's parse_usdt_arg() reads on it,
	   as an extended regex of one spec ("-4@%edi"); NULL: unknown. */
	const char *libbpf_form;
	/* The options its Rust probe site's asm! needs first ("att_syntax, "
	   on x86_64), or NULL when --rust writes it no site. */
	const char *rust_asm;
	/* Its registers as --trace reads them, or NULL: --trace then reads
	   specs with libbpf's parser and walks no stack. */
	const struct target_regs *regs;
};
/* The registers of a firing, as the kernel's struct pt_regs holds them
 * (bpf/arch_*.h copies it whole into the event, a word each): each
 * word's names in a spec, space-separated ("rax eax ax al"; "" for a
 * word no spec names); the word of each DWARF register number (the
 * unwinder's); the stack pointer's and the instruction pointer's. */
struct target_regs {
	const char *const *words;
	int nwords;
	const signed char *dwarf;
	int ndwarf;
	int sp, ip;
};
/* The word of register name (len bytes) in tg's pt_regs, or -1. */
int target_register(const struct target *tg, const char *name, size_t len);
const struct target *target_by_name(const char *name);
const struct target *target_host(void);
/* The other class of the same family (for -32/-64), or NULL. */
const struct target *target_with_class(const struct target *tg, int bits);
/* The target of an ELF header's class, data and machine, or NULL. */
const struct target *target_of_elf_header(int elfclass, int data, int machine);
/* Read class, data, machine and flags from an ELF file; 0 on success. */
int target_from_elf(const char *path, struct target *out);
void target_list(FILE *f);
/* Preprocessor lines defining macro as the page size of the target a
 * header is compiled for (the largest when unknown). */
void target_page_choice(struct buf *b, const char *macro);

/* The target of -G: by name, else that of the ELF objects among
 * objects (which must agree), else the one the compiler cc with cflags
 * builds for (SystemTap's -G runs $CC $CFLAGS; either may be NULL),
 * else the host's; then bits (32, 64, or 0 for either).  *chosen may
 * point into *scratch; *source says which of the four chose it
 * ("--target", "the objects", "$CC $CFLAGS", "the host"). */
enum target_error {
	TARGET_OK,
	TARGET_UNKNOWN,	   /* no target of that name */
	TARGET_MIXED,	   /* objects for two targets: culprits[0], [1] */
	TARGET_NO_VARIANT, /* the target has no member of that class */
};
enum target_error target_choose(const char *name, int bits,
				const char *const *objects, int nobjects,
				const char *cc, const char *cflags,
				struct target *scratch,
				const struct target **chosen,
				const char **source, const char *culprits[2]);

/* ---- output.c: atomic output ---- */

/* A file being written: emitters append to buf, which is written out
 * when committed; a stream of no set length (--timeline's) calls
 * output_flush() as it goes, which writes it out once it is big. */
struct output {
	struct buf buf;
	const char *path, *dest;
	char *tmp, *real; /* the temporary; the symlink's target */
	int fd, in_place, failed;
};
/* Each returns 0, or prints the reason and returns -1. */
int output_open(struct output *o, const char *path);
void output_flush(struct output *o);
/* Append the whole content of file fd (read from its start). */
int output_copy_fd(struct output *o, int fd);
/* Write the rest and rename the temporary over the destination. */
int output_commit(struct output *o);
/* Give up: remove the temporary; the destination is untouched. */
void output_abort(struct output *o);

#endif
