/* plumb-hello — the tiny program lat_proc exec and shell run (lmbench's hello): it must be
 * small so fork+execve measures the kernel, not the loading of a large binary. */
#include <unistd.h>

int main(void)
{
	return write(1, "Hello world\n", 12) == 12 ? 0 : 1;
}
