/*
 * tests/src/where.d - probes whose firings --where filters
 * (tests/t_where.sh): integers of each size and sign at their limits,
 * strings, a string with its length, and a pair.
 */
provider w {
	probe req(long long id, unsigned char small, unsigned long long big,
		  const char *path, int neg);
	probe text(const char *name, size_t name_len);
	probe work__start(int id);
	probe work__done(int id, long long latency_ns);
};
