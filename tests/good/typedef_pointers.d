/* Typedefs of pointers and integers, as the X server's Xserver.d has
   them: a binary's reader must read them as the .d does. */
typedef const uint8_t *const_uint8_p;
typedef const double *const_double_p;
typedef unsigned int xid_t;

provider xlike {
	probe input__event(int, int, int, const_uint8_p, const_double_p);
	probe resource__alloc(xid_t id, const_uint8_p name);
};
