/* A declaration the parser cannot read, which a probe needs. */
typedef const static unsigned short __u_c_short;
provider p {
	probe a(__u_c_short v);
};
