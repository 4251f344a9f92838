/*
 * options.h - the command line (options.c), checked against the table
 * of modes main.c keeps, and what it says of the input: the provider
 * file read, through cpp with -C (input.c), and -D's meaning (defines.c).
 */
#ifndef PROBEGEN_OPTIONS_H
#define PROBEGEN_OPTIONS_H

#include "probegen.h"

/* An emitter (compiler/emit.h's shape), named here by pointer only: the
 * options know no emitter. */
struct output;
struct program;
struct emit_options;
typedef int emit_fn(struct output *out, const struct program *prog,
		    const struct emit_options *opt);
#include "trace/trace_run.h"

/* The -C/-I/-D/-U options: the C preprocessor's, for reading .d files
 * (compiler/input.h) and what -G makes of them (compiler/defines.c). */
struct cpp_options {
	int enabled;
	char **args; /* -I/-D/-U arguments to pass on */
	int nargs;
};

/* ---- options.c: the command line, checked against the table of modes
 * (main.c) ---- */

/* Groups of options, each taken by some modes; option_table.c says
 * which option is in which. */
enum {
	O_OUTPUT = 1 << 0,  /* -o FILE */
	O_CPP = 1 << 1,	    /* -C, -I, -D, -U */
	O_TARGET = 1 << 2,  /* --target, -32, -64 */
	O_HEADER = 1 << 3,  /* --header-only, --self-contained */
	O_JSON = 1 << 4,    /* --json */
	O_CHECK = 1 << 5,   /* --strict, --allow-missing */
	O_TRACE = 1 << 6,   /* -c, -p, -n, --pair, --by, ... (the table) */
	O_FILES = 1 << 7,   /* -s given more than once */
	O_SUMMARY = 1 << 8, /* --summary */
	O_GROUPS = 9
};

/* What a mode reads besides its options. */
enum reads {
	READS_NOTHING,	   /* --list-targets */
	READS_D,	   /* a .d file (-s or the first operand), alone */
	READS_D_OBJECTS,   /* a .d file, then objects that choose the
			      target (-G) */
	READS_D_OR_BINARY, /* .d files, or one binary's recorded declarations */
	READS_D_BINARIES,  /* .d files, then binaries */
	READS_BINARIES,	   /* binaries */
	READS_TRACEES,	   /* binaries, -c or -p; -s files declare types */
};

struct options;

/* What a mode's output depends on, besides its probes' names. */
enum {
	M_TYPES = 1 << 0,	/* it spells argument types: a type no tracer
				   reads, or a name that looks mistyped, is
				   said */
	M_NO_TYPES = 1 << 1,	/* it depends on no argument type (-G): a
				   macro read as a type is not said either */
	M_SDT_DEFINES = 1 << 2, /* -D STAP_SDT_V1/V2, as SystemTap hands -D
				   to the compiler of -G */
};

/* What main.c runs for a mode: .d files compiled into one file (by
 * the mode's emit), or a command of its own. */
enum command {
	COMMAND_NONE, /* none: this probegen lacks the mode */
	COMMAND_COMPILE,
	COMMAND_LIST_TARGETS,
	COMMAND_LIST,
	COMMAND_CHECK,
	COMMAND_TRACE,
	COMMAND_COUNT
};

/* One thing probegen can do. */
struct mode {
	enum reads reads;
	unsigned takes;	       /* O_* groups it accepts */
	const char *extension; /* of the default output name */
	emit_fn *emit;	       /* compile .d files into one output */
	enum command command;  /* what main.c runs */
	unsigned depends;      /* M_* */
};

struct options {
	const struct mode *mode;
	const char *mode_option; /* the option that chose it: "-h" */
	const char *option_of[O_GROUPS]; /* the first option given of each */
	char *row_given; /* per row of option_rows: given */
	unsigned given;
	const char **files; /* -s FILE, in order */
	int nfiles;
	const char **operands; /* the rest, in order */
	int noperands;
	const char *output, *target;
	int bits; /* -32 / -64, 0 when not given */
	int header_only, self_contained, json, strict, allow_missing, sites;
	int summary;
	struct trace_options trace; /* --trace's own options */
	int command_split;	    /* trace.command is ours to free */
	struct cpp_options cpp;
};

/* ---- option_table.c: every option, one row each ---- */

