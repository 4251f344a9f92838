/* tests/src/literals.d - a probe whose string arguments are literals the
   program never reads itself: their .rodata pages may not be in memory
   when the probe fires. */
provider fleet {
	probe truck__departed(int id, const char *driver, unsigned long long odometer);
};
