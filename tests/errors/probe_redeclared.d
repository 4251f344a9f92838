/* One provider in two blocks, as SystemTap accepts: a probe declared
   again must keep its argument types. */
provider p { probe a(int x, char *s); probe b(); };
provider p { probe a(long x, char *s); };
