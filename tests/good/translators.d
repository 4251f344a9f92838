#pragma ident	"@(#)example.d	1.1	26/11/29 SMI"
#pragma D depends_on library net.d
#pragma D option quiet

# This line is a comment, as some DTrace files write.
typedef struct conninfo {
	string ci_remote;
	int ci_port;
} conninfo_t;

inline int TCP_STATE_IDLE = 0;
inline string state_name[int s] = s == 0 ? "idle" : "busy";

translator conninfo_t < struct sock *s > {
	ci_remote = stringof(s->remote);
	ci_port = s->port;
};

provider net {
	probe conn__open(struct sock *s, int fd) : (conninfo_t *s, int fd);
	probe swap(int i, int j) : (int j, int i, int i, int j);
	probe plain(int fd);
};

// A C++-style comment after everything.
