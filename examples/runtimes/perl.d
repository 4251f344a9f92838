/*
 * Perl's probes (5.10 and later; perldtrace), declared with names for
 * their arguments as perldtrace describes them: Perl's own perldtrace.d
 * names none, so a perl built with it (SystemTap's dtrace or probegen)
 * records none, and --summary could not tell which sub a call is:
 *
 *   probegen --trace --summary -s examples/runtimes/perl.d \
 *       -n 'perl:sub__*' -c 'perl script.pl'
 */
provider perl {
	probe sub__entry(const char *subname, const char *filename, int lineno, const char *packagename);
	probe sub__return(const char *subname, const char *filename, int lineno, const char *packagename);
	probe phase__change(const char *newphase, const char *oldphase);
	probe op__entry(const char *opname);
	probe loading__file(const char *filename);
	probe loaded__file(const char *filename);
};
