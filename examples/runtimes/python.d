/*
 * CPython's probes (3.6 and later), declared with the names Python's
 * documentation gives their arguments ("Instrumenting CPython with
 * DTrace and SystemTap"), for a python built by SystemTap's dtrace,
 * whose binary records no names:
 *
 *   probegen --trace --summary -s examples/runtimes/python.d \
 *       -n 'python:function__*' -c 'python3 script.py'
 *
 * A python built with probegen as its dtrace records them itself.
 */
provider python {
	probe function__entry(const char *filename, const char *funcname, int lineno);
	probe function__return(const char *filename, const char *funcname, int lineno);
	probe line(const char *filename, const char *funcname, int lineno);
	probe gc__start(int generation);
	probe gc__done(long collected);
	probe import__find__load__start(const char *modulename);
	probe import__find__load__done(const char *modulename, int found);
	probe audit(const char *event, void *args);
};
