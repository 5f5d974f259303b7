/* For each path on stdin, tries to create it and write to it; prints WROTE or DENIED. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(void) {
    char path[4096];
    while (fgets(path, sizeof path, stdin)) {
        path[strcspn(path, "\n")] = 0;
        if (!*path) continue;
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
        if (fd >= 0 && write(fd, "escaped\n", 8) == 8) printf("WROTE %s\n", path);
        else printf("DENIED %s\n", path);
        if (fd >= 0) close(fd);
    }
    return 0;
}
