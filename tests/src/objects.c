/* tests/src/objects.c - structs and unions by value as probe arguments,
 * lvalues and rvalues; prints the values a tracer must show. */
#include <stdio.h>
#include "objects.h"

struct one { long v; };
struct three { long a, b, c; };
union num { long l; double d; };

static struct one make_one(long v)
{
	struct one o;

	o.v = v;
	return o;
}

int main(void)
{
	struct one o = { 41 };
	struct three t = { 42, 0, 0 };
	union num u;

	u.l = 43;
	printf("objs:c_values one=41 three=42 num=43 made=44 literal=45 n=46\n");
	fflush(stdout);
	OBJS_C_VALUES(o, t, u, make_one(44), (struct one){ 45 }, 46);
	return 0;
}
