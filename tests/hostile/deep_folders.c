// 100,000 nested folders in /box: mkdir("d"); chdir("d") until the box refuses. Removing
// such a tree with a recursive walk overflowed the judge's stack (one frame per level).
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void) {
    int depth = 0;
    while (depth < 100000 && mkdir("d", 0755) == 0 && chdir("d") == 0) depth++;
    printf("depth %d\n", depth);
    return 0;
}
