provider {
	probe a(int x);
};
