/*
 * examples/sdt-only/node.d - the probes node.cpp fires with sys/sdt.h's
 * macros, declared for probegen's readers (the program's build never
 * reads this file): names and types, and the tags that say how to read
 * what a type cannot.  The names are the sites' own (inbound_message,
 * not D's inbound__message).
 */
provider net {
	/**
	 * A message read from a peer.
	 * @length msg msg_size
	 */
	probe inbound_message(long long peer_id, const char *addr,
			      const char *msg_type, unsigned long long msg_size,
			      const unsigned char *msg);
};

provider mempool {
	/**
	 * A transaction added to the mempool, by its id.
	 * @length txid 32 reversed
	 */
	probe added(const unsigned char *txid, int vsize, long long fee);
};
