/* Eight threads spinning: CPU is summed over every thread, so this ends as time_limit. */
#include <pthread.h>
static void *spin(void *arg) { volatile unsigned long x = 0; (void)arg; for (;;) x++; return 0; }
int main(void) {
    pthread_t t[8];
    for (int i = 0; i < 8; i++) pthread_create(&t[i], 0, spin, 0);
    for (int i = 0; i < 8; i++) pthread_join(t[i], 0);
    return 0;
}
