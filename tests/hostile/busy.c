/* Spins forever: must end as time_limit at the CPU limit. */
int main(void) {
    volatile unsigned long x = 0;
    for (;;) x++;
}
