/* tests/src/pairs.d - start/done pairs: by name (query, function), one
   matched by an argument across threads (--pair), and probes that fire
   alone or never. */
provider work {
	probe query__start(int id, const char *sql);
	probe query__done(int id);
	probe function__entry(int depth);
	probe function__return(int depth);
	probe request__begin(long req);
	probe request__finished(long req);
	probe tick();
	probe never();
};
