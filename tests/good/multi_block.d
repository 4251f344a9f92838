/* One provider in several blocks, as QEMU's tracetool writes it and
   SystemTap's dtrace accepts: the blocks make one provider, and a probe
   declared again with the same types is one probe. */
provider shop {
	probe order__placed(int id, const char *sku);
};

provider audit {
	probe login(const char *user);
};

provider shop {
	probe order__shipped(int id);
	probe order__placed(int order, char const *item);
};
