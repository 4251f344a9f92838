/* Shaped like PostgreSQL's probes.d: types #defined, so it needs -C. */
#define LocalTransactionId unsigned int
#define LWLockMode int
#define LOCKMODE int
#define BlockNumber unsigned int
#define Oid unsigned int
#define ForkNumber int
#define bool unsigned char

#include "extra_probes.h"

provider postgresql {
	probe transaction__start(LocalTransactionId);
	probe transaction__commit(LocalTransactionId);
	probe query__start(const char *);
	probe lwlock__acquire(const char *, LWLockMode);
	probe buffer__read__start(ForkNumber, BlockNumber, Oid, Oid, Oid, int, bool);
	probe checkpoint__done(int, int, int, int, int);
	probe sort__done(bool, long);
	EXTRA_PROBES
};
