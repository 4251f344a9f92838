/* The program's probes. */
provider shop {
	/* A request arrived. */
	probe request__start(int id, const char *path);
	probe request__done(int id, unsigned short status);
};
