/* Build probe: does $(CC) find and link libpq (PostgreSQL's client library)? */
#include <libpq-fe.h>
int main(void) { return PQlibVersion() == 0; }
