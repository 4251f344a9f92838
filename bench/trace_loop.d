/* The probes of the --trace bench: a string and 5 integers (bpftrace 0.17
 * reads at most 6 arguments), and a start/done pair for --summary. */
provider bench {
	probe event(const char *name, int a, long b, unsigned int c, short d, long long e);
	probe work__start(int i);
	probe work__done(int i);
};
