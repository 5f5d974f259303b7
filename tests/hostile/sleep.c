/* Sleeps: must end as time_limit by the wall clock. */
#include <unistd.h>
int main(void) { sleep(1000); return 0; }
