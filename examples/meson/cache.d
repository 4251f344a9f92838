/* The shared library's probes. */
provider cache {
	probe lookup(const char *key, int hit);
};
