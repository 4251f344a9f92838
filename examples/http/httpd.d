/*
 * examples/http/httpd.d - an HTTP-like server's probes.  Its strings
 * point into the request buffer, with their lengths: probegen --trace
 * reads exactly name_len bytes of name (names X and X_len, X_length,
 * X_size or Xlen say so), and the doc comments' tags say the rest.
 */
provider http {
	/** A connection was accepted from peer (printed as its address). */
	probe accepted(int id, struct sockaddr *peer);
	/**
	 * A request line was read.
	 * @enum version HTTP_1_0=10 HTTP_1_1=11
	 */
	probe request__start(int id, const char *method, size_t method_len,
			     const char *path, size_t path_len, int version);
	/** A header line: its name and value, not NUL-terminated. */
	probe header(int id, const char *name, size_t name_len,
		     const char *value, size_t value_len);
	probe request__done(int id, int status);
};
