/* The probes of the Rust example: the same file a C program would use. */
provider rustapp {
	/** A request arrived: its number and the path asked for. */
	probe request__start(int id, const char *path);
	/** A request was answered, `latency_ns` after it arrived. */
	probe request__done(int id, long long latency_ns, unsigned char code);
	/** A text worth computing only while traced (see `described_lazy`). */
	probe described(int id, string text);
	probe values(signed char a, unsigned char b, short c, unsigned short d,
	    int e, unsigned int f, long g, unsigned long h, long long i,
	    unsigned long long j, void *p, int k);
	probe tick();
};
