#define EXTRA_PROBES \
	probe extra__one(Oid); \
	probe extra__two(bool, int);
