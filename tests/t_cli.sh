# t_cli.sh - the command line: every form real builds use, help and
# version, default names, exit statuses, and nothing written on failure.

provider_file() {
	printf 'provider cli {\n\tprobe a(int x, char *s);\n\tprobe b();\n};\n' > ${1:-cli}.d
}

t_cli_help_version() {
	"$PROBEGEN" --help > help || fail "--help failed"
	for w in -h -G --rust -s -o -C --header-only --target -32 "Exit status"; do
		grep -q -- "$w" help || fail "--help does not mention $w"
	done
	"$PROBEGEN" --version > v || fail "--version failed"
	# x.y.z, after a tag's commits git describe's -N-gHASH (-dirty).
	grep -qE '^probegen [0-9]+\.[0-9]+\.[0-9]+(-[0-9]+-g[0-9a-f]+)?(-dirty|-unknown)?$' v || fail "version: $(cat v)"
	ok
}

t_cli_usage_errors() {
	provider_file
	local args msg
	while IFS='|' read -r args msg; do
		eval "\"\$PROBEGEN\" $args" > out 2> err
		status=$?
		[ $status -eq 2 ] || fail "'$args': exit $status, expected 2"
		expect_eq "$(head -n 1 err)" "probegen: error: $msg" "message for '$args'"
		case $msg in
		cannot*) ;;
		*) expect_eq "$(sed -n 2p err)" "Try 'probegen --help' for more information." "hint for '$args'" ;;
		esac
	done <<-'A'
	-s cli.d|no mode given: -h, -G, --rust, --bpftrace, --docs, --list, --check, --trace or --list-targets
	-h|no provider file given (use -s FILE)
	-h -G -s cli.d|'-h' and '-G' cannot be given together
	-h --bogus -s cli.d|unrecognised option '--bogus'
	-h -v -s cli.d|unrecognised option '-v'
	-h -s cli.d -o|option '-o' requires a value
	-h -s missing.d|cannot open 'missing.d': No such file or directory
	-G --target=pdp11 -s cli.d|unknown target 'pdp11' (see --list-targets)
	-G --header-only -s cli.d|'--header-only' does not go with '-G' (which takes -o, -C, -I, -D, -U, --target, -32, -64)
	-h --json -s cli.d|'--json' does not go with '-h' (which takes -o, -C, -I, -D, -U, --header-only, --self-contained)
	-h -p 1 -s cli.d|'-p' does not go with '-h' (which takes -o, -C, -I, -D, -U, --header-only, --self-contained)
	--list --strict x|'--strict' does not go with '--list' (which takes --json)
	--list-targets -o x|'-o' does not go with '--list-targets' (which takes no options)
	--check -s cli.d|--check needs a provider file and at least one binary
	--list|--list needs at least one binary
	--trace|--trace needs -c CMD, -- CMD, -p PID or a binary
	--trace --|'--' must be followed by a command
	--trace -c "'a"|-c ''a': unterminated single quote
	-h -s cli.d -s cli.d|'-h' takes one provider file; '-s cli.d' is a second
	-h -s cli.d /etc/passwd|unexpected operand '/etc/passwd': -h reads the -s files alone
	-h cli.d extra.d|unexpected operand 'extra.d': -h reads one provider file
	--rust -s cli.d x.o|unexpected operand 'x.o': --rust reads the -s files alone
	--list-targets x|unexpected operand 'x': --list-targets reads none
	-G -32 --target=riscv64 -s cli.d|no 32-bit variant of target 'riscv64'
	--trace --limit 10x -c true|--limit takes a number of events, not '10x'
	--trace --limit 0 -c true|--limit takes a number of events, not '0'
	--trace --limit 99999999999999999999 -c true|--limit takes a number of events, not '99999999999999999999'
	--trace --duration 3s -c true|--duration takes a number of seconds, not '3s'
	--trace --duration nan -c true|--duration takes a number of seconds, not 'nan'
	--trace -p 12x|-p takes a process ID, not '12x'
	--trace -p ' 1'|-p takes a process ID, not ' 1'
	--trace --limit=0 -c true|--limit takes a number of events, not '0'
	--trace -p12x|-p takes a process ID, not '12x'
	--trace --summary --bogus -c true|unrecognised option '--bogus'
	--trace --strict -c true|'--strict' does not go with '--trace' (which takes -o, -C, -I, -D, -U, --json, -c, --, -p, -n, --limit, --duration, --budget, --pair, --by, --show, --stack, --stack-bytes, --stack-frames, --string-bytes, --expect, --where, --top, --folded, --pprof, --metrics, --user, --expect-all, --timeline, -s more than once, --summary)
	--bash-completion=zsh|unrecognised option '--bash-completion=zsh'
	--trace --top 3 -c true|--top needs --summary
	--trace --by a:b:c -c true|--by needs --summary, --timeline, --folded or --metrics
	--trace --metrics :0 --limit 5 -c true|--metrics does not go with --summary, --timeline, --folded, --pprof, --limit, --json or --expect-all
	--trace --user nobody -c true|--user needs --metrics
	A
	ls *.h *.o 2>/dev/null && fail "something was written"
	ok
}

