/*
 * tests/src/stack.d - a probe three calls deep (tests/t_stack.sh: --stack
 * walks to main without frame pointers).
 */
provider st {
	probe deep(int n);
};
