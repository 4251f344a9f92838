/* Arguments of struct, union and class type passed by value, which
   no register holds: the note records the object in memory, and a
   tracer reads its first bytes (tests/src/objects.c and objects.cc). */
provider objs {
	probe c_values(long one, long three, long num, long made, long literal, int n);
	probe cpp_values(long holder, void *unique, void *shared, long view_len, long ref, int e);
};
