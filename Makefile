# probegen - hand-written, non-recursive; works without ./configure.
#   make              build ./probegen
#   make check        run the test suite (tests/run.sh)
#   make demo         build examples/demo and trace it
#   make check-fresh  the README's commands in a clean Debian 12 root
#   make install      PREFIX=/usr/local DESTDIR=
#   make V=1          show full commands
# ./configure (optional) writes config.mak, read here when present.

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
LIBDIR ?= $(PREFIX)/lib
# probegen.pc describes a program, the same on every architecture.
PKGCONFIGDIR ?= $(PREFIX)/share/pkgconfig
CC ?= cc
FLEX ?= flex
BISON ?= bison
CFLAGS ?= -O2 -g
WARNINGS = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	   -Wwrite-strings -Werror=implicit-function-declaration
LIBS = -lelf

-include config.mak

# make check SANITIZE=1: the whole suite against an ASan+UBSan build,
# kept apart in build-san/ so the two builds never mix objects.
ifdef SANITIZE
CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS += -fsanitize=address,undefined
B = build-san
PROG = $(B)/probegen
export PROBEGEN_SANITIZED = 1
else ifdef STATIC
# make static: one file, linked with the static libelf, zlib, zstd and
# libbpf Debian ships (--trace included) and libdw's (site lines), that
# runs on any x86-64 Linux; --metrics is left out (libmicrohttpd's static
# library needs GnuTLS's and its dependencies', which Debian does not
# all ship static): it says so.
B = build-static
PROG = probegen-static
LDFLAGS += -static
MICROHTTPD = no
STATIC_LIBS = -lelf -lz -lzstd -llzma -lbz2
else
B = build
PROG = probegen
endif

ifeq ($(V),1)
Q =
msg = @true
else
Q = @
msg = @printf '  %-7s %s\n'
endif

ALL_CFLAGS = -std=c11 -D_GNU_SOURCE -Isrc -I$(B) $(CFLAGS) -MMD -MP