# Every command line real builds run (README: "Compatibility with
# SystemTap's dtrace"), unchanged.
t_cli_real_command_lines() {
	provider_file probes
	printf 'int f(void) { return 0; }\n' > x.c
	expect gcc -c x.c -o obj1.o
	cp obj1.o obj2.o
	while IFS='|' read -r who args out; do
		rm -f "$out"
		eval "\"\$PROBEGEN\" $args" 2> err || { cat err; fail "$who: $args"; }
		[ -s "$out" ] || fail "$who: $out not written"
	done <<-'L'
	PostgreSQL|-C -h -s probes.d -o probes.h.tmp|probes.h.tmp
	PostgreSQL|-C -G -s probes.d -o probes.o obj1.o obj2.o|probes.o
	CPython|-o pydtrace_probes.h -h -s probes.d|pydtrace_probes.h
	CPython|-o pydtrace.o -G -s probes.d obj1.o obj2.o|pydtrace.o
	memcached|-h -s probes.d|probes.h
	memcached|-G -o memcached_dtrace.o -s probes.d obj1.o obj2.o|memcached_dtrace.o
	Ruby|-o probes.h.tmp2 -h -C -I.. -s probes.d|probes.h.tmp2
	Ruby|-G -C -I.. -s probes.d -o probes2.o obj1.o|probes2.o
	GLib|-h -s probes.d -o glib.h|glib.h
	GLib|-G -s probes.d -o glib.o|glib.o
	Node|-h -xnolibs -s probes.d -o node.h|node.h
	OpenJDK|-h -o jdk.h -s probes.d|jdk.h
	MySQL|-h -s probes.d -o mysql.h|mysql.h
	MySQL|-64 -G -o mysql64.o -s probes.d obj1.o|mysql64.o
	MySQL|-32 -G -o mysql32.o -s probes.d|mysql32.o
	h2o|-o h2o.h -s probes.d -h|h2o.h
	h2o|-o h2o.o -s probes.d -G|h2o.o
	joined|-h -sprobes.d -ojoined.h|joined.h
	positional|-h probes.d -o positional.h|positional.h
	compat flags|-h -x nolibs -k -fpic -fPIC --types -s probes.d -o flags.h|flags.h
	L
	readelf -h mysql32.o | grep -q ELF32 || fail "-32 did not give ELF32"
	ok
}

# CPython's configure: -G on a file holding only BEGIN{} gives an object.
t_cli_cpython_configure_check() {
	echo 'BEGIN{}' > conftest.d
	"$PROBEGEN" -G -s conftest.d -o conftest.o > /dev/null 2>&1 || fail "-G failed"
	readelf -h conftest.o | grep -q 'REL (Relocatable' || fail "not an object"
	ok
}

# Default output names: the input's base name, in the current directory.
t_cli_default_output() {
	mkdir -p src run
	provider_file src/app
	(cd run && "$PROBEGEN" -h -s ../src/app.d && "$PROBEGEN" -G -s ../src/app.d) || fail "run"
	expect_eq "$(cd run && ls | tr '\n' ' ')" "app.h app.o " "files written"
	expect_grep '^#ifndef _APP_H$' run/app.h
	ok
}

