/* Probes whose argument values the gdb, bpftrace and qemu tests check. */
provider vals {
	probe ints(char a, unsigned char b, short c, unsigned short d, int e,
	    unsigned int f, long g, unsigned long h, long long i,
	    unsigned long long j);
	probe ptrs(const char *s, void *p, string t);
	probe twelve(int a1, int a2, int a3, int a4, int a5, int a6, int a7,
	    int a8, int a9, int a10, int a11, int a12);
	probe none();
};
