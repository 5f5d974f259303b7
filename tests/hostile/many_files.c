// 150,000 empty files in /box: each one costs the judge time when the box is torn down.
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(void) {
    char name[32];
    int n = 0;
    for (; n < 150000; n++) {
        snprintf(name, sizeof name, "f%d", n);
        int fd = open(name, O_CREAT | O_WRONLY | O_EXCL, 0644);
        if (fd < 0) break;
        close(fd);
    }
    printf("files %d\n", n);
    return 0;
}
