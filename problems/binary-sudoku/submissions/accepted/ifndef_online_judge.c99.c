/* Binary Sudoku as many wrote it for online judges that define ONLINE_JUDGE (POJ, Luogu,
 * Codeforces): at home the program reads a test kept beside it; on the judge the block is
 * compiled out and the program reads standard input. C99 (gcc -std=gnu99).
 * Row by row, every set of cells to flip in the row that leaves it even, over the states
 * (parity of each column so far, parity of the band's three boxes so far): the fewest flips
 * that reach all-even. */
#include <stdio.h>
#include <string.h>

#define INF 1000

static int dp[1 << 12], nx[1 << 12];

static int par3(int m) { return (m & 1) ^ (m >> 1 & 1) ^ (m >> 2 & 1); }

int main(void) {
#ifndef ONLINE_JUDGE
    freopen("bsudoku_at_home.txt", "r", stdin);
#endif
    char line[32];
    int g[9];
    for (int i = 0; i < 9; i++) {
        if (scanf("%31s", line) != 1) return 1;
        g[i] = 0;
        for (int j = 0; j < 9; j++) g[i] |= (line[j] - '0') << j;
    }
    for (int s = 0; s < (1 << 12); s++) dp[s] = INF;
    dp[0] = 0;
    for (int i = 0; i < 9; i++) {
        for (int s = 0; s < (1 << 12); s++) nx[s] = INF;
        for (int s = 0; s < (1 << 12); s++) {
            if (dp[s] == INF) continue;
            for (int flip = 0; flip < 512; flip++) {
                int now = g[i] ^ flip, c = 0;
                for (int j = 0; j < 9; j++) c ^= now >> j & 1;
                if (c) continue;
                int box = par3(now & 7) | par3(now >> 3 & 7) << 1 | par3(now >> 6 & 7) << 2;
                int t = ((s & 511) ^ now) | (((s >> 9) ^ box) << 9);
                if (i % 3 == 2 && (t >> 9)) continue;
                int cost = dp[s] + __builtin_popcount(flip);
                if (cost < nx[t]) nx[t] = cost;
            }
        }
        memcpy(dp, nx, sizeof dp);
    }
    printf("%d\n", dp[0]);
    return 0;
}
