/*
 * tests/src/meanings.d - arguments that mean more than their type
 * (tests/t_meanings.sh): strings and bytes with their lengths, said and
 * inferred, socket addresses, and enum values by name.  Bitcoin Core's
 * shapes are those of its tracepoints (net:inbound_message, a block's
 * hash, a flush mode).
 */
provider http {
	/** A request header, name and value pointing into the request. */
	probe header(const char *name, size_t name_len, const char *value,
		     size_t value_len);
	/** A request starts: its path, not NUL-terminated. */
	probe req__start(const char *path, size_t path_len);
	probe req__done(int status, long long bytes);
	/** A body, any bytes. */
	probe body(const void *bytes, size_t bytes_len);
	/** A length that may be negative. */
	probe chunk(const char *data, int data_len);
	/**
	 * A string and a size of something else (a mention of @length in
	 * prose stays prose).
	 * @length sized none
	 */
	probe sized(const char *sized, size_t sized_len);
	/**
	 * Where a connection came from.
	 */
	probe accepted(int fd, struct sockaddr *peer);
};

provider btc {
	/**
	 * A block was connected.
	 * @length hash 32 reversed
	 */
	probe block__connected(const unsigned char *hash, int height);
	/**
	 * A P2P message: its size comes before its bytes.
	 * @length msg size
	 */
	probe inbound__message(long long peer, unsigned long long size,
			       const unsigned char *msg);
	/**
	 * The coins cache was flushed.
	 * @enum mode NONE=0 IF_NEEDED=1 PERIODIC=2 ALWAYS=3
	 */
	probe flush(unsigned int mode, long long coins);
};
