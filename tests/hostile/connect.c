/* Connects to 127.0.0.1:PORT (PORT on stdin); prints "connected" or "failed". */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>
int main(void) {
    int port = 0;
    if (scanf("%d", &port) != 1) return 2;
    int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0) { printf("failed socket\n"); return 0; }
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_port = htons((unsigned short)port);
    a.sin_addr.s_addr = htonl(0x7f000001);
    if (connect(s, (struct sockaddr *)&a, sizeof a) == 0) printf("connected\n");
    else printf("failed\n");
    close(s);
    return 0;
}
