/* kill(-1, SIGKILL): may only reach processes of its own box. Prints the result. */
#include <signal.h>
#include <stdio.h>
int main(void) {
    int r = kill(-1, SIGKILL);
    printf("kill=%d\n", r);
    return 0;
}
