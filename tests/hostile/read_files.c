/* For each path on stdin (one per line), prints "OPEN path" and up to 64 bytes if it can be
 * read, else "DENIED path". */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(void) {
    char path[4096];
    while (fgets(path, sizeof path, stdin)) {
        path[strcspn(path, "\n")] = 0;
        if (!*path) continue;
        int fd = open(path, O_RDONLY);
        char buf[65] = {0};
        if (fd >= 0 && read(fd, buf, 64) > 0) printf("OPEN %s %s\n", path, buf);
        else printf("DENIED %s\n", path);
        if (fd >= 0) close(fd);
    }
    return 0;
}
