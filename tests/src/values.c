/* Fires the probes of values.d through each API form with known values;
 * reports whether it saw a probe enabled.  volatile keeps the values
 * from being folded into immediates only. */
#include <stdio.h>
#include "values.h"

static volatile int k = 1;
static char text[] = "hello probe";

int main(void)
{
	char a = 65;
	unsigned char b = 250;
	short c = -300;
	unsigned short d = 60000;
	int e = -70000;
	unsigned int f = 4000000000u;
	long g = -5000000000L;
	unsigned long h = 18000000000000000000ul;
	long long i = -9000000000000000000LL;
	unsigned long long j = 18446744073709551615ull;
	int enabled = 0;

	if (VALS_INTS_ENABLED())
		enabled = 1;
	trace_vals_ints(a * k, b * k, c * k, d * k, e * k, f * k, g * k,
			h * k, i * k, j * k);
	VALS_INTS(a, b, c, d, e, f, g, h, i, j);
	VALS_INTS_LAZY(a, b, c, d, e, f, g, h, i, j);
	trace_vals_ptrs(text, &text[6], text);
	VALS_PTRS(text, &text[6], text);
	trace_vals_twelve(1 * k, -2 * k, 3, -4, 5, -6, 7, -8, 9, -10, 11, -12);
	VALS_TWELVE_LAZY(1 * k, -2 * k, 3, -4, 5, -6, 7, -8, 9, -10, 11, -12);
	VALS_NONE();
	printf("enabled=%d\n", enabled);
	return 0;
}