# The command line and what every wing shares; the compiler (.d files
# to outputs); the inspector (binaries to reports): every .c of src/,
# src/compiler/ and src/inspect/, so a new room needs no line here.
# The tracer's rooms are TRACE_OBJ, below.
SRCS = $(patsubst src/%,%,$(sort $(wildcard src/*.c src/compiler/*.c src/inspect/*.c)))
# Optional parts, each found by compiling and linking a one-line program
# that includes the part's header: have = $(call have,HEADER,LIBS) is yes
# or empty.  No `#` may appear here: GNU make 4.3 passes `\#` through to
# the shell, and a preprocessor fed `\#include <x.h>` sees no directive
# and answers yes for a header that does not exist.  A part set on the
# command line or in config.mak (TRACE=no, LIBDW=no, MICROHTTPD=no) is
# not looked for.  What is left out is said once, when $(PROG) is linked.
have = $(shell printf 'int main(void) { return 0; }\n' | \
	$(CC) $(CFLAGS) -include $(1) -x c - -o /dev/null $(2) > /dev/null 2>&1 && echo yes)
LEFT_OUT =

# The compiler itself needs libelf; without it nothing builds.
ifneq ($(filter-out clean dist format version,$(or $(MAKECMDGOALS),all)),)
ifneq ($(call have,gelf.h,-lelf),yes)
$(error libelf not found: apt-get install libelf-dev (and build-essential flex bison systemtap-sdt-dev))
endif
endif

# --trace needs libbpf, clang's BPF target and bpftool; without them the
# compiler builds the same and --trace says how to get it.
BPFTOOL ?= $(shell command -v bpftool 2>/dev/null || echo /usr/sbin/bpftool)
BPF_CLANG ?= clang
ifndef TRACE
TRACE_MISSING := $(if $(call have,bpf/libbpf.h,-lbpf),,libbpf-dev) \
	$(if $(wildcard $(BPFTOOL)),,bpftool) \
	$(if $(shell $(BPF_CLANG) -target bpf -c -x c /dev/null -o /dev/null 2>/dev/null && echo yes),,clang)
TRACE := $(if $(strip $(TRACE_MISSING)),no,yes)
ifeq ($(TRACE),no)
LEFT_OUT += "--trace left out: apt-get install $(strip $(TRACE_MISSING)), then make again"
endif
endif
ifeq ($(TRACE),yes)
# The tracer's rooms: every .c of src/trace/ and of its stage folders,
# each built to the same path under $(B)/ (a new room needs no line
# here); the *_none.c stand-ins, and the optional rooms, chosen below.
TRACE_OBJ = $(patsubst src/%.c,$(B)/%.o,$(filter-out %_none.c,$(wildcard src/trace/*.c src/trace/*/*.c)))
# -lstdc++: its __cxa_demangle names C++ frames in --stack's walks.
LIBS += -lbpf -lstdc++
# --metrics's HTTP server: libmicrohttpd (libmicrohttpd-dev) where it is
# found; elsewhere --metrics says what to install.
ifndef MICROHTTPD
MICROHTTPD := $(if $(call have,microhttpd.h,-lmicrohttpd),yes,no)
ifeq ($(MICROHTTPD),no)
LEFT_OUT += "--trace --metrics left out: apt-get install libmicrohttpd-dev, then make again"
endif
endif
ifeq ($(MICROHTTPD),yes)
LIBS += -lmicrohttpd
else
TRACE_OBJ := $(filter-out $(B)/trace/sinks/server.o,$(TRACE_OBJ)) $(B)/trace/sinks/server_none.o
endif
# --pprof: protobuf-c's code from pprof's own profile.proto (Debian's
# golang-github-google-pprof-dev), generated at build time, gzipped by
# zlib; elsewhere --pprof says what to install.
PPROF_PROTO ?= /usr/share/gocode/src/github.com/google/pprof/proto/profile.proto
ifndef PPROF
PPROF := $(if $(and $(wildcard $(PPROF_PROTO)),$(shell command -v protoc-c),$(call have,protobuf-c/protobuf-c.h,-lprotobuf-c),$(call have,zlib.h,-lz)),yes,no)
ifeq ($(PPROF),no)
LEFT_OUT += "--trace --pprof left out: apt-get install libprotobuf-c-dev protobuf-c-compiler golang-github-google-pprof-dev zlib1g-dev, then make again"
endif
endif
ifeq ($(PPROF),yes)
TRACE_OBJ += $(B)/profile.pb-c.o
LIBS += -lprotobuf-c -lz
else
TRACE_OBJ := $(filter-out $(B)/trace/sinks/pprof.o,$(TRACE_OBJ)) $(B)/trace/sinks/pprof_none.o
endif
else
TRACE_OBJ = $(B)/trace/trace_none.o
endif
# Source lines of probe sites in --list and --check come from libdw
# (libdw-dev) when it is there; LIBDW=no leaves them out.
ifndef LIBDW
LIBDW := $(if $(call have,elfutils/libdwfl.h,-ldw),yes,no)
ifeq ($(LIBDW),no)
LEFT_OUT += "source lines of probe sites (--list, --check) left out: apt-get install libdw-dev, then make again"
endif
endif
ifeq ($(LIBDW),yes)
ALL_CFLAGS += -DHAVE_LIBDW
LIBS += -ldw
endif
# The kernel's name of the host's architecture: its row's .kernel_arch
# in src/target.c (on the line of its .name, as uname -m names it).
BPF_ARCH = $(shell sed -n 's/.*\.name = "$(shell uname -m)", \.kernel_arch = "\([a-z0-9]*\)".*/\1/p' src/target.c)

