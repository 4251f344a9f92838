/* The probes of the --trace bench: a string and 5 integers (bpftrace 0.17
 * reads at most 6 arguments), a start/done pair for --summary, and a
 * server's request: its line, its headers' names and values (pointers
 * into the request, with their lengths), its status and byte count. */
provider bench {
	probe event(const char *name, int a, long b, unsigned int c, short d, long long e);
	probe work__start(int i);
	probe work__done(int i);
	probe request__start(int id, const char *method, size_t method_len,
			     const char *path, size_t path_len);
	probe header(int id, const char *name, size_t name_len,
		     const char *value, size_t value_len);
	probe request__done(int id, int status, long long bytes);
};
