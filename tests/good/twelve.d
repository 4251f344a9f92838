provider wide {
	probe twelve(char a, unsigned char b, short c, unsigned short d,
	    int e, unsigned int f, long g, unsigned long h, long long i,
	    unsigned long long j, const char *k, void *l);
};
