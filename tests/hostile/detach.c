/* A setsid'd double-forked grandchild that tries to outlive the run. */
#include <stdio.h>
#include <unistd.h>
int main(void) {
    pid_t p = fork();
    if (p == 0) {
        setsid();
        if (fork() == 0) { for (;;) sleep(1); }
        _exit(0);
    }
    sleep(1);
    printf("parent done\n");
    return 0;
}
