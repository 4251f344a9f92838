/* examples/bazel/app.d: the probes of the Bazel example. */
provider app {
	/** A request arrived: its number and the path asked for. */
	probe request__start(int id, const char *path);
	/** The request was answered. */
	probe request__done(int id, int status);
};
