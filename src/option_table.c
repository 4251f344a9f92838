/*
 * option_table.c - every option probegen takes, one row each, in the
 * order --help lists them: its name and value, the group of modes that
 * take it, what reading it does, what --help says and what bash
 * completes its value with.  The parser (options.c), --help (help.c),
 * the group names of usage messages and the bash completion
 * (completion.c) are all made from these rows, so that they cannot
 * drift apart; t_cli checks the man pages' OPTIONS against --help.
 */
#include <stddef.h>

#include "compiler/emit.h"
#include "options.h"

#define AT(field) offsetof(struct options, field)

/* The modes, each chosen by its row below: what it reads, the groups
 * of options it takes (options.c checks the command line against
 * them), its output's default extension, and what it runs: an emitter
 * (.d files in, one file out, by main.c's COMMAND_COMPILE) or a command
 * of main.c's. */
static const struct mode header_mode = { READS_D, O_OUTPUT | O_CPP | O_HEADER,
					 "h", emit_header, COMMAND_COMPILE,
					 M_TYPES };
static const struct mode object_mode = { READS_D_OBJECTS,
					 O_OUTPUT | O_CPP | O_TARGET, "o",
					 emit_object, COMMAND_COMPILE,
					 M_NO_TYPES | M_SDT_DEFINES };
static const struct mode rust_mode = { READS_D, O_OUTPUT | O_CPP, "rs",
				       emit_rust, COMMAND_COMPILE, M_TYPES };
static const struct mode bpftrace_mode = {
	READS_D_OR_BINARY, O_OUTPUT | O_CPP | O_FILES | O_SUMMARY | O_TARGET,
	"bt", emit_bpftrace, COMMAND_COMPILE, M_TYPES
};
static const struct mode docs_mode = { READS_D,
				       O_OUTPUT | O_CPP | O_FILES | O_TARGET,
				       "md", emit_docs, COMMAND_COMPILE,
				       M_TYPES };
static const struct mode list_targets_mode = { READS_NOTHING, 0, NULL, NULL,
					       COMMAND_LIST_TARGETS, 0 };
static const struct mode list_mode = { READS_BINARIES, O_JSON, NULL, NULL,
				       COMMAND_LIST, 0 };
static const struct mode check_mode = { READS_D_BINARIES,
					O_CPP | O_CHECK | O_FILES | O_JSON,
					NULL, NULL, COMMAND_CHECK, 0 };
static const struct mode trace_mode = {
	READS_TRACEES, O_OUTPUT | O_CPP | O_JSON | O_TRACE | O_FILES | O_SUMMARY,
	NULL, NULL, COMMAND_TRACE, 0
};

