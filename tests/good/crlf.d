provider crlf {
	probe a(int x);

	probe b(const char *s);
};
