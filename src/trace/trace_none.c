/*
 * src/trace/trace_none.c - --trace where probegen was built without
 * libbpf (or clang's BPF target, or bpftool): say how to get it.  The
 * rest of probegen works the same.
 */
#include "trace/trace_run.h"

int trace_run(const struct trace_options *opt)
{
	(void)opt;
	error_plain(
		"this probegen was built without --trace: install libbpf-dev, "
		"clang and bpftool (apt-get install libbpf-dev clang bpftool) "
		"and build it again");
	return EXIT_SYSTEM;
}