const struct option_row option_rows[] = {
	{ .name = "-h", .action = ACT_MODE, .mode = &header_mode,
	  .help = "write a C header (default name: FILE.h)" },
	{ .name = "-G", .action = ACT_MODE, .mode = &object_mode,
	  .help = "write an ELF object (default name: FILE.o)" },
	{ .name = "--rust", .action = ACT_MODE, .mode = &rust_mode,
	  .help = "write a Rust module for build.rs (FILE.rs)" },
	{ .name = "--bpftrace", .action = ACT_MODE, .mode = &bpftrace_mode,
	  .help = "write a bpftrace script printing every probe's\n"
		  "arguments by name (FILE.bt); from .d files or\n"
		  "from the declarations a binary records" },
	{ .name = "--docs", .action = ACT_MODE, .mode = &docs_mode,
	  .help = "write a Markdown reference of the probes (FILE.md)" },
	{ .name = "--list", .action = ACT_MODE, .mode = &list_mode,
	  .help = "list the probes binaries carry" },
	{ .name = "--check", .action = ACT_MODE, .mode = &check_mode,
	  .help = "check binaries' probes against the .d files: exit 1\n"
		  "and a line per problem when they differ" },
	{ .name = "--trace", .action = ACT_MODE, .mode = &trace_mode,
	  .help = "print every firing of USDT probes, arguments by name\n"
		  "and type, of a command, a process or binaries" },
	{ .name = "-c", .value = "CMD", .group = O_TRACE, .action = ACT_TRACE,
	  .complete = COMPLETE_COMMAND, .label = "-c 'CMD ARGS'",
	  .help = "with --trace: run CMD, split as a shell splits\n"
		  "words (quotes, backslash) with no expansion,\n"
		  "and trace it and every process it starts",
	  .parse = trace_command_value },
	{ .name = "--", .group = O_TRACE, .action = ACT_COMMAND,
	  .label = "-- CMD ARGS",
	  .help = "with --trace: the same, ARGS exactly as given" },
	{ .name = "-p", .value = "PID", .group = O_TRACE, .action = ACT_TRACE,
	  .complete = COMPLETE_PID,
	  .help = "with --trace: process PID, its libraries and the\n"
		  "processes it starts",
	  .parse = trace_pid_value },
	{ .name = "-n", .value = "PROVIDER:NAME", .group = O_TRACE,
	  .action = ACT_LIST, .offset = AT(trace.filters),
	  .help = "with --trace: only these probes (globs: 'myapp:*');\n"
		  "'!P:N' leaves those out",
	  .check = trace_filter_ok, .usage = "-n takes PROVIDER:NAME" },
	{ .name = "--limit", .value = "N", .group = O_TRACE,
	  .action = ACT_TRACE, .help = "with --trace: stop after N events",
	  .parse = trace_limit_value },
	{ .name = "--duration", .value = "SECONDS", .group = O_TRACE,
	  .action = ACT_TRACE, .help = "with --trace: stop after SECONDS",
	  .parse = trace_duration_value },
	{ .name = "--budget", .value = "PERCENT|none", .group = O_TRACE,
	  .action = ACT_TRACE,
	  .help = "with --trace: the most the trace may add to the\n"
		  "traced processes' CPU time (default with -p: "
		  PROBEGEN_STR(TRACE_BUDGET_DEFAULT_PID) "%;\n"
		  "else none); hot probes are then sampled, and\n"
		  "what was sampled is said and scaled",
	  .parse = trace_budget_value },
	{ .name = "--summary", .group = O_SUMMARY, .action = ACT_FLAG,
	  .offset = AT(summary),
	  .help = "with --trace: count every probe and time the\n"
		  "provider's start/done pairs in the kernel, print\n"
		  "them at the end (histograms, percentiles, probes\n"
		  "never fired); with --bpftrace: a script that does" },
	{ .name = "--pair", .value = "P:START,P:END[,ARG]", .group = O_TRACE,
	  .action = ACT_LIST, .offset = AT(trace.pair_requests),
	  .help = "with --trace: time this pair; with ARG, match its\n"
		  "starts and ends by that argument (or a member\n"
		  "expression on it: conn->id) across threads" },
	{ .name = "--by", .value = "P:START:ARG[+ARG...]", .group = O_TRACE,
	  .action = ACT_LIST, .offset = AT(trace.by_requests),
	  .help = "with --trace: name the calls of the pair START\n"
		  "starts by these arguments (Class::method);\n"
		  "else a runtime's function and class names them\n"
		  "(--summary breaks such pairs down by name)",
	  .check = trace_by_ok, .usage = "--by takes PROVIDER:START:ARG[+ARG...]",
	  .needs = "--summary --timeline --folded --metrics" },
	{ .name = "--show", .value = "P:N:EXPR", .group = O_TRACE,
	  .action = ACT_LIST, .offset = AT(trace.show_requests),
	  .help = "with --trace: add a member of an argument to each\n"
		  "firing of the probes P:N (globs), EXPR as C\n"
		  "writes it (conn->local.id), laid out from the\n"
		  "binary's DWARF and read at the firing",
	  .check = trace_show_ok, .usage = "--show takes PROVIDER:PROBE:ARG->MEMBER[.MEMBER|->MEMBER...]" },
	{ .name = "--stack", .group = O_TRACE, .action = ACT_FLAG,
	  .offset = AT(trace.stack),
	  .help = "with --trace: each firing's native stack, walked\n"
		  "with the binaries' CFI (no frame pointers needed);\n"
		  "with --summary or --folded: firings by stack",
 },
	{ .name = "--stack-bytes", .value = "N", .group = O_TRACE,
	  .action = ACT_TRACE,
	  .help = "with --stack: the bytes of the stack copied at each\n"
		  "firing (default " PROBEGEN_STR(TRACE_STACK_BYTES_DEFAULT) ", at most " PROBEGEN_STR(TRACE_STACK_BYTES_MAX) ")",
	  .parse = trace_stack_bytes_value, .needs = "--stack" },
	{ .name = "--stack-frames", .value = "N", .group = O_TRACE,
	  .action = ACT_TRACE,
	  .help = "with --stack: the frames a walk keeps (default\n"
		  PROBEGEN_STR(TRACE_STACK_FRAMES_DEFAULT) ", perf's; at most " PROBEGEN_STR(TRACE_STACK_FRAMES_MAX) ")",
	  .parse = trace_stack_frames_value, .needs = "--stack" },
	{ .name = "--string-bytes", .value = "N", .group = O_TRACE,
	  .action = ACT_TRACE,
	  .help = "with --trace: the bytes of each string or byte value\n"
		  "copied at a firing, a string's NUL among them (default\n"
		  PROBEGEN_STR(TRACE_STRING_BYTES_DEFAULT) ", at most " PROBEGEN_STR(TRACE_STRING_BYTES_MAX) ", rounded up to a multiple of 8)",
	  .parse = trace_string_bytes_value },
	{ .name = "--expect", .value = "'P:N[{COUNT}][: EXPR]'",
	  .group = O_TRACE, .action = ACT_LIST,
	  .offset = AT(trace.expect_requests),
	  .help = "with --trace: the run fails (status 1) unless the\n"
		  "firings of P:N (globs) that pass EXPR (as --where's)\n"
		  "number COUNT: {N} exactly, {N,} at least, {N,M};\n"
		  "default {1,}, {0} never; each said at the end" },
	{ .name = "--where", .value = "'P:N: EXPR'", .group = O_TRACE,
	  .action = ACT_LIST, .offset = AT(trace.where_requests),
	  .help = "with --trace: only the firings of the probes P:N\n"
		  "(globs) whose arguments pass EXPR (latency > 1000,\n"
		  "path ~ \"/api/*\", && || ! and parentheses),\n"
		  "decided in the kernel" },
	{ .name = "--top", .value = "N", .group = O_TRACE, .action = ACT_TRACE,
	  .help = "with --summary: the N names of most self time\n"
		  "(default " PROBEGEN_STR(TRACE_TOP_DEFAULT) "; --json has all)",
	  .parse = trace_top_value,
	  .needs = "--summary" },
	{ .name = "--folded", .value = "FILE", .group = O_TRACE,
	  .action = ACT_STRING, .offset = AT(trace.folded),
	  .complete = COMPLETE_FILE,
	  .help = "with --trace: write the calls as folded stacks\n"
		  "(flamegraph.pl, inferno, speedscope), weighed\n"
		  "by self time in nanoseconds" },
	{ .name = "--pprof", .value = "FILE", .group = O_TRACE,
	  .action = ACT_STRING, .offset = AT(trace.pprof),
	  .complete = COMPLETE_FILE,
	  .help = "with --trace: write the calls as a pprof profile\n"
		  "(go tool pprof, Pyroscope, speedscope): calls and\n"
		  "self time" },
	{ .name = "--metrics", .value = "HOST:PORT", .group = O_TRACE,
	  .action = ACT_STRING, .offset = AT(trace.metrics),
	  .help = "with --trace: count and time in the kernel and\n"
		  "serve it to Prometheus on GET /metrics until\n"
		  "SIGTERM (:PORT: loopback); --by P:N:ARG labels\n"
		  "a probe's firings by ARG's values",
	  .excludes = "--summary --timeline --folded --pprof --limit --json --expect-all" },
	{ .name = "--user", .value = "NAME", .group = O_TRACE,
	  .action = ACT_STRING, .offset = AT(trace.user),
	  .complete = COMPLETE_USER,
	  .help = "with --metrics: run as NAME once attached",
	  .needs = "--metrics" },
	{ .name = "--expect-all", .group = O_TRACE, .action = ACT_FLAG,
	  .offset = AT(trace.expect_all),
	  .help = "with --trace: exit 1 if a probe never fired" },
	{ .name = "--timeline", .value = "FILE.json", .group = O_TRACE,
	  .action = ACT_STRING, .offset = AT(trace.timeline),
	  .complete = COMPLETE_FILE,
	  .help = "with --trace: write the firings as a timeline\n"
		  "(Chrome Trace Event Format: Perfetto, speedscope),\n"
		  "each pair a slice on its thread" },
	{ .name = "--json", .group = O_JSON, .action = ACT_FLAG,
	  .offset = AT(json),
	  .help = "with --list, --check and --trace: JSON for tools" },
	{ .name = "--strict", .group = O_CHECK, .action = ACT_FLAG,
	  .offset = AT(strict),
	  .help = "with --check: size and sign warnings are errors" },
	{ .name = "--allow-missing", .group = O_CHECK, .action = ACT_FLAG,
	  .offset = AT(allow_missing),
	  .help = "with --check: missing probes are warnings" },
	{ .name = "--sites", .group = O_CHECK, .action = ACT_FLAG,
	  .offset = AT(sites),
	  .help = "with --check: a line per site, not one per finding" },
	/* Its group is for a second -s: one is every mode's. */
	{ .name = "-s", .value = "FILE", .group = O_FILES,
	  .action = ACT_D_FILE, .complete = COMPLETE_D_FILE,
	  .help = "the provider file (also the first operand); with\n"
		  "--check, --docs, --bpftrace and --trace, once per\n"
		  "file of a provider split across files" },
	{ .name = "-o", .value = "FILE", .group = O_OUTPUT,
	  .action = ACT_STRING, .offset = AT(output),
	  .complete = COMPLETE_FILE,
	  .help = "the output file; with --trace, where the events and\n"
		  "the summary go, apart from the command's output" },
	{ .name = "-C", .group = O_CPP, .action = ACT_FLAG,
	  .offset = AT(cpp.enabled),
	  .help = "run the C preprocessor first ($CPP or cpp)" },
	{ .name = "-I", .value = "DIR", .group = O_CPP, .action = ACT_CPP,
	  .complete = COMPLETE_FILE,
	  .label = "-I DIR, -D NAME[=VALUE], -U NAME",
	  .help = "passed to the preprocessor with -C; with -G,\n"
		  "-DSTAP_SDT_V1/V2 as to SystemTap (man page)" },
	{ .name = "-D", .value = "NAME[=VALUE]", .group = O_CPP,
	  .action = ACT_CPP },
	{ .name = "-U", .value = "NAME", .group = O_CPP, .action = ACT_CPP },
	{ .name = "--header-only", .group = O_HEADER, .action = ACT_FLAG,
	  .offset = AT(header_only),
	  .help = "with -h: define the semaphores in the header,\n"
		  "so that no -G object is needed" },
	{ .name = "--self-contained", .group = O_HEADER, .action = ACT_FLAG,
	  .offset = AT(self_contained),
	  .help = "with -h: write the probe notes without sys/sdt.h" },
	{ .name = "--target", .value = "ARCH", .group = O_TARGET,
	  .action = ACT_STRING, .offset = AT(target),
	  .complete = COMPLETE_TARGET, .label = "--target=ARCH",
	  .help = "with -G: the target (see --list-targets);\n"
		  "default: that of the OBJECTs, else $CC $CFLAGS's\n"
		  "(-m32, -mx32, a cross compiler), else the host" },
	/* SystemTap takes them with -h too, and ignores them everywhere:
	 * here they choose -G's target, and mean nothing elsewhere, so
	 * their group is never checked (ACT_BITS). */
	{ .name = "-32", .group = O_TARGET, .action = ACT_BITS,
	  .label = "-32, -64",
	  .help = "with -G: the 32- or 64-bit member of the family" },
	{ .name = "-64", .group = O_TARGET, .action = ACT_BITS },
	{ .name = "--list-targets", .action = ACT_MODE, .mode = &list_targets_mode,
	  .help = "print the targets -G supports" },
	/* gcc's names: no warnings, or warnings as errors (for CI). */
	{ .name = "-w", .action = ACT_NO_WARNINGS, .help = "print no warning" },
	{ .name = "-Werror", .action = ACT_WERROR,
	  .help = "make warnings errors (nothing is written)" },
	/* Meaningful to other dtraces only: SystemTap ignores these too
	 * (-k keeps its temporary files, of which probegen makes none;
	 * --no-pyparsing picks its fallback parser: probegen has one;
	 * -xnolibs, -x opt are illumos dtrace's). */
	{ .name = "-x", .value = "OPT", .action = ACT_IGNORE,
	  .label = "-x OPT, -k, -fpic, -fPIC, --types, --no-pyparsing",
	  .help = "accepted for compatibility with dtrace; ignored" },
	{ .name = "-k", .action = ACT_IGNORE },
	{ .name = "-fpic", .action = ACT_IGNORE },
	{ .name = "-fPIC", .action = ACT_IGNORE },
	{ .name = "--types", .action = ACT_IGNORE },
	{ .name = "--no-pyparsing", .action = ACT_IGNORE },
	{ .name = "--bash-completion", .action = ACT_COMPLETION,
	  .help = "print the bash completion of these options" },
	{ .name = "--help", .action = ACT_HELP, .help = "print this help" },
	{ .name = "--version", .action = ACT_VERSION,
	  .help = "print the version" },
};

const size_t noption_rows = sizeof(option_rows) / sizeof(option_rows[0]);
