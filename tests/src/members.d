/*
 * tests/src/members.d - probes whose arguments are pointers to the
 * program's structs (tests/t_meanings.sh: --show and --by read their
 * members, laid out from tests/src/members.c's DWARF).
 */
provider quic {
	probe send(struct st_conn *conn, int n);
	probe request__start(struct st_conn *conn);
	probe request__done(struct st_conn *conn);
};
