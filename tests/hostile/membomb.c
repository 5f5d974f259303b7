/* Allocates and touches memory forever: must end as memory_limit. */
#include <stdlib.h>
#include <string.h>
int main(void) {
    for (;;) {
        char *p = malloc(1 << 20);
        if (p) memset(p, 1, 1 << 20);
    }
}
