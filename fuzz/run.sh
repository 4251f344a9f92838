#!/bin/sh
# fuzz/run.sh SECONDS [pipeline|binary|metrics] - seed a corpus and run one
# harness, from the corpus kept in tests/fuzz-corpus/HARNESS (which
# `make fuzz-merge` grows), so that each run starts where the kept runs
# got to:
#   pipeline  provider files from the tests; findings in
#             fuzz/out/findings (copy each into tests/fuzz/ as NAME.d
#             once fixed, with NAME.d.status holding its exit status when
#             that is not 0: tests/t_hostile.sh replays them)
#   binary    ELF files: the tests' programs built here (plain, stripped,
#             an object, a cross-compiled one); findings in
#             fuzz/out/binary-findings (copy each into tests/fuzz-binary/
#             once fixed: tests/t_hostile.sh replays them)
#   event     the decoder of a firing (event.c): how each argument is
#             read, then the event's bytes; findings in
#             fuzz/out/event-findings
#   where     --where's parser, fed the option's text; findings in
#             fuzz/out/where-findings
#   filter    --where's compiler and the steps the BPF side runs, fed an
#             expression, checked against an evaluation of the parsed
#             tree; findings in fuzz/out/filter-findings
#   metrics   --metrics's page from names and values cut at NUL bytes;
#             findings in fuzz/out/metrics-findings (into
#             tests/fuzz-metrics/ once fixed: t_metrics replays them)
set -e
cd "$(dirname "$0")/.."
seconds=${1:-60}
case ${2:-pipeline} in
pipeline)
	mkdir -p fuzz/out/corpus fuzz/out/findings
	cp tests/good/*.d tests/errors/*.d tests/cpp/*.d tests/src/*.d \
		examples/*/*.d fuzz/out/corpus/ 2>/dev/null || true
	[ -d tests/fuzz ] && cp tests/fuzz/*.d fuzz/out/corpus/ 2>/dev/null || true
	cp tests/fuzz-corpus/pipeline/* fuzz/out/corpus/ 2>/dev/null || true
	exec build-fuzz/fuzz_pipeline -max_total_time="$seconds" -timeout=10 \
		-print_final_stats=1 \
		-rss_limit_mb=2048 -max_len=65536 -dict=fuzz/d.dict \
		-artifact_prefix=fuzz/out/findings/ fuzz/out/corpus ;;
binary)
	c=fuzz/out/binary-corpus
	mkdir -p $c fuzz/out/binary-findings fuzz/out/seeds
	p=${PROBEGEN:-./probegen}
	(cd fuzz/out/seeds &&
	 ../../../$p -h -s ../../../tests/src/values.d -o values.h &&
	 ../../../$p -G -s ../../../tests/src/values.d -o values_probes.o &&
	 ../../../$p -G -s ../../../tests/src/meanings.d -o meanings_probes.o &&
	 gcc -O2 -I. ../../../tests/src/values.c values_probes.o -o values &&
	 gcc -O2 -I. -c ../../../tests/src/values.c -o values_site.o &&
	 strip -o values.stripped values &&
	 { ! command -v aarch64-linux-gnu-gcc > /dev/null ||
	   { ../../../$p -h --self-contained -s ../../../tests/src/values.d -o values.h &&
	     aarch64-linux-gnu-gcc -O2 -I. -c ../../../tests/src/values.c -o values_aarch64.o; }; }) ||
		echo "fuzz/run.sh: some seeds could not be built" >&2
	cp fuzz/out/seeds/values fuzz/out/seeds/*.o fuzz/out/seeds/values.stripped $c/ 2>/dev/null || true
	[ -d tests/fuzz-binary ] && cp tests/fuzz-binary/* $c/ 2>/dev/null || true
	cp tests/fuzz-corpus/binary/* $c/ 2>/dev/null || true
	exec build-fuzz/fuzz_binary -max_total_time="$seconds" -timeout=10 \
		-print_final_stats=1 \
		-rss_limit_mb=2048 -max_len=262144 \
		-artifact_prefix=fuzz/out/binary-findings/ $c ;;
event)
	c=fuzz/out/event-corpus
	mkdir -p $c fuzz/out/event-findings
	printf '\006\002\003\202\000\000\001\004\010\002\004\001\005\000\000\000\000\006\010\020\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000host: example.org\000\002\000\037\220\177\000\000\001' > $c/seed
	[ -d tests/fuzz-corpus/event ] && cp tests/fuzz-corpus/event/* $c/ 2>/dev/null || true
	exec build-fuzz/fuzz_event -max_total_time="$seconds" -timeout=10 \
		-print_final_stats=1 -rss_limit_mb=2048 -max_len=4096 \
		-artifact_prefix=fuzz/out/event-findings/ $c ;;
where)
	c=fuzz/out/where-corpus
	mkdir -p $c fuzz/out/where-findings
	printf '%s' 'w:req: id == 7 && (path ~ "/api/*" || !(small <= 100))' > $c/seed
	printf '%s' 'h2o:*: conn->super.id != -9223372036854775808' > $c/seed2
	printf '%s' 'w:text: "a\\"b" == name || 0x10 < n' > $c/seed3
	[ -d tests/fuzz-corpus/where ] && cp tests/fuzz-corpus/where/* $c/ 2>/dev/null || true
	exec build-fuzz/fuzz_where -max_total_time="$seconds" -timeout=10 \
		-print_final_stats=1 -rss_limit_mb=2048 -max_len=1024 \
		-artifact_prefix=fuzz/out/where-findings/ $c ;;
filter)
	c=fuzz/out/filter-corpus
	mkdir -p $c fuzz/out/filter-findings
	printf '%s' 'id == 7 && (s ~ "/api/*" || !(small <= 100))' > $c/seed
	printf '%s' '!(a < -1) || (b >= 0xffff && !(e == -9223372036854775808))' > $c/seed2
	printf '%s' 's == "GET" || (c > 2147483646 && d != 0)' > $c/seed3
	[ -d tests/fuzz-corpus/filter ] && cp tests/fuzz-corpus/filter/* $c/ 2>/dev/null || true
	exec build-fuzz/fuzz_filter -max_total_time="$seconds" -timeout=10 \
		-print_final_stats=1 -rss_limit_mb=2048 -max_len=1024 \
		-artifact_prefix=fuzz/out/filter-findings/ $c ;;
metrics)
	c=fuzz/out/metrics-corpus
	mkdir -p $c fuzz/out/metrics-findings
	printf 'app\0request__start\0path\0method\0/index.html\0GET\0/a"b\\c\nd\0\377\376\0' > $c/seed
	[ -d tests/fuzz-metrics ] && cp tests/fuzz-metrics/* $c/ 2>/dev/null || true
	cp tests/fuzz-corpus/metrics/* $c/ 2>/dev/null || true
	exec build-fuzz/fuzz_metrics -max_total_time="$seconds" -timeout=10 \
		-print_final_stats=1 -rss_limit_mb=2048 -max_len=16384 \
		-artifact_prefix=fuzz/out/metrics-findings/ $c ;;
*)
	echo "usage: fuzz/run.sh SECONDS [pipeline|binary|event|where|filter|metrics]" >&2
	exit 2 ;;
esac