/* What reading an option does. */
enum option_action {
	ACT_MODE,	 /* choose the row's mode */
	ACT_FLAG,	 /* set the int at offset */
	ACT_STRING,	 /* keep the value as given, at offset */
	ACT_LIST,	 /* one more value, as given, to the string_list at
			    offset (-n, --where), if check takes it */
	ACT_D_FILE,	 /* -s: one more provider file */
	ACT_CPP,	 /* -I, -D, -U: passed on to cpp */
	ACT_TRACE,	 /* a --trace value that options_trace.c checks */
	ACT_COMMAND,	 /* --: the rest is the command to trace */
	ACT_BITS,	 /* -32, -64 */
	ACT_NO_WARNINGS, /* -w */
	ACT_WERROR,	 /* -Werror */
	ACT_IGNORE,	 /* other dtraces' (and its value, if it has one) */
	ACT_COMPLETION,	 /* print the bash completion and exit */
	ACT_HELP,
	ACT_VERSION,
};

/* What bash completes an option's value with. */
enum completion {
	COMPLETE_NOTHING,
	COMPLETE_FILE,
	COMPLETE_D_FILE, /* provider files and directories */
	COMPLETE_TARGET, /* --list-targets' names */
	COMPLETE_PID,
	COMPLETE_COMMAND,
	COMPLETE_USER,
};

struct option_row {
	const char *name;  /* "-o", "--target" */
	const char *value; /* its value's name, NULL when it takes none; a
			      value follows as the next argument, or joined:
			      "-oFILE", "--target=ARCH" */
	unsigned group;	   /* O_*: the modes that take it; 0: any */
	enum option_action action;
	size_t offset; /* in struct options: ACT_FLAG, ACT_STRING, ACT_LIST */
	enum completion complete;
	const char *label; /* --help's first column, when not "NAME VALUE" */
	const char *help;  /* --help's lines; NULL: the row above's say it */
	/* ACT_TRACE: read the value into o (options_trace.c): 1, or -1
	   after saying why. */
	int (*parse)(struct options *o, const char *v);
	/* ACT_LIST: whether v is a value of it (NULL: any), and the usage
	   error's words when not ("-n takes PROVIDER:NAME"). */
	int (*check)(const char *v);
	const char *usage;
	/* Options, blank-separated: given with it, one of needs must be,
	   and none of excludes (the usage errors are made from these). */
	const char *needs, *excludes;
	const struct mode *mode; /* ACT_MODE: the mode it chooses */
};
extern const struct option_row option_rows[];
extern const size_t noption_rows;
/* The bash completion of option_rows (completion.c). */
void completion_bash(FILE *f);

/* Parse argv against option_table.c's rows: 1 to go on with o->mode, 0 when
 * the run is done (--help, --version, --bash-completion printed), -1
 * after a usage error it said (exit 2).  Free o with options_free()
 * either way. */
int options_parse(int argc, char **argv, struct options *o);
void options_free(struct options *o);
/* The text of --help (help.c). */
void options_usage(FILE *f);
/* ---- options_trace.c: the values of --trace's options ---- */

/* s split into words as a POSIX shell splits them (blanks; single and
 * double quotes; backslash), with no expansion of any kind: a NULL-
 * terminated argv to free with words_free(), or NULL and *error (to
 * free) when a quote is left open or there is no word (-c 'CMD ARGS'). */
char **split_words(const char *s, char **error);
void words_free(char **argv);

/* The readers of --trace's values, one per option (option_table.c's
 * rows name them): 1, or -1 after a usage error saying why. */
int trace_command_value(struct options *o, const char *v);  /* -c */
int trace_pid_value(struct options *o, const char *v);	    /* -p */
int trace_limit_value(struct options *o, const char *v);    /* --limit */
int trace_duration_value(struct options *o, const char *v); /* --duration */
int trace_budget_value(struct options *o, const char *v); /* --budget */
int trace_stack_bytes_value(struct options *o, const char *v); /* --stack-bytes */
int trace_stack_frames_value(struct options *o, const char *v); /* --stack-frames */
int trace_string_bytes_value(struct options *o, const char *v); /* --string-bytes */
int trace_top_value(struct options *o, const char *v);	    /* --top */
/* The checks of ACT_LIST rows' values: 1 when v is one. */
int trace_filter_ok(const char *v); /* -n: PROVIDER:NAME */
int trace_by_ok(const char *v);	    /* --by: P:START:ARG[+ARG...] */
int trace_show_ok(const char *v);   /* --show: P:N:ARG->MEMBER... */

/* The .d files: the -s files, else the first operand; and the operands
 * after them: objects (-G) or binaries (--check). */
const char *const *options_d_files(const struct options *o, int *n);
const char *const *options_after_d_files(const struct options *o, int *n);

#endif
