provider p {
	probe a__b(int x);
	probe a_b(int y);
};
