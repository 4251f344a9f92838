#include <stdio.h>
#include "myapp_probes.h"

int main(void)
{
	int id;

	for (id = 0; id < 3; id++) {
		MYAPP_REQUEST_START(id, "/index.html");
		trace_myapp_request_done(id, 1500);
	}
	puts("done");
	return 0;
}
