/* Writes 60 KiB files into /box without end, hoping to fill the host's disk. The box folder
 * lives on a tmpfs charged to the run's memory: this must end as memory_limit. */
#include <stdio.h>
#include <string.h>
int main(void) {
    static char buf[60 << 10];
    memset(buf, 'x', sizeof buf);
    char name[64];
    for (long i = 0;; i++) {
        snprintf(name, sizeof name, "/box/f%ld", i);
        FILE *f = fopen(name, "w");
        if (!f) { printf("stopped at %ld\n", i); return 1; }
        fwrite(buf, 1, sizeof buf, f);
        fclose(f);
    }
}
