#define _DEFAULT_SOURCE
// A child touches 900 MB, page by page; the parent reports how it ended.
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
    pid_t pid = fork();
    if (pid == 0) {
        size_t size = 900UL << 20;
        char *p = malloc(size);
        if (!p) _exit(3);
        for (size_t i = 0; i < size; i += 4096) p[i] = 1;
        _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    printf("child %s %d\n", WIFSIGNALED(status) ? "signal" : "exit",
           WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
