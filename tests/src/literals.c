/* tests/src/literals.c - fires fleet:truck__departed through the three
 * forms, each with a string literal that nothing reads before the probe
 * does: a tracer that cannot fault its page in shows it empty.  With an
 * argument, waits that many milliseconds first (for a tracer to attach
 * by -p). */
#include <stdlib.h>
#include <unistd.h>
#include "literals.h"

int main(int argc, char **argv)
{
	usleep(argc > 1 ? 1000 * (unsigned)atoi(argv[1]) : 0);
	FLEET_TRUCK_DEPARTED(17, "marta", 2500000000ULL);
	trace_fleet_truck_departed(18, "jonas", 1ULL);
	FLEET_TRUCK_DEPARTED_LAZY(19, "ines", 2ULL);
	return 0;
}
