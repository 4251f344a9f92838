/*
 * help.c - the text of --help: every mode and option, as the man page
 * (man/probegen.1) describes them at length.
 */
#include <stdio.h>

#include "options.h"

/* The synopsis: a line for each mode. */
static void usage_synopsis(FILE *f)
{
	fprintf(f,
		"Usage: probegen -h [options] [-s] FILE.d [-o FILE.h]\n"
		"       probegen -G [options] [-s] FILE.d [-o FILE.o] [OBJECT...]\n"
		"       probegen --rust [options] [-s] FILE.d [-o FILE.rs]\n"
		"       probegen --bpftrace [options] [-s FILE.d]...|BINARY [-o FILE.bt]\n"
		"       probegen --docs [options] [-s FILE.d]... [-o FILE.md]\n"
		"       probegen --list [--json] BINARY...\n"
		"       probegen --check [--strict] [--allow-missing] [-s FILE.d]... BINARY...\n"
		"       probegen --trace [-p PID] [-n PROVIDER:NAME]... [--limit N] [--json]\n"
		"                        [--duration SECONDS] [--summary] [--expect-all]\n"
		"                        [--pair P:START,P:END[,ARG]]... [--timeline FILE.json]\n"
		"                        [--by P:START:ARG[+ARG]]... [--top N] [--folded FILE]\n"
		"                        [--metrics HOST:PORT [--user NAME]] [-o FILE]\n"
		"                        [-s FILE.d]... [BINARY...] [-c 'CMD ARGS' | -- CMD ARGS]\n"
		"       probegen --list-targets\n"
		"\n");
}

/* What each mode does, and --trace's options. */
static void usage_modes(FILE *f)
{
	fprintf(f,
		"Compile a D provider file into the C header a program calls (-h)\n"
		"or the object file its link needs (-G), for SystemTap SDT probes.\n"
		"\n"
		"  -h                 write a C header (default name: FILE.h)\n"
		"  -G                 write an ELF object (default name: FILE.o)\n"
		"  --rust             write a Rust module for build.rs (FILE.rs)\n"
		"  --bpftrace         write a bpftrace script printing every probe's\n"
		"                     arguments by name (FILE.bt); from .d files or\n"
		"                     from the declarations a binary records\n"
		"  --docs             write a Markdown reference of the probes (FILE.md)\n"
		"  --list             list the probes binaries carry\n"
		"  --trace            print every firing of USDT probes, arguments by name\n"
		"                     and type, of a command, a process or binaries\n"
		"  -c 'CMD ARGS'      with --trace: run CMD, split as a shell splits\n"
		"                     words (quotes, backslash) with no expansion,\n"
		"                     and trace it and every process it starts\n"
		"  -- CMD ARGS        with --trace: the same, ARGS exactly as given\n"
		"  -p PID             with --trace: process PID, its libraries and the\n"
		"                     processes it starts\n"
		"  -n PROVIDER:NAME   with --trace: only these probes (globs: 'myapp:*')\n"
		"  --limit N          with --trace: stop after N events\n"
		"  --duration SECONDS with --trace: stop after SECONDS\n"
		"  --summary          with --trace: count every probe and time the\n"
		"                     provider's start/done pairs in the kernel, print\n"
		"                     them at the end (histograms, percentiles, probes\n"
		"                     never fired); with --bpftrace: a script that does\n"
		"  --pair P:START,P:END[,ARG]\n"
		"                     with --trace: time this pair; with ARG, match its\n"
		"                     starts and ends by that argument across threads\n"
		"  --by P:START:ARG[+ARG...]\n"
		"                     with --trace: name the calls of the pair START\n"
		"                     starts by these arguments (Class::method);\n"
		"                     else a runtime's function and class names them\n"
		"                     (--summary breaks such pairs down by name)\n"
		"  --top N            with --summary: the N names of most self time\n"
		"                     (default 20; --json has all)\n"
		"  --folded FILE      with --trace: write the calls as folded stacks\n"
		"                     (flamegraph.pl, inferno, speedscope), weighed\n"
		"                     by self time in nanoseconds\n"
		"  --metrics HOST:PORT\n"
		"                     with --trace: count and time in the kernel and\n"
		"                     serve it to Prometheus on GET /metrics until\n"
		"                     SIGTERM (:PORT: loopback); --by P:N:ARG labels\n"
		"                     a probe's firings by ARG's values\n"
		"  --user NAME        with --metrics: run as NAME once attached\n"
		"  --expect-all       with --trace: exit 1 if a probe never fired\n"
		"  --timeline FILE.json\n"
		"                     with --trace: write the firings as a timeline\n"
		"                     (Chrome Trace Event Format: Perfetto, speedscope),\n"
		"                     each pair a slice on its thread\n");
}

/* The options of the compiler and the inspector, and the exit status. */
static void usage_options(FILE *f)
{
	fprintf(f,
		"  --json             with --list, --check and --trace: JSON for tools\n"
		"  --check            check binaries' probes against the .d files: exit 1\n"
		"                     and a line per problem when they differ\n"
		"  --strict           with --check: size and sign warnings are errors\n"
		"  --allow-missing    with --check: missing probes are warnings\n"
		"  --sites            with --check: a line per site, not one per finding\n"
		"  -s FILE            the provider file (also the first operand); with\n"
		"                     --check, --docs, --bpftrace and --trace, once per\n"
		"                     file of a provider split across files\n"
		"  -o FILE            the output file; with --trace, where the events and\n"
		"                     the summary go, apart from the command's output\n"
		"  -C                 run the C preprocessor first ($CPP or cpp)\n"
		"  -I DIR, -D NAME[=VALUE], -U NAME\n"
		"                     passed to the preprocessor with -C; with -G,\n"
		"                     -DSTAP_SDT_V1/V2 as to SystemTap (man page)\n"
		"  --header-only      with -h: define the semaphores in the header,\n"
		"                     so that no -G object is needed\n"
		"  --self-contained   with -h: write the probe notes without sys/sdt.h\n"
		"  --target=ARCH      with -G: the target (see --list-targets);\n"
		"                     default: that of the OBJECTs, else $CC $CFLAGS's\n"
		"                     (-m32, -mx32, a cross compiler), else the host\n"
		"  -32, -64           with -G: the 32- or 64-bit member of the family\n"
		"  --list-targets     print the targets -G supports\n"
		"  -w                 print no warning\n"
		"  -Werror            make warnings errors (nothing is written)\n"
		"  -x OPT, -k, -fpic, -fPIC, --types, --no-pyparsing\n"
		"                     accepted for compatibility with dtrace; ignored\n"
		"  --help             print this help\n"
		"  --version          print the version\n"
		"\n"
		"Exit status: 0 success, 1 invalid input (a provider file, or what\n"
		"--check and --trace find in binaries), 2 usage or system error.\n");
}

void options_usage(FILE *f)
{
	usage_synopsis(f);
	usage_modes(f);
	usage_options(f);
}
