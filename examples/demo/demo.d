/* The demo's provider: a toy request server. */
provider demo {
	probe request__start(int id, const char *path);
	probe request__done(int id, long long latency_ns);
	probe tick();
};
