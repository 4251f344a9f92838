provder myapp {
	probe start(int id);
};
