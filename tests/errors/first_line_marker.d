# 40 "app_probes.d"
provider app {
	probe start(int id);
	probe stop(int id id);
};
