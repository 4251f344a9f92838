provider p {
	probe a(int x, char *x);
};
