/* Tries to keep 40 sleeping children alive at once; prints how many forks succeeded.
 * With a pids limit of 8 most forks must fail. Children die with the box. */
#include <stdio.h>
#include <unistd.h>
int main(void) {
    int ok = 0;
    for (int i = 0; i < 40; i++) {
        pid_t p = fork();
        if (p == 0) { sleep(1000); _exit(0); }
        if (p > 0) ok++;
    }
    printf("%d\n", ok);
    return 0;
}
