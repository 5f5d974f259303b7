/* The classic fork bomb. Only run after the pids limit is proven (fork_bounded.c). */
#include <unistd.h>
int main(void) { for (;;) fork(); }
