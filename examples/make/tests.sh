#!/bin/sh
# The test suite of examples/make: the program run as a suite runs it,
# from a script, once directly and once through another shell.
set -e
./myapp > /dev/null
sh -c './myapp' > /dev/null
echo "tests passed"