# Unwritable outputs: exit 2, a message naming the file, nothing left.
t_cli_unwritable_output() {
	provider_file
	"$PROBEGEN" -h -s cli.d -o missing/dir/x.h 2> err
	expect_eq $? 2 "missing directory"
	expect_grep "cannot create 'missing/dir/x.h'" err
	mkdir ro && chmod 555 ro
	# Root writes anywhere: the case runs as an unprivileged user.
	if [ "$(id -u)" != 0 ]; then
		"$PROBEGEN" -h -s cli.d -o ro/x.h 2> err
		expect_eq $? 2 "read-only directory"
	elif have setpriv; then
		chmod 755 . && chmod 644 cli.d
		setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
			"$PROBEGEN" -h -s cli.d -o ro/x.h 2> err
		expect_eq $? 2 "read-only directory"
		expect_grep "cannot create 'ro/x.h'" err
	else
		skip_part "setpriv is not installed (util-linux): the read-only directory as root"
	fi
	if [ -e /dev/full ]; then
		for m in h G; do
			"$PROBEGEN" -$m -s cli.d -o /dev/full 2> err
			expect_eq $? 2 "-$m to /dev/full"
			expect_grep "No space left on device" err
		done
	fi
	"$PROBEGEN" -h -s cli.d -o /dev/null || fail "/dev/null"
	# Outputs that are not files get the same bytes: the object too.
	"$PROBEGEN" -G -s cli.d -o file.o || fail "-G to a file"
	"$PROBEGEN" -G -s cli.d -o /dev/stdout | cat > piped.o
	cmp file.o piped.o || fail "-G through a pipe differs"
	mkdir adir
	"$PROBEGEN" -h -s cli.d -o adir 2> err
	expect_eq $? 2 "directory as output"
	ok
}

# A failed run leaves an existing output untouched and no temp files.
t_cli_atomic_output() {
	provider_file
	echo "previous" > out.h
	printf 'provider p { probe a(int x; };\n' > bad.d
	"$PROBEGEN" -h -s bad.d -o out.h 2>/dev/null
	expect_eq $? 1 "bad input"
	expect_eq "$(cat out.h)" "previous" "existing output"
	expect "$PROBEGEN" -h -s cli.d -o out.h
	grep -q 'CLI_A' out.h || fail "output not replaced"
	ls -A | grep -q '\.tmp\.' && fail "temporary file left behind"
	# Through a symlink: the file it names is replaced, the link stays.
	expect "$PROBEGEN" -h -s cli.d -o real.h
	ln -s real.h link.h
	echo old > real.h
	expect "$PROBEGEN" -h -s cli.d -o link.h
	[ -L link.h ] || fail "symlink replaced"
	grep -q 'CLI_A' real.h || fail "symlink target not written"
	# Input and output the same file.
	cp cli.d same.d
	"$PROBEGEN" -h -s same.d -o same.d 2> err
	expect_eq $? 2 "same input and output"
	cmp cli.d same.d || fail "input clobbered"
	ok
}

# -C runs $CPP (split on blanks, no shell) with -I/-D/-U.
# A symlink another user planted in a sticky world-writable directory
# (/tmp) is not written through, as the kernel's fs.protected_symlinks
# would not follow it: as root, -h -o /tmp/x/probes.h replaced the
# link's target and changed its mode (the path was resolved first).
t_cli_planted_symlink() {
	[ "$(id -u)" = 0 ] || skip "needs root, to plant a link as another user"
	id nobody > /dev/null 2>&1 || skip "no user 'nobody'"
	printf 'provider cli {\n\tprobe a(int x);\n};\n' > cli.d
	mkdir shared
	chmod 1777 shared
	echo secret > shared/target
	chmod 600 shared/target
	ln -s target shared/probes.h
	chown -h nobody shared/probes.h
	for mode in -h -G; do
		"$PROBEGEN" $mode -s cli.d -o shared/probes.h 2> err
		expect_eq $? 2 "$mode through a planted link"
		expect_grep "a symlink another user owns, in a sticky world-writable directory" err
		expect_eq "$(cat shared/target)" secret "$mode: the link's target"
		expect_eq "$(stat -c %a shared/target)" 600 "$mode: the target's mode"
	done
	ls shared | grep -q tmp && fail "a temporary file was left"
	# The caller's own link, or the directory owner's, is followed.
	chown -h root shared/probes.h
	expect "$PROBEGEN" -h -s cli.d -o shared/probes.h
	grep -q CLI_A shared/target || fail "the caller's own link was not followed"
	# Not sticky: followed, whoever owns it.
	mkdir open
	ln -s ../shared/target open/probes.h
	chown -h nobody open/probes.h
	expect "$PROBEGEN" -h -s cli.d -o open/probes.h
	ok
}

