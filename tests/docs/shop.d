/* The probes of a small web shop: its requests and its cache. */
#pragma D attributes Evolving/Evolving/Common provider shop provider
#pragma D attributes Private/Private/Unknown provider shop args

provider shop {
	/*
	 * A request arrived and its handler starts.  Fires before the
	 * request's headers are parsed.
	 */
	probe request__start(int id, const char *path, char *method);

	// A request finished; latency_ns counts from request__start.
	// status is the HTTP status sent.
	probe request__done(int id, long long latency_ns, unsigned short status);

	probe cache__hit(const char *key, size_t bytes);  /* no doc: not above */

	/** An eviction, with the entry's key twice (for old scripts). */
	probe cache__evict(char *key, void *entry, char *key, uint32_t age,
	    int64_t a, int64_t b, int64_t c, uint8_t reason);

	probe swap(int i, int j) : (int j, int i);

	probe tick();
};
