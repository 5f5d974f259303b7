// Reads up to 400 MB of files under /usr: their page cache is charged to the run's cgroup
// and, on cgroup v1, used to stay charged to the reused slot cgroup for the next run.
#define _XOPEN_SOURCE 700
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <unistd.h>

static long long total;
static char buf[1 << 16];

static int visit(const char *path, const struct stat *st, int type, struct FTW *f) {
    (void)st; (void)f;
    if (type != FTW_F) return 0;
    int fd = open(path, O_RDONLY);
    if (fd < 0) return 0;
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0) total += n;
    close(fd);
    return total >= 400LL << 20;
}

int main(void) {
    nftw("/usr", visit, 16, FTW_PHYS);
    printf("read %lld MB\n", total >> 20);
    return 0;
}
