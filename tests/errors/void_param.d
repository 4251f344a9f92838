provider p {
	probe a(void x, int y);
	probe b(int, void);
};