# The version, from one place: a release tarball's .version (make dist
# writes it), else `git describe` of the v* tags in a checkout (0.1.0, or
# 0.1.0-5-gabc1234 five commits on).  RELEASE, its x.y.z alone, is what
# generated files, the CMake package and the pkg-config file name, so that
# a header does not change with each commit.  Neither there: NEWS.md's
# newest version, marked unknown.  $(B)/version.h holds both, rewritten
# only when they change.
VERSION := $(shell cat .version 2>/dev/null || git describe --tags --match 'v[0-9]*' --dirty 2>/dev/null | sed 's/^v//')
ifeq ($(VERSION),)
VERSION := $(shell sed -n 's/^\#\# \([0-9][0-9.]*\).*/\1/p' NEWS.md | head -n 1)-unknown
endif
RELEASE := $(firstword $(subst -, ,$(VERSION)))

OBJS = $(SRCS:%.c=$(B)/%.o) $(B)/parser.o $(B)/lexer.o $(B)/header_text.o \
       $(TRACE_OBJ)
# The outputs' fixed text, embedded as strings: the header's parts, plain
# C under src/compiler/header/, and the Rust module's, under
# src/compiler/rust/.
HEADER_PARTS = $(addprefix src/compiler/header/,stapsdt_base.h common.h \
	decl_note.h header_only.h sdt_site.h self_site.h) \
	src/compiler/rust/machinery.rs

all: $(PROG)

$(PROG): $(OBJS) $(B)/features
	$(msg) LINK $@
	$(Q)$(CC) $(LDFLAGS) -o $@ $(OBJS) $(LIBS) $(STATIC_LIBS)
	$(Q)for note in $(LEFT_OUT); do printf '  %-7s %s\n' NOTE "$$note"; done

static:
	$(Q)$(MAKE) STATIC=1

# The parts found and the flags, rewritten only when they change: every
# object depends on it, so that `make` after installing (or removing) a
# part builds it in (or out) without a `make clean`.
$(B)/features: FORCE | $(B)
	$(Q)printf '%s\n' 'TRACE=$(TRACE) MICROHTTPD=$(MICROHTTPD) LIBDW=$(LIBDW)' \
		'$(CC) $(ALL_CFLAGS) $(LDFLAGS) $(LIBS)' $(LEFT_OUT) > $@.tmp
	$(Q)if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

$(B)/version.h: FORCE | $(B)
	$(Q)printf '#define PROBEGEN_VERSION "%s"\n#define PROBEGEN_RELEASE "%s"\n' \
		'$(VERSION)' '$(RELEASE)' > $@.tmp
	$(Q)if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi
FORCE:

$(B)/%.o: src/%.c $(B)/parser.h $(B)/lexer.h $(B)/version.h $(B)/features | $(B)
	$(msg) CC $<
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) $(WARNINGS) -c -o $@ $<

# Generated code: its own warnings are flex's and bison's business.
$(B)/parser.o $(B)/lexer.o: $(B)/%.o: $(B)/%.c $(B)/parser.h $(B)/lexer.h
	$(msg) CC $<
	$(Q)$(CC) $(ALL_CFLAGS) -Wall -Wno-unused-function -c -o $@ $<

$(B)/header_text.c: $(HEADER_PARTS) src/compiler/header/embed.sh | $(B)
	$(msg) EMBED $@
	$(Q)src/compiler/header/embed.sh $(HEADER_PARTS) > $@