t_cli_cpp() {
	cp "$ROOT"/tests/cpp/* .
	expect "$PROBEGEN" -C -I . -h -s postgres_like.d -o pg.h
	expect_grep 'probe postgresql:buffer__read__start(int, unsigned int, unsigned int, unsigned int, unsigned int, int, unsigned char)' pg.h
	expect_grep 'POSTGRESQL_EXTRA_TWO' pg.h
	printf 'provider d {\n#ifdef WITH_B\n\tprobe b(T x);\n#endif\n};\n' > d.d
	CPP="gcc -E" "$PROBEGEN" -C -DWITH_B -DT=long -h -s d.d -o d.h || fail "CPP=gcc -E"
	expect_grep 'probe d:b(long x)' d.h
	expect "$PROBEGEN" -C -DWITH_B -DT=long -UWITH_B -h -s d.d -o u.h
	grep -q 'D_B' u.h && fail "-U ignored"
	CPP=/nonexistent/cpp "$PROBEGEN" -C -h -s d.d -o n.h 2> err
	expect_eq $? 2 "missing preprocessor"
	expect_grep "cannot run the C preprocessor" err
	printf '#include "nope.h"\nprovider x { probe a(); };\n' > inc.d
	"$PROBEGEN" -C -h -s inc.d -o inc.h 2> err
	expect_eq $? 1 "cpp error"
	[ ! -e inc.h ] || fail "output written after cpp failed"
	# $CPP may be any number of words: all of them reach cpp (the 40th
	# defines what the file needs).
	local words= i
	for i in $(seq 39); do words="$words -DW$i"; done
	CPP="gcc -E$words -DT=short" "$PROBEGEN" -C -h -s d.d -o w.h 2> err || { cat err; fail "CPP of 41 words"; }
	printf 'provider d { probe b(T x); };\n' > t.d
	CPP="gcc -E$words -DT=short" "$PROBEGEN" -C -h -s t.d -o t.h 2> err || { cat err; fail "CPP of 41 words"; }
	expect_grep 'probe d:b(short x)' t.h
	# Without -C a #define used as a type is named, with the line of
	# the #define.
	printf '#define Oid unsigned int\nprovider x { probe a(Oid o); };\n' > nocpp.d
	expect "$PROBEGEN" -h -s nocpp.d -o nocpp.h 2> err
	expect_grep "^nocpp.d:2:22: warning: 'Oid' is a macro, which is not expanded without -C$" err
	expect_grep "^nocpp.d:1:1: note: 'Oid' is defined here$" err
	ok
}

# Large inputs: 2,000 probes in 100 providers, and one of 1,015 probes.
t_cli_large_inputs() {
	{
		for p in $(seq 100); do
			echo "provider prov$p {"
			for n in $(seq 20); do
				echo "	probe p${n}__x(int a, char *b, unsigned long long c);"
			done
			echo "};"
		done
	} > big.d
	expect "$PROBEGEN" -h -s big.d -o big.h
	expect "$PROBEGEN" -G -s big.d -o big.o
	expect_eq "$(grep -c '^#define PROV[0-9]*_P[0-9]*_X(' big.h)" 2000 "macros"
	expect_eq "$(readelf -sW big.o | grep -c '_semaphore$')" 2000 "semaphores"
	{ echo "provider one {"; for n in $(seq 1015); do echo "probe p$n();"; done; echo "};"; } > one.d
	expect "$PROBEGEN" -h -s one.d -o one.h
	printf '#include "big.h"\n#include "one.h"\nint main(void) { PROV7_P3_X(1, "x", 2); trace_one_p1015(); return 0; }\n' > m.c
	expect "$PROBEGEN" -G -s one.d -o one.o
	expect gcc -Wall -Werror m.c big.o one.o -o m
	expect ./m
	ok
}

# Every option --help prints is in the OPTIONS of exactly one man page
# (probegen(1), probegen-trace(1), probegen-inspect(1)), and the other
# way round; each page renders with groff -ww without a warning.
t_cli_help_matches_man() {
	"$PROBEGEN" --help > help || fail "--help"
	# --help: the option column of lines that start with "  -".
	grep -E '^  -' help | sed -E 's/^  //; s/  +.*//' | grep -oE -- '--?[A-Za-z0-9][-A-Za-z0-9]*' |
		sort -u > from_help
	# Each page: the line after each .TP in OPTIONS, an option once.
	local page
	: > from_pages
	for page in probegen.1 probegen-trace.1 probegen-inspect.1; do
		sed -n '/^\.SH OPTIONS/,/^\.SH /p' "$ROOT/man/$page" |
			awk 'tp { print; tp = 0 } /^\.TP/ { tp = 1 }' | sed 's/\\-/-/g' |
			grep -oE -- '--?[A-Za-z0-9][-A-Za-z0-9]*' | sort -u >> from_pages
	done
	sort from_pages | uniq -d > twice
	[ ! -s twice ] || { cat twice; fail "options in the OPTIONS of two man pages"; }
	sort -u from_pages > from_man
	[ -s from_help ] && [ -s from_man ] || fail "no options found"
	diff -u from_help from_man || fail "--help and the man pages' OPTIONS list other options"
	for page in "$ROOT"/man/*.[15]; do
		groff -ww -man -Tutf8 "$page" > /dev/null 2> groff.err
		[ ! -s groff.err ] || { cat groff.err; fail "groff -ww: $page"; }
	done
	# --trace's synopsis (made from the table) names what
	# probegen-trace(1)'s does.
	sed -n '/probegen --trace/,/probegen --list-targets/p' help | grep -oE -- '--?[A-Za-z][-A-Za-z]*' |
		grep -v -- '^--trace$\|^--list-targets$' | sort -u > synopsis_help
	sed -n '/^\.SH SYNOPSIS/,/^\.SH /p' "$ROOT/man/probegen-trace.1" | sed 's/\\-/-/g' |
		grep -oE -- '--?[A-Za-z][-A-Za-z]*' | grep -v -- '^--trace$' | sort -u > synopsis_man
	[ "$(wc -l < synopsis_help)" -ge 20 ] || fail "--trace synopsis: too few options"
	diff -u synopsis_help synopsis_man || fail "--help's --trace synopsis and probegen-trace(1)'s differ"
	echo "$(wc -l < from_help) options, each in one page"
	ok
}

# The bash completion (probegen --bash-completion, what make install
# installs): it offers every option --help lists and no other, completes
# --tr to --trace, -h -s to the provider files and directories, -c to a
# command and -- CMD's words to files, in a real bash.
t_cli_bash_completion() {
	local comp=$PWD/completion
	"$PROBEGEN" --bash-completion > "$comp" || fail "--bash-completion"
	bash -n "$comp" || fail "--bash-completion printed no bash"
	"$PROBEGEN" --help | awk '/^  -/ { sub(/^  /, ""); split($0, a, /   +/); print a[1] }' |
		sed 's/, /\n/g' | awk '{ sub(/=.*/, "", $1); if ($1 != "--" && $1 != "") print $1 }' | sort -u > from_help
	bash -c ". '$comp'; COMP_WORDS=(probegen -); COMP_CWORD=1; _probegen; printf '%s\n' \"\${COMPREPLY[@]}\"" |
		sort -u > completed
	diff -u from_help completed || fail "the completion's options are not --help's"
	[ "$(wc -l < from_help)" -gt 40 ] || fail "only $(wc -l < from_help) options read from --help"
	touch a.d b.c; mkdir -p sub
	expect_eq "$(bash -c ". '$comp'; COMP_WORDS=(probegen --tr); COMP_CWORD=1; _probegen; echo \"\${COMPREPLY[*]}\"")" "--trace" "probegen --tr<TAB>"
	expect_eq "$(bash -c ". '$comp'; COMP_WORDS=(probegen -h -s ''); COMP_CWORD=3; _probegen; echo \"\${COMPREPLY[*]}\"" | tr ' ' '\n' | sort | tr '\n' ' ')" "a.d sub/ " "probegen -h -s <TAB>"
	expect_eq "$(PATH=$(dirname "$PROBEGEN"):$PATH bash -c ". '$comp'; COMP_WORDS=(probegen -G --target aarch); COMP_CWORD=3; _probegen; echo \"\${COMPREPLY[*]}\"")" "aarch64" "--target aarch<TAB>"
	expect_eq "$(bash -c ". '$comp'; COMP_WORDS=(probegen --trace -c bas); COMP_CWORD=3; _probegen; printf '%s\n' \"\${COMPREPLY[@]}\"" | sort -u | grep -cx bash)" "1" "--trace -c bas<TAB>"
	expect_eq "$(bash -c ". '$comp'; COMP_WORDS=(probegen --trace -- ls a.); COMP_CWORD=4; _probegen; echo \"\${COMPREPLY[*]}\"")" "a.d" "--trace -- ls a.<TAB>"
	expect_eq "$(bash -c ". '$comp'; COMP_WORDS=(probegen --trace -n ''); COMP_CWORD=3; _probegen; echo \"\${#COMPREPLY[@]}\"")" "0" "--trace -n <TAB>"
	# Once a mode is given, only its options (and -w, -Werror).
	local after
	after=$(bash -c ". '$comp'; COMP_WORDS=(probegen --trace -c ./x --); COMP_CWORD=4; _probegen; printf '%s\n' \"\${COMPREPLY[@]}\"" | LC_ALL=C sort | tr '\n' ' ')
	# --trace's long options: those of its synopsis in --help.
	local synopsis
	synopsis=$("$PROBEGEN" --help | sed -n '/probegen --trace/,/probegen --list-targets/p' |
		grep -oE -- '--[a-z][-a-z]*' | grep -vx -- '--trace\|--list-targets' | LC_ALL=C sort -u | tr '\n' ' ')
	case $synopsis in *"--by "*"--where "*) ;; *) fail "--trace's synopsis: '$synopsis'" ;; esac
	expect_eq "$after" "$synopsis" "--trace ... --<TAB>"
	after=$(bash -c ". '$comp'; COMP_WORDS=(probegen -h -s a.d -); COMP_CWORD=4; _probegen; printf '%s\n' \"\${COMPREPLY[@]}\"" | LC_ALL=C sort | tr '\n' ' ')
	expect_eq "$after" "--header-only --self-contained -C -D -I -U -Werror -o -s -w " "-h -s a.d -<TAB>"
	after=$(bash -c ". '$comp'; COMP_WORDS=(probegen --list -); COMP_CWORD=2; _probegen; printf '%s\n' \"\${COMPREPLY[@]}\"" | LC_ALL=C sort | tr '\n' ' ')
	expect_eq "$after" "--json -Werror -w " "--list -<TAB>"
	ok
}

# The targets the docs (docs/header-and-object.md) and the man page list
# are --list-targets's,
# in its order (x32 was missing from both).
t_cli_targets_documented() {
	local code readme man
	code=$("$PROBEGEN" --list-targets | tr '\n' ' ')
	[ "$(echo $code | wc -w)" -ge 10 ] || fail "--list-targets: '$code'"
	readme=$(tr '\n' ' ' < "$ROOT/docs/header-and-object.md" | sed -n 's/.*`--target=ARCH` (\([^)]*\), or a GNU triplet).*/\1/p' | tr -d '`,' | tr -s ' ')
	man=$(cat "$ROOT"/man/*.[15] | tr '\n' ' ' | sed -n 's/.*BI "\\-\\-target " arch\\fR):  *\([^G]*\), or a GNU triplet.*/\1/p' | tr -d ',' | tr -s ' ')
	expect_eq "$readme " "$code" "the README's targets"
	expect_eq "$man " "$code" "the man page's targets"
	ok
}
