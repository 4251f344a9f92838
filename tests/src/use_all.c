/* Includes the headers of nine files of tests/good/ (all_types, twelve,
 * tcl_like, translators, one_line, crlf, empty_provider, empty_file,
 * markers) and calls their probes in the macro, typed and lazy forms.
 * Written in C89 so that one file serves the whole compile matrix (c89
 * ... c2x, and c++98 ... c++2b with -x c++). */
#include "all_types.h"
#include "twelve.h"
#include "tcl_like.h"
#include "translators.h"
#include "one_line.h"
#include "crlf.h"
#include "empty_provider.h"
#include "empty_file.h"
#include "markers.h"

struct conn {
	int fd;
};
union u {
	int i;
};
enum state2 { S_IDLE, S_BUSY };

static int add(int a, char *b)
{
	return a + (b != 0);
}

static void done(void)
{
}

int main(void)
{
	struct conn c;
	union u un;
	char buf[16];
	char *p = buf;
	const char *cp = "const";
	int x = 1, *arr[4];

	c.fd = 3;
	un.i = 4;
	buf[0] = '\0';
	arr[0] = &x;
	TYPES_INTS('a', 1, 2, 3, 4, 5, 6, 7, 8, 9u, 10L, 11L);
	trace_types_ints('a', 1, 2, 3, 4, 5, 6, 7, 8, 9u, 10L, 11L);
	TYPES_INTS_LAZY('a', 1, 2, 3, 4, 5, 6, 7, 8, 9u, 10L, 11L);
	trace_types_longs(1ul, 2ul, 3L, 4L, 5L, 6ul, 7ul, 8ul, 1);
	trace_types_consts(cp, p, (const unsigned char *)cp, &x, &x, &x);
	trace_types_pointers(p, cp, &p, add, done, buf, arr);
	trace_types_tags(&c, &c, &un, S_BUSY, &c);
	trace_types_d_types(cp, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
	trace_types_unnamed(1, p, 3ul, &c);
	trace_types_none();
	trace_types_none_void();
	TYPES_NONE();
	if (TYPES_NONE_ENABLED())
		TYPES_NONE_LAZY();
	trace_wide_twelve('a', 1, 2, 3, 4, 5, 6, 7, 8, 9, cp, p);
	WIDE_TWELVE_LAZY('a', 1, 2, 3, 4, 5, 6, 7, 8, 9, cp, p);
	trace_tcl_proc_return(cp, 0);
	TCL_PROC_ENTRY(p, 0, 0);
	trace_net_swap(1, 2);
	NET_PLAIN(x);
	trace_one_b(cp, 2L);
	trace_crlf_b(cp);
	trace_marked_at_ten(x);
	return 0;
}