$(B)/header_text.o: $(B)/header_text.c
	$(msg) CC $<
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The BPF side of --trace: compiled for the BPF target, embedded through
# bpftool's skeleton.
# bpf/arch_$(BPF_ARCH).h holds the architecture's facts, when there is
# one; else bpf/arch_none.h.
BPF_DIR = src/trace/kernel/bpf
BPF_ARCH_H = $(notdir $(firstword $(wildcard $(BPF_DIR)/arch_$(BPF_ARCH).h) $(BPF_DIR)/arch_none.h))
$(B)/trace.bpf.o: $(BPF_DIR)/trace.bpf.c $(wildcard $(BPF_DIR)/*.h) src/arg_read.h | $(B)
	$(msg) BPF $<
	$(Q)$(BPF_CLANG) -g -O2 -target bpf -D__TARGET_ARCH_$(BPF_ARCH) -DTRACE_ARCH_H='"$(BPF_ARCH_H)"' \
		-I/usr/include/$(shell gcc -dumpmachine 2>/dev/null || $(CC) -dumpmachine) -I$(BPF_DIR) -c -o $@ $<

$(B)/trace.skel.h: $(B)/trace.bpf.o
	$(msg) SKEL $@
	$(Q)$(BPFTOOL) gen skeleton $< name trace_bpf > $@.tmp && mv $@.tmp $@

# The rooms of --trace (src/trace/, a folder a stage: find/, kernel/,
# decode/, sinks/; HACKING.md) build by the rule of every src/ file, to
# the same path under $(B)/; only kernel/'s load.c, session.c and
# tally.c, and follow.c, see the skeleton.
$(B)/profile.pb-c.c: $(PPROF_PROTO) | $(B)
	$(msg) PROTOC-C $@
	$(Q)protoc-c --c_out=$(B) --proto_path=$(dir $(PPROF_PROTO)) $(notdir $(PPROF_PROTO))
$(B)/profile.pb-c.h: $(B)/profile.pb-c.c
$(B)/profile.pb-c.o: $(B)/profile.pb-c.c
	$(msg) CC $@
	$(Q)$(CC) $(ALL_CFLAGS) -w -I$(B) -c -o $@ $<
$(B)/trace/sinks/pprof.o: $(B)/profile.pb-c.h

$(B)/trace/kernel/load.o $(B)/trace/kernel/session.o $(B)/trace/follow.o $(B)/trace/kernel/tally.o: $(B)/trace.skel.h

# Grouped targets (&:, GNU make 4.3): one bison run makes both files,
# under any -j; a plain two-target rule would run it twice at once.
$(B)/parser.c $(B)/parser.h &: grammar/parser.y | $(B)
	$(msg) BISON $<
	$(Q)$(BISON) -Wall -Werror --defines=$(B)/parser.h -o $(B)/parser.c $<

$(B)/lexer.c $(B)/lexer.h &: grammar/lexer.l | $(B)
	$(msg) FLEX $<
	$(Q)$(FLEX) --header-file=$(B)/lexer.h -o $(B)/lexer.c $<

$(B):
	$(Q)mkdir -p $@

# make check-unit: the unit layer (tests/unit/): C tests that link
# probegen's parts directly (every object but main.o), with no root, no
# kernel and no compiler run; seconds in all.  test_trace_*.c test the
# tracer's parts and are built only when --trace is.
UNIT_SRCS = $(wildcard tests/unit/test_*.c)
ifneq ($(TRACE),yes)
UNIT_SRCS := $(filter-out tests/unit/test_trace_%,$(UNIT_SRCS))
endif
UNIT_PROGS = $(UNIT_SRCS:tests/unit/%.c=$(B)/unit/%)
UNIT_LINK = $(filter-out $(B)/main.o,$(OBJS))
$(B)/unit/%: tests/unit/%.c tests/unit/unit.c tests/unit/*.h $(UNIT_LINK)
	$(msg) UNIT $@
	$(Q)mkdir -p $(B)/unit
	$(Q)$(CC) $(ALL_CFLAGS) $(WARNINGS) -Itests/unit $(LDFLAGS) -o $@ $< \
		tests/unit/unit.c $(UNIT_LINK) $(LIBS) $(STATIC_LIBS)
check-unit: $(UNIT_PROGS)
	$(Q)tests/unit/run.sh $(if $(filter yes,$(TRACE)),,--no-trace) $(UNIT_PROGS)

# make check: the unit layer (check-unit, above), then the suite;
# make check TESTS="t_cli t_header": only the tests whose names match;
# JOBS tests at once (default: the cores), the timing-bound ones alone.
# make check-build: the builds of probegen itself (tests/t_rebuild.sh:
# static, dist and ./configure, the fuzz harness).
JOBS ?= $(shell nproc 2>/dev/null || echo 1)
check: $(PROG) $(UNIT_PROGS)
	$(Q)tests/unit/run.sh $(if $(filter yes,$(TRACE)),,--no-trace) $(UNIT_PROGS)
	$(Q)PROBEGEN=$(abspath $(PROG)) tests/run.sh -j $(JOBS) $(TESTS)
check-build: $(PROG)
	$(Q)PROBEGEN=$(abspath $(PROG)) tests/run.sh -j $(JOBS) --tier build $(TESTS)

# The tracer's tests again on Debian 12's own kernel (6.1), booted under
# qemu-system-x86_64 (tests/kernel/run.sh): its verifier, its helpers,
# and 32-bit programs (about 17 minutes).  The list is
# tests/kernel/tests; KERNEL_SET=ci runs the lines marked ci (CI's).
KERNEL_SET ?= all
KERNEL_TESTS ?= $(shell sed -e '/^\#/d' -e '/^$$/d' $(if $(filter ci,$(KERNEL_SET)),-e '/ ci$$/!d') \
	-e 's/ .*//' tests/kernel/tests)
check-kernel: $(PROG)
	$(Q)PROBEGEN=$(abspath $(PROG)) tests/kernel/run.sh $(KERNEL_TESTS)

# Real projects' Debian sources built with probegen as their dtrace.
check-real: $(PROG)
	$(Q)PROBEGEN=$(abspath $(PROG)) tests/real/run.sh $(REAL)

# The README's commands as a new user meets them, in a clean Debian 12
# root (tests/fresh_root.sh; root and mmdebstrap): CI runs it.
check-fresh:
	$(Q)tests/fresh_root.sh

demo: $(PROG)
	$(Q)examples/demo/run.sh

# Not part of check: timings against SystemTap's dtrace; writes BENCHMARKS.md.
bench: $(PROG)
	$(Q)bench/run.sh


# The program, its man page, and what build systems find it by: a CMake
# package (find_package(probegen)) and a pkg-config file (Meson's
# dependency('probegen')), under $(LIBDIR) and $(PKGCONFIGDIR).
install: $(PROG)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 \
		$(DESTDIR)$(LIBDIR)/cmake/probegen $(DESTDIR)$(PKGCONFIGDIR)
	install -m 755 $(PROG) $(DESTDIR)$(BINDIR)/probegen
	install -m 644 man/probegen.1 man/probegen-trace.1 man/probegen-inspect.1 \
		$(DESTDIR)$(MANDIR)/man1/
	install -m 644 man/probegen-provider.5 $(DESTDIR)$(MANDIR)/man5/
	sed 's|@VERSION@|$(RELEASE)|g' build-systems/cmake/probegenConfig.cmake.in \
		> $(DESTDIR)$(LIBDIR)/cmake/probegen/probegenConfig.cmake
	sed 's|@VERSION@|$(RELEASE)|g' build-systems/cmake/probegenConfigVersion.cmake.in \
		> $(DESTDIR)$(LIBDIR)/cmake/probegen/probegenConfigVersion.cmake
	sed -e 's|@VERSION@|$(RELEASE)|g' -e 's|@PREFIX@|$(PREFIX)|g' \
		build-systems/pkgconfig/probegen.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/probegen.pc
	install -d $(DESTDIR)$(PREFIX)/lib/systemd/system
	sed 's|/usr/bin/probegen|$(BINDIR)/probegen|' build-systems/systemd/probegen-metrics@.service \
		> $(DESTDIR)$(PREFIX)/lib/systemd/system/probegen-metrics@.service
	# The runtimes' declarations (argument names their own builds do not
	# record), for --trace -s PREFIX/share/probegen/runtimes/python.d.
	install -d $(DESTDIR)$(PREFIX)/share/probegen/runtimes
	install -m 644 examples/runtimes/*.d $(DESTDIR)$(PREFIX)/share/probegen/runtimes/
	# The bash completion, made from the table of options it completes.
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	./$(PROG) --bash-completion > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/probegen
	# `dtrace` for builds that look the tool up by that name, in a
	# directory of its own: PATH=$(PREFIX)/lib/probegen/bin:$$PATH puts it
	# first without taking SystemTap's /usr/bin/dtrace.
	install -d $(DESTDIR)$(PREFIX)/lib/probegen/bin
	ln -sf $(BINDIR)/probegen $(DESTDIR)$(PREFIX)/lib/probegen/bin/dtrace

# make dist: probegen-VERSION.tar.gz of the files git tracks and
# .version, the same bytes each time it is made from one commit: names
# sorted, owner and group 0, every time the commit's (SOURCE_DATE_EPOCH,
# when set, instead), gzip without a name or a time.
SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct 2>/dev/null || echo 0)
dist:
	$(Q)test -d .git || { echo "make dist: from a git checkout" >&2; exit 2; }
	$(Q)rm -rf dist-tmp && mkdir -p dist-tmp/probegen-$(VERSION)
	$(Q)git ls-files -z | xargs -0 cp --parents -t dist-tmp/probegen-$(VERSION)
	$(Q)echo '$(VERSION)' > dist-tmp/probegen-$(VERSION)/.version
	$(Q)cd dist-tmp && find probegen-$(VERSION) -print0 | LC_ALL=C sort -z | \
		tar --null --no-recursion -T - --owner=0 --group=0 --numeric-owner \
		--mode=u+rw,go+r,go-w --mtime=@$(SOURCE_DATE_EPOCH) --format=gnu -cf - | \
		gzip -9n > ../probegen-$(VERSION).tar.gz
	$(Q)rm -rf dist-tmp
	$(Q)echo probegen-$(VERSION).tar.gz

# make version: the version a build of this tree says (make dist's).
version:
	@echo '$(VERSION)'

# For builds that look the tool up as `dtrace` (Meson, PHP, autoconf).
install-dtrace-alias: install
	ln -sf probegen $(DESTDIR)$(BINDIR)/dtrace

# libFuzzer, with ASan and UBSan (clang): over the whole pipeline, fed
# provider files; over the reader of binaries, fed ELF files; over
# --metrics's page, fed names and values.
FUZZ_SECONDS ?= 60
FUZZ_CC ?= clang
FZ = build-fuzz
FUZZ_SRCS = $(filter-out main.c,$(SRCS))  # --trace is main.c's, not the pipeline's
# The rooms of --trace that fuzz_metrics.c reaches (no libbpf in them).
FUZZ_TRACE_SRCS = src/trace/sinks/metrics.c src/trace/decode/event.c src/trace/decode/meant.c \
	src/trace/sinks/summary.c src/trace/decode/calls.c src/trace/sinks/profile.c \
	src/trace/sinks/timeline.c src/trace/sinks/stack_counts.c src/trace/find/filter_parse.c \
	src/trace/find/filter.c src/trace/find/probes.c src/trace/plan.c src/trace/decode/verdict.c \
	src/trace/decode/stacks.c src/trace/budget_said.c
# Each harness fuzz/fuzz_NAME.c becomes build-fuzz/fuzz_NAME.
$(FZ)/fuzz_%: $(FUZZ_SRCS:%=src/%) $(FUZZ_TRACE_SRCS) fuzz/fuzz_%.c fuzz/fuzz_common.h $(B)/version.h $(B)/parser.c $(B)/lexer.c $(B)/header_text.c src/probegen.h
	$(msg) FUZZCC $@
	$(Q)mkdir -p $(FZ)
	$(Q)$(FUZZ_CC) -std=c11 -D_GNU_SOURCE -g -O1 -Werror=implicit-function-declaration -Isrc -I$(B) \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		-o $@ $(FUZZ_SRCS:%=src/%) $(FUZZ_TRACE_SRCS) fuzz/fuzz_$*.c \
		$(B)/parser.c $(B)/lexer.c $(B)/header_text.c $(LIBS)

# make fuzz: every harness, FUZZ_SECONDS each.
fuzz: $(FZ)/fuzz_pipeline $(FZ)/fuzz_binary $(FZ)/fuzz_metrics $(FZ)/fuzz_event $(FZ)/fuzz_where $(FZ)/fuzz_filter
	$(Q)fuzz/run.sh $(FUZZ_SECONDS) pipeline
	$(Q)fuzz/run.sh $(FUZZ_SECONDS) binary
	$(Q)fuzz/run.sh $(FUZZ_SECONDS) metrics
	$(Q)fuzz/run.sh $(FUZZ_SECONDS) event
	$(Q)fuzz/run.sh $(FUZZ_SECONDS) where
	$(Q)fuzz/run.sh $(FUZZ_SECONDS) filter

# make fuzz-ci: as CI runs them, a line each, failing on a finding.
fuzz-ci: $(PROG) $(FZ)/fuzz_pipeline $(FZ)/fuzz_binary $(FZ)/fuzz_metrics $(FZ)/fuzz_event $(FZ)/fuzz_where $(FZ)/fuzz_filter
	$(Q)PROBEGEN=$(PROG) fuzz/ci.sh $(FUZZ_SECONDS)

# make fuzz-merge: keep what the last runs reached.  The inputs that add
# coverage go into tests/fuzz-corpus/, where every run starts.
fuzz-merge: $(FZ)/fuzz_pipeline $(FZ)/fuzz_binary $(FZ)/fuzz_metrics $(FZ)/fuzz_event $(FZ)/fuzz_where $(FZ)/fuzz_filter
	$(Q)mkdir -p tests/fuzz-corpus/pipeline tests/fuzz-corpus/binary tests/fuzz-corpus/metrics tests/fuzz-corpus/event tests/fuzz-corpus/where tests/fuzz-corpus/filter
	$(Q)$(FZ)/fuzz_pipeline -merge=1 -max_len=65536 tests/fuzz-corpus/pipeline fuzz/out/corpus
	$(Q)$(FZ)/fuzz_binary -merge=1 -max_len=262144 tests/fuzz-corpus/binary fuzz/out/binary-corpus
	$(Q)$(FZ)/fuzz_metrics -merge=1 -max_len=16384 tests/fuzz-corpus/metrics fuzz/out/metrics-corpus
	$(Q)$(FZ)/fuzz_event -merge=1 -max_len=4096 tests/fuzz-corpus/event fuzz/out/event-corpus
	$(Q)$(FZ)/fuzz_where -merge=1 -max_len=1024 tests/fuzz-corpus/where fuzz/out/where-corpus
	$(Q)$(FZ)/fuzz_filter -merge=1 -max_len=1024 tests/fuzz-corpus/filter fuzz/out/filter-corpus

# make format: clang-format (.clang-format) over the C of src/ and fuzz/;
# src/compiler/header/ is text the generated headers carry, formatted by hand.
FORMAT_FILES = $(filter-out src/compiler/header/%,$(wildcard src/*.c src/*.h src/*/*.c src/*/*.h)) \
	$(wildcard fuzz/*.c fuzz/*.h)
format:
	$(Q)clang-format -i $(FORMAT_FILES)

clean:
	rm -rf build build-san build-static $(FZ) probegen probegen-static tests/out fuzz/out dist-tmp probegen-*.tar.gz

.PHONY: all version check check-unit check-build check-real check-kernel check-fresh demo fuzz fuzz-ci fuzz-merge format bench install install-dtrace-alias dist static clean FORCE
.DELETE_ON_ERROR:

-include $(OBJS:.o=.d)
