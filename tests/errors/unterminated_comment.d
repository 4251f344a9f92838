provider p {
	probe a(int x);
/* never closed
};
