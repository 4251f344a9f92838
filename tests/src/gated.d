/* A probe fired only while its semaphore is set (t_semaphores_*). */
provider gated {
	probe fire(int i);
};
