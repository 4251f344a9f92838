/* tests/src/rust_names.d - names a Rust module must take care with:
   keywords, names no raw identifier can take, prelude variants,
   repeats, unnamed arguments, and doc comments to carry over. */
provider names {
	/**
	 * A request arrived.
	 *
	 * ```
	 * not Rust: rustdoc must not run this
	 * ```
	 */
	probe keywords(int type, const char *fn, long self, int Self, int None);
	/// Repeated and unnamed arguments.
	probe repeats(int value, int value, int, const char *);
	probe statics(int KEYWORDS_SEMAPHORE, double _, float f);
};
