/*
 * tracing.d - the probes probegen_tracing::UsdtLayer fires for a
 * program's `tracing` spans and events.  span__enter and span__exit
 * are a start/done pair (probegen --summary, --timeline).  `fields` is
 * the span's or event's fields as text, `key=value` separated by
 * spaces, strings and values of more than a word quoted (Rust's
 * escapes); it is formatted only while a tracer is attached to the
 * probe.  @fields says so to probegen: JSON gives the fields as an
 * object, and --where, --by, --show and --expect name one (fields.id).
 */
provider tracing {
	/**
	 * A span was entered: its id, name, target (module path) and fields.
	 * @fields fields
	 */
	probe span__enter(unsigned long long id, const char *name,
	    const char *target, const char *fields);
	/**
	 * The span was exited (it may be entered again).
	 * @fields fields
	 */
	probe span__exit(unsigned long long id, const char *name,
	    const char *target, const char *fields);
	/**
	 * An event: its level (TRACE to ERROR), target, message and other fields.
	 * @fields fields
	 */
	probe event(const char *level, const char *target, const char *message,
	    const char *fields);
};
