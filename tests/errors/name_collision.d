provider p {
	probe x(void);
	probe x__enabled(int y);
};
provider x_y { probe z(); };
provider x { probe y__z(); };
