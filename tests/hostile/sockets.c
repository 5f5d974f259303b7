#define _GNU_SOURCE
// Address families beyond local and IP sockets (vsock's port space is the host's, netlink
// talks to the kernel), and modify_ldt.
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

static void try_socket(const char *name, int family, int type) {
    int fd = socket(family, type, 0);
    printf("%s %s\n", name, fd >= 0 ? "ok" : strerrorname_np(errno));
    if (fd >= 0) close(fd);
}

int main(void) {
    try_socket("vsock", 40, SOCK_STREAM);
    try_socket("netlink", AF_NETLINK, SOCK_RAW);
    try_socket("packet", AF_PACKET, SOCK_RAW);
    try_socket("unix", AF_UNIX, SOCK_STREAM);
    try_socket("inet", AF_INET, SOCK_STREAM);
    try_socket("inet6", AF_INET6, SOCK_DGRAM);
    int sv[2];
    printf("vsock pair %s\n", socketpair(40, SOCK_STREAM, 0, sv) == 0 ? "ok" : strerrorname_np(errno));
    char ldt[16];
    long r = syscall(SYS_modify_ldt, 0, ldt, sizeof ldt);
    printf("modify_ldt %s\n", r >= 0 ? "ok" : strerrorname_np(errno));
    return 0;
}
