/* A program with probes of two providers, using a library with its own. */
#include <stdio.h>

#include "audit.h"
#include "shop.h"

int cache_get(const char *key);

int main(void)
{
	int i, hits = 0;

	for (i = 0; i < 3; i++) {
		SHOP_REQUEST_START(i, "/index.html");
		AUDIT_EVENT("login", 1000L + i);
		hits += cache_get("greeting");
		trace_shop_request_done(i, 200);
	}
	printf("3 requests, %d cache hits\n", hits);
	return 0;
}
