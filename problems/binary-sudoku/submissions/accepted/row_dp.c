/* binary-sudoku, accepted: dynamic programming row by row. The state is the parity of every
 * column so far (9 bits) and of the three boxes of the current band (3 bits): 4096 states. Each
 * row becomes one of the 256 even-weight patterns, at the cost of the cells it flips; a band
 * may only end with its three boxes even, and the grid with every column even. */
#include <stdio.h>
#include <string.h>

#define INF 1000

int main(void) {
    int orig[9] = {0}, cells = 0, ch;
    while (cells < 81 && (ch = getchar()) != EOF)
        if (ch == '0' || ch == '1') {
            orig[cells / 9] |= (ch - '0') << (cells % 9);
            cells++;
        }
    int evens[256], n_even = 0, effect[512];
    for (int v = 0; v < 512; v++) {
        if (!(__builtin_popcount(v) & 1)) evens[n_even++] = v;
        int boxes = 0;
        for (int b = 0; b < 3; b++)
            if (__builtin_popcount((v >> (3 * b)) & 7) & 1) boxes |= 1 << b;
        effect[v] = v | boxes << 9;
    }
    static int dp[4096], next[4096];
    for (int s = 0; s < 4096; s++) dp[s] = INF;
    dp[0] = 0;
    for (int r = 0; r < 9; r++) {
        for (int s = 0; s < 4096; s++) next[s] = INF;
        for (int s = 0; s < 4096; s++) {
            if (dp[s] >= INF) continue;
            for (int k = 0; k < n_even; k++) {
                int v = evens[k];
                int cost = dp[s] + __builtin_popcount(v ^ orig[r]);
                int t = s ^ effect[v];
                if (cost < next[t]) next[t] = cost;
            }
        }
        if (r % 3 == 2)
            for (int s = 512; s < 4096; s++) next[s] = INF;
        memcpy(dp, next, sizeof dp);
    }
    printf("%d\n", dp[0]);
    return 0;
}
