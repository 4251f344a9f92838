provider p {
	probe a(int x);
};
probe lost(int y);
