provider p {
	probe a(int x)
	probe b(int y);
}
