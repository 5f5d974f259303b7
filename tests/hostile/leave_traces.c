/* Leaves every trace it can in its box ("leave" on stdin), or looks for what an earlier
 * run left ("look"): files in /box and /tmp, SysV shared memory, semaphores and message
 * queues, a POSIX message queue, a detached background process, and the PID counter.
 * Also prints the box's init start time (the same in a reused box) and its PID namespace's
 * inode (which box of the slot's waiting boxes this is). */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <mqueue.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/wait.h>
#include <unistd.h>

#define SHM_KEY 0x53440001
#define SEM_KEY 0x53440002
#define MSG_KEY 0x53440003
#define MQ_NAME "/sudojudge-left"

static int found = 0;

static void trace(const char *what) {
    printf("found %s\n", what);
    found++;
}

static void list_dir(const char *dir, const char *allowed1, const char *allowed2) {
    DIR *d = opendir(dir);
    if (!d) { trace(dir); return; }
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        if (allowed1 && !strcmp(e->d_name, allowed1)) continue;
        if (allowed2 && !strcmp(e->d_name, allowed2)) continue;
        printf("found %s/%s\n", dir, e->d_name);
        found++;
    }
    closedir(d);
}

static void sysvipc_entries(const char *name) {
    char path[64], line[512];
    snprintf(path, sizeof path, "/proc/sysvipc/%s", name);
    FILE *f = fopen(path, "r");
    if (!f) { trace(path); return; }
    int n = 0;
    while (fgets(line, sizeof line, f)) n++;
    fclose(f);
    if (n > 1) trace(path);
}

static void other_processes(void) {
    DIR *d = opendir("/proc");
    if (!d) { trace("/proc"); return; }
    struct dirent *e;
    while ((e = readdir(d))) {
        int pid = atoi(e->d_name);
        if (pid > 1 && pid != getpid()) {
            printf("found process %d\n", pid);
            found++;
        }
    }
    closedir(d);
}

static void init_start(void) {
    char buf[1024];
    FILE *f = fopen("/proc/1/stat", "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f) fclose(f);
    buf[n] = 0;
    char *p = strrchr(buf, ')');
    /* Field 22 (starttime); the text after ')' starts with field 3. */
    for (int field = 2; p && field < 22; field++) p = strchr(p + 1, ' ');
    printf("init %lld\n", p ? atoll(p + 1) : -1LL);
}

static void box_id(void) {
    char link[64] = {0};
    ssize_t n = readlink("/proc/self/ns/pid", link, sizeof link - 1);
    char *open = n > 0 ? strchr(link, '[') : NULL;
    printf("box %lld\n", open ? atoll(open + 1) : -1LL);
}

static int leave(void) {
    int left = 0;
    FILE *f = fopen("/box/left.txt", "w");
    if (f && fputs("x", f) >= 0 && fclose(f) == 0) left++;
    f = fopen("/tmp/left.txt", "w");
    if (f && fputs("x", f) >= 0 && fclose(f) == 0) left++;
    if (shmget(SHM_KEY, 4096, IPC_CREAT | 0666) >= 0) left++;
    if (shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600) >= 0) left++;
    if (semget(SEM_KEY, 1, IPC_CREAT | 0666) >= 0) left++;
    if (msgget(MSG_KEY, IPC_CREAT | 0666) >= 0) left++;
    if (mq_open(MQ_NAME, O_CREAT | O_RDWR, 0666, NULL) != (mqd_t)-1) left++;
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
        setsid();
        if (fork() == 0) { for (;;) sleep(1); }
        _exit(0);
    }
    if (child > 0 && waitpid(child, NULL, 0) == child) left++;
    printf("left %d\n", left);
    return 0;
}

static int look(void) {
    list_dir("/box", "main", ".input");
    list_dir("/tmp", NULL, NULL);
    if (shmget(SHM_KEY, 0, 0) >= 0) trace("shm");
    if (semget(SEM_KEY, 0, 0) >= 0) trace("sem");
    if (msgget(MSG_KEY, 0) >= 0) trace("msg");
    sysvipc_entries("shm");
    sysvipc_entries("sem");
    sysvipc_entries("msg");
    if (mq_open(MQ_NAME, O_RDONLY) != (mqd_t)-1) trace("mqueue");
    other_processes();
    if (!found) printf("clean\n");
    return 0;
}

int main(void) {
    char word[16] = {0};
    if (scanf("%15s", word) != 1) return 2;
    printf("pid %d\n", getpid());
    init_start();
    box_id();
    if (!strcmp(word, "leave")) return leave();
    if (!strcmp(word, "look")) return look();
    return 2;
}
