/*
 * options_trace.c - the values of --trace's options, each checked as it
 * is read: -c's command split as a shell splits words, -p's process ID,
 * -n's and --by's patterns, the numbers of --limit, --duration and
 * --top.  options.c finds the options on the command line (those
 * kept as given are option_table.c's ACT_STRING rows).
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

char **split_words(const char *s, char **error)
{
	size_t n = strlen(s), count = 0;
	char **argv = xcalloc(n / 2 + 2, sizeof(char *));
	char *word = xmalloc(n + 1), *w = NULL;
	char quote = 0;

	*error = NULL;
	for (; *s; s++) {
		char c = *s;

		if (!quote && (c == ' ' || c == '\t' || c == '\n')) {
			if (w) {
				*w = '\0';
				argv[count++] = xstrdup(word);
				w = NULL;
			}
			continue;
		}
		/* \newline outside single quotes joins lines; alone
		 * between blanks it starts no word. */
		if (c == '\\' && s[1] == '\n' && quote != '\'') {
			s++;
			continue;
		}
		if (!w)
			w = word;
		if (quote == '\'') {
			if (c == '\'')
				quote = 0;
			else
				*w++ = c;
		} else if (c == '\\' && s[1] &&
			   (!quote || strchr("\"\\$`", s[1]))) {
			*w++ = s[1];
			s++;
		} else if (c == '"' && quote) {
			quote = 0;
		} else if ((c == '"' || c == '\'') && !quote) {
			quote = c;
		} else {
			*w++ = c;
		}
	}
	if (quote)
		*error = xasprintf("unterminated %s quote",
				   quote == '"' ? "double" : "single");
	else if (w) {
		*w = '\0';
		argv[count++] = xstrdup(word);
	}
	free(word);
	if (*error || !count) {
		if (!*error)
			*error = xstrdup("no command");
		words_free(argv);
		return NULL;
	}
	return argv;
}

void words_free(char **argv)
{
	char **p;

	for (p = argv; p && *p; p++)
		free(*p);
	free(argv);
}

/* v as a whole number above 0 and at most max, every byte of it read
 * ("10x" and " 10" are not 10); 0 when it is not one. */
static long long positive_whole(const char *v, long long max)
{
	char *end;
	long long n;

	errno = 0;
	n = strtoll(v, &end, 10);
	if (*v < '0' || *v > '9' || errno || *end || n <= 0 || n > max)
		return 0;
	return n;
}

/* v as a finite number of seconds above 0, every byte read; else 0. */
static double positive_seconds(const char *v)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(v, &end);
	if (!strchr("0123456789.", *v) || errno || *end || !(d > 0) || d > 1e9)
		return 0;
	return d;
}

/* --by's PROVIDER:START:ARG[+ARG...], every part named. */
int trace_by_ok(const char *v)
{
	const char *first = strchr(v, ':'), *last = strrchr(v, ':');

	return first && last != v && first[1] && first != last && last[1] &&
	       last[-1] != ':' && !strstr(last, "++") && last[1] != '+' &&
	       last[strlen(last) - 1] != '+';
}

int trace_command_value(struct options *o, const char *v)
{
	char *error;

	if (o->trace.command && o->command_split)
		words_free(o->trace.command);
	o->trace.command = split_words(v, &error);
	o->command_split = 1;
	if (!o->trace.command) {
		usage_error("-c '%s': %s", v, error);
		free(error);
		return -1;
	}
	return 1;
}

int trace_pid_value(struct options *o, const char *v)
{
	if ((o->trace.pid = (int)positive_whole(v, INT_MAX)) > 0)
		return 1;
	usage_error("-p takes a process ID, not '%s'", v);
	return -1;
}

int trace_filter_ok(const char *v)
{
	return strchr(v, ':') != NULL;
}

int trace_limit_value(struct options *o, const char *v)
{
	if ((o->trace.limit = positive_whole(v, LLONG_MAX)) > 0)
		return 1;
	usage_error("--limit takes a number of events, not '%s'", v);
	return -1;
}

int trace_duration_value(struct options *o, const char *v)
{
	if ((o->trace.duration = positive_seconds(v)) > 0)
		return 1;
	usage_error("--duration takes a number of seconds, not '%s'", v);
	return -1;
}

/* --budget PERCENT[%] (0.1 to 100), or none: every firing traced. */
int trace_budget_value(struct options *o, const char *v)
{
	char *end;
	double d;

	if (strcmp(v, "none") == 0) {
		o->trace.budget = TRACE_BUDGET_NONE;
		return 1;
	}
	errno = 0;
	d = strtod(v, &end);
	if (*end == '%')
		end++;
	if (strchr("0123456789.", *v) && !errno && !*end && d >= 0.1 &&
	    d <= 100) {
		o->trace.budget = d;
		return 1;
	}
	usage_error("--budget takes a share of the traced processes' CPU time from 0.1%% to 100%%, or none, not '%s'",
		    v);
	return -1;
}

/* ARG->MEMBER, then ->MEMBER or .MEMBER, each a C name. */
static int member_expr_ok(const char *e)
{
	int parts = 0;

	for (;;) {
		size_t n = strspn(e, "abcdefghijklmnopqrstuvwxyz"
				     "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");

		if (!n || (*e >= '0' && *e <= '9'))
			return 0;
		e += n;
		if (!*e)
			return parts > 0;
		if (strncmp(e, "->", 2) == 0)
			e += 2;
		else if (*e == '.') /* a member, or a field of @fields text */
			e++;
		else
			return 0;
		parts++;
	}
}

int trace_show_ok(const char *v)
{
	const char *last = strrchr(v, ':');

	return last && last != v && strchr(v, ':') != last &&
	       member_expr_ok(last + 1);
}

int trace_stack_bytes_value(struct options *o, const char *v)
{
	long long n = positive_whole(v, TRACE_STACK_BYTES_MAX);

	if (n < 512) {
		usage_error("--stack-bytes takes a number of bytes from 512 to %d, not '%s'",
			    TRACE_STACK_BYTES_MAX, v);
		return -1;
	}
	o->trace.stack_bytes = (int)n;
	return 1;
}

int trace_stack_frames_value(struct options *o, const char *v)
{
	long long n = positive_whole(v, TRACE_STACK_FRAMES_MAX);

	if (n < 1) {
		usage_error("--stack-frames takes a number of frames from 1 to %d, not '%s'",
			    TRACE_STACK_FRAMES_MAX, v);
		return -1;
	}
	o->trace.stack_frames = (int)n;
	return 1;
}

int trace_string_bytes_value(struct options *o, const char *v)
{
	long long n = positive_whole(v, TRACE_STRING_BYTES_MAX);

	if (n < TRACE_STRING_BYTES_DEFAULT) {
		usage_error("--string-bytes takes a number of bytes from %d to %d, not '%s'",
			    TRACE_STRING_BYTES_DEFAULT, TRACE_STRING_BYTES_MAX,
			    v);
		return -1;
	}
	o->trace.string_bytes = (int)((n + 7) & ~7ll); /* a slot's: 8-aligned */
	return 1;
}

int trace_top_value(struct options *o, const char *v)
{
	if ((o->trace.top = (int)positive_whole(v, INT_MAX)) > 0)
		return 1;
	usage_error("--top takes a number of names, not '%s'", v);
	return -1;
}
