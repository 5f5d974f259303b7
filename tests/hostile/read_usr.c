// Reads 300 MB of files under /usr, cold, after skipping the first N x 300 MB (N on stdin,
// so runs read different files): each file's cached pages are dropped first
// (POSIX_FADV_DONTNEED), so reading it brings them back charged to this run's cgroup. On
// cgroup v1 that page cache used to stay charged to the reused slot cgroup and raise the
// next run's memory limit by as much.
#define _XOPEN_SOURCE 700
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <unistd.h>

static long long total, skip;
static char buf[1 << 16];

static int visit(const char *path, const struct stat *st, int type, struct FTW *f) {
    (void)f;
    if (type != FTW_F) return 0;
    if (skip > 0) {
        skip -= st->st_size;
        return 0;
    }
    int fd = open(path, O_RDONLY);
    if (fd < 0) return 0;
    posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0) total += n;
    close(fd);
    return total >= 300LL << 20;
}

int main(void) {
    int n = 0;
    if (scanf("%d", &n) == 1) skip = (long long)n * (300LL << 20);
    nftw("/usr", visit, 16, FTW_PHYS);
    printf("read %lld MB\n", total >> 20);
    return 0;
}
