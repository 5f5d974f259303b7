/* Allocates and touches N MiB (N on stdin), prints "done". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void) {
    long mib = 0;
    if (scanf("%ld", &mib) != 1) return 2;
    size_t n = (size_t)mib << 20;
    char *p = malloc(n);
    if (!p) return 3;
    for (size_t i = 0; i < n; i += 4096) p[i] = (char)i;
    printf("done %ld\n", mib);
    return 0;
}
