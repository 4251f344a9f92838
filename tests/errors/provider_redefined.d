provider p { probe a(int); };
provider p { probe b(int); };
