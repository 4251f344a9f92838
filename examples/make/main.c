#include <stdio.h>
#include "myapp_probes.h"

int main(void)
{
	int id;

	for (id = 0; id < 3; id++) {
		/* The typed call: checked against myapp.d, and its string
		   is readable by every tracer, even a literal. */
		trace_myapp_request_start(id, "/index.html");
		/* SystemTap's macro records the size of what it is given:
		   1500LL is the .d's long long (--check warns of a 1500). */
		MYAPP_REQUEST_DONE(id, 1500LL);
	}
	puts("done");
	return 0;
}
