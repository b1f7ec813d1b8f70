/* Build probe: does $(CC) find and link SQLite? */
#include <sqlite3.h>
int main(void) { return sqlite3_libversion_number() == 0; }
