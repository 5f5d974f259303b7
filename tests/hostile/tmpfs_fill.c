/* Fills the box's /tmp (tmpfs, charged to the run's memory) with a tiny process, then
 * sleeps: the OOM killer must pick the box, never the judge's helper. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(void) {
    static char buf[1 << 20];
    memset(buf, 'x', sizeof buf);
    FILE *f = fopen("/tmp/fill", "w");
    if (!f) return 3;
    for (int i = 0; i < 60; i++) fwrite(buf, 1, sizeof buf, f);
    fclose(f);
    sleep(2);
    return 0;
}
