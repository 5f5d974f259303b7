/* Burns about 400 ms of CPU (measured with clock()) and exits 0. */
#include <stdio.h>
#include <time.h>
int main(void) {
    volatile unsigned long x = 0;
    clock_t start = clock();
    while (clock() - start < CLOCKS_PER_SEC * 4 / 10) x++;
    printf("%lu\n", (unsigned long)x);
    return 0;
}
