/*
 * src/trace/sinks/pprof_none.c - --pprof where probegen is built without
 * protobuf-c, zlib or pprof's profile.proto: it says what to install,
 * before the trace.
 */
#include "trace/sinks/pprof.h"

int pprof_check(void)
{
	error_plain("--pprof: probegen was built without protobuf-c: apt-get install libprotobuf-c-dev protobuf-c-compiler golang-github-google-pprof-dev zlib1g-dev, then make again");
	return -1;
}

int pprof_write(const struct tracer *tr, const struct profile *p,
		struct output *out)
{
	(void)tr;
	(void)p;
	output_abort(out);
	return pprof_check();
}

int pprof_write_stacks(const struct tracer *tr, const struct stack_counts *c,
		       struct output *out)
{
	(void)tr;
	(void)c;
	output_abort(out);
	return pprof_check();
}
