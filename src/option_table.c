/*
 * option_table.c - every option probegen takes, one row each, in the
 * order --help lists them: its name and value, the group of modes that
 * take it, what reading it does, what --help says and what bash
 * completes its value with.  The parser (options.c), --help (help.c),
 * the group names of usage messages and the bash completion
 * (completion.c) are all made from these rows, so that they cannot
 * drift apart; t_cli checks the man page's OPTIONS against --help.
 */
#include <stddef.h>

#include "options.h"

#define AT(field) offsetof(struct options, field)

const struct option_row option_rows[] = {
	{ "-h", NULL, 0, ACT_MODE, 0, 0, NULL,
	  "write a C header (default name: FILE.h)" },
	{ "-G", NULL, 0, ACT_MODE, 0, 0, NULL,
	  "write an ELF object (default name: FILE.o)" },
	{ "--rust", NULL, 0, ACT_MODE, 0, 0, NULL,
	  "write a Rust module for build.rs (FILE.rs)" },
	{ "--bpftrace", NULL, 0, ACT_MODE, 0, 0, NULL,
	  "write a bpftrace script printing every probe's\n"
	  "arguments by name (FILE.bt); from .d files or\n"
	  "from the declarations a binary records" },
	{ "--docs", NULL, 0, ACT_MODE, 0, 0, NULL,
	  "write a Markdown reference of the probes (FILE.md)" },
	{ "--list", NULL, 0, ACT_MODE, 0, 0, NULL,
	  "list the probes binaries carry" },
	{ "--check", NULL, 0, ACT_MODE, 0, 0, NULL,
	  "check binaries' probes against the .d files: exit 1\n"
	  "and a line per problem when they differ" },
	{ "--trace", NULL, 0, ACT_MODE, 0, 0, NULL,
	  "print every firing of USDT probes, arguments by name\n"
	  "and type, of a command, a process or binaries" },
	{ "-c", "CMD", O_TRACE, ACT_TRACE, 0, COMPLETE_COMMAND, "-c 'CMD ARGS'",
	  "with --trace: run CMD, split as a shell splits\n"
	  "words (quotes, backslash) with no expansion,\n"
	  "and trace it and every process it starts" },
	{ "--", NULL, O_TRACE, ACT_COMMAND, 0, 0, "-- CMD ARGS",
	  "with --trace: the same, ARGS exactly as given" },
	{ "-p", "PID", O_TRACE, ACT_TRACE, 0, COMPLETE_PID, NULL,
	  "with --trace: process PID, its libraries and the\n"
	  "processes it starts" },
	{ "-n", "PROVIDER:NAME", O_TRACE, ACT_TRACE, 0, 0, NULL,
	  "with --trace: only these probes (globs: 'myapp:*')" },
	{ "--limit", "N", O_TRACE, ACT_TRACE, 0, 0, NULL,
	  "with --trace: stop after N events" },
	{ "--duration", "SECONDS", O_TRACE, ACT_TRACE, 0, 0, NULL,
	  "with --trace: stop after SECONDS" },
	{ "--summary", NULL, O_SUMMARY, ACT_FLAG, AT(summary), 0, NULL,
	  "with --trace: count every probe and time the\n"
	  "provider's start/done pairs in the kernel, print\n"
	  "them at the end (histograms, percentiles, probes\n"
	  "never fired); with --bpftrace: a script that does" },
	{ "--pair", "P:START,P:END[,ARG]", O_TRACE, ACT_TRACE, 0, 0, NULL,
	  "with --trace: time this pair; with ARG, match its\n"
	  "starts and ends by that argument across threads" },
	{ "--by", "P:START:ARG[+ARG...]", O_TRACE, ACT_TRACE, 0, 0, NULL,
	  "with --trace: name the calls of the pair START\n"
	  "starts by these arguments (Class::method);\n"
	  "else a runtime's function and class names them\n"
	  "(--summary breaks such pairs down by name)" },
	{ "--top", "N", O_TRACE, ACT_TRACE, 0, 0, NULL,
	  "with --summary: the N names of most self time\n"
	  "(default " PROBEGEN_STR(TRACE_TOP_DEFAULT) "; --json has all)" },
	{ "--folded", "FILE", O_TRACE, ACT_STRING, AT(trace.folded),
	  COMPLETE_FILE, NULL,
	  "with --trace: write the calls as folded stacks\n"
	  "(flamegraph.pl, inferno, speedscope), weighed\n"
	  "by self time in nanoseconds" },
	{ "--metrics", "HOST:PORT", O_TRACE, ACT_STRING, AT(trace.metrics), 0,
	  NULL,
	  "with --trace: count and time in the kernel and\n"
	  "serve it to Prometheus on GET /metrics until\n"
	  "SIGTERM (:PORT: loopback); --by P:N:ARG labels\n"
	  "a probe's firings by ARG's values" },
	{ "--user", "NAME", O_TRACE, ACT_STRING, AT(trace.user), COMPLETE_USER,
	  NULL, "with --metrics: run as NAME once attached" },
	{ "--expect-all", NULL, O_TRACE, ACT_FLAG, AT(trace.expect_all), 0,
	  NULL, "with --trace: exit 1 if a probe never fired" },
	{ "--timeline", "FILE.json", O_TRACE, ACT_STRING, AT(trace.timeline),
	  COMPLETE_FILE, NULL,
	  "with --trace: write the firings as a timeline\n"
	  "(Chrome Trace Event Format: Perfetto, speedscope),\n"
	  "each pair a slice on its thread" },
	{ "--json", NULL, O_JSON, ACT_FLAG, AT(json), 0, NULL,
	  "with --list, --check and --trace: JSON for tools" },
	{ "--strict", NULL, O_CHECK, ACT_FLAG, AT(strict), 0, NULL,
	  "with --check: size and sign warnings are errors" },
	{ "--allow-missing", NULL, O_CHECK, ACT_FLAG, AT(allow_missing), 0,
	  NULL, "with --check: missing probes are warnings" },
	{ "--sites", NULL, O_CHECK, ACT_FLAG, AT(sites), 0, NULL,
	  "with --check: a line per site, not one per finding" },
	/* Its group is for a second -s: one is every mode's. */
	{ "-s", "FILE", O_FILES, ACT_D_FILE, 0, COMPLETE_D_FILE, NULL,
	  "the provider file (also the first operand); with\n"
	  "--check, --docs, --bpftrace and --trace, once per\n"
	  "file of a provider split across files" },
	{ "-o", "FILE", O_OUTPUT, ACT_STRING, AT(output), COMPLETE_FILE, NULL,
	  "the output file; with --trace, where the events and\n"
	  "the summary go, apart from the command's output" },
	{ "-C", NULL, O_CPP, ACT_FLAG, AT(cpp.enabled), 0, NULL,
	  "run the C preprocessor first ($CPP or cpp)" },
	{ "-I", "DIR", O_CPP, ACT_CPP, 0, COMPLETE_FILE,
	  "-I DIR, -D NAME[=VALUE], -U NAME",
	  "passed to the preprocessor with -C; with -G,\n"
	  "-DSTAP_SDT_V1/V2 as to SystemTap (man page)" },
	{ "-D", "NAME[=VALUE]", O_CPP, ACT_CPP, 0, 0, NULL, NULL },
	{ "-U", "NAME", O_CPP, ACT_CPP, 0, 0, NULL, NULL },
	{ "--header-only", NULL, O_HEADER, ACT_FLAG, AT(header_only), 0, NULL,
	  "with -h: define the semaphores in the header,\n"
	  "so that no -G object is needed" },
	{ "--self-contained", NULL, O_HEADER, ACT_FLAG, AT(self_contained), 0,
	  NULL, "with -h: write the probe notes without sys/sdt.h" },
	{ "--target", "ARCH", O_TARGET, ACT_STRING, AT(target), COMPLETE_TARGET,
	  "--target=ARCH",
	  "with -G: the target (see --list-targets);\n"
	  "default: that of the OBJECTs, else $CC $CFLAGS's\n"
	  "(-m32, -mx32, a cross compiler), else the host" },
	/* SystemTap takes them with -h too, and ignores them everywhere:
	 * here they choose -G's target, and mean nothing elsewhere, so
	 * their group is never checked (ACT_BITS). */
	{ "-32", NULL, O_TARGET, ACT_BITS, 0, 0, "-32, -64",
	  "with -G: the 32- or 64-bit member of the family" },
	{ "-64", NULL, O_TARGET, ACT_BITS, 0, 0, NULL, NULL },
	{ "--list-targets", NULL, 0, ACT_MODE, 0, 0, NULL,
	  "print the targets -G supports" },
	/* gcc's names: no warnings, or warnings as errors (for CI). */
	{ "-w", NULL, 0, ACT_NO_WARNINGS, 0, 0, NULL, "print no warning" },
	{ "-Werror", NULL, 0, ACT_WERROR, 0, 0, NULL,
	  "make warnings errors (nothing is written)" },
	/* Meaningful to other dtraces only: SystemTap ignores these too
	 * (-k keeps its temporary files, of which probegen makes none;
	 * --no-pyparsing picks its fallback parser: probegen has one;
	 * -xnolibs, -x opt are illumos dtrace's). */
	{ "-x", "OPT", 0, ACT_IGNORE, 0, 0,
	  "-x OPT, -k, -fpic, -fPIC, --types, --no-pyparsing",
	  "accepted for compatibility with dtrace; ignored" },
	{ "-k", NULL, 0, ACT_IGNORE, 0, 0, NULL, NULL },
	{ "-fpic", NULL, 0, ACT_IGNORE, 0, 0, NULL, NULL },
	{ "-fPIC", NULL, 0, ACT_IGNORE, 0, 0, NULL, NULL },
	{ "--types", NULL, 0, ACT_IGNORE, 0, 0, NULL, NULL },
	{ "--no-pyparsing", NULL, 0, ACT_IGNORE, 0, 0, NULL, NULL },
	{ "--bash-completion", NULL, 0, ACT_COMPLETION, 0, 0, NULL,
	  "print the bash completion of these options" },
	{ "--help", NULL, 0, ACT_HELP, 0, 0, NULL, "print this help" },
	{ "--version", NULL, 0, ACT_VERSION, 0, 0, NULL, "print the version" },
};

const size_t noption_rows = sizeof(option_rows) / sizeof(option_rows[0]);
