provider site {
	probe hit(unsigned int i, const char *s);
};
