provider p {
	probe a(int x);
	probe b(void);
	probe a(long y);
};
