/* tests/src/busy.d - busy.c's probes: a server's requests, each with
 * 10 hot lookups, and a rare tick (t_budget.sh, docs/production.md). */
provider busy {
	probe request__start(long id);
	probe lookup(long id, int i);
	probe request__done(long id);
	probe tick(long n);
};
