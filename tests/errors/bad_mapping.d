provider p {
	probe a(int i, int j) : (int j, int k);
};
