provider p {
	probe a(char *s = "unterminated);
};
