#!/bin/bash
# tests/real/run.sh [NAME...] - `make check-real`: every real-build script
# (or those named), one result line each and the harness's summary line.
cd "$(dirname "$0")"
passed=0 failed=0 skipped=0
for s in ${@:-memcached tcl postgresql cpython glib qemu ruby perl php erlang gjs xorg package}; do
	if [ ! -x "$s.sh" ]; then
		echo "FAIL real_$s: no script tests/real/$s.sh"
		failed=$((failed + 1))
		continue
	fi
	line=$(bash "$s.sh" 2>&1 | tail -n 1)
	echo "$line"
	case $line in ok*) passed=$((passed + 1)) ;; SKIP*) skipped=$((skipped + 1)) ;; *) failed=$((failed + 1)) ;; esac
done
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
