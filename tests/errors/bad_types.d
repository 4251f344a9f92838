provider p {
	probe a(unsigned float x, long long long y, signed unsigned z);
};
