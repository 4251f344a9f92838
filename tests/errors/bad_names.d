provider p {
	probe 9lives(int x);
	probe ok-not(int x);
};
