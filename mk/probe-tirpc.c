/* Build probe: does $(CC) find and link Sun RPC (libtirpc)? */
#include <rpc/rpc.h>
int main(void) { CLIENT *c = clnt_create("localhost", 1, 1, "udp"); return c == 0; }
