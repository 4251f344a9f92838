#include <stdio.h>
#include <unistd.h>

void lib_fire(int n);

int main(void)
{
	int i;

	printf("ready\n");
	fflush(stdout);
	for (i = 0; i < 1000; i++) {
		lib_fire(i);
		usleep(20000);
	}
	return 0;
}
