/* The probe of the --trace bench: a string and 5 integers (bpftrace 0.17
 * reads at most 6 arguments). */
provider bench {
	probe event(const char *name, int a, long b, unsigned int c, short d, long long e);
};
