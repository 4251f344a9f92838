/* A second provider in the same program. */
provider audit {
	probe event(const char *what, long user);
};
