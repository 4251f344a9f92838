provider p {
	probe averyveryveryveryveryveryveryveryveryveryveryveryverylongprobename(int);
};
