// NOIP 2009 "target Sudoku" as a contestant wrote it for NOIP's g++ (C++98): files named by
// the contest (sudoku.in / sudoku.out) opened with freopen, <bits/stdc++.h>, global arrays,
// and a depth-first search over every completion that fills the cell with the fewest
// candidates first and keeps the best score. The givens are read straight into the masks:
// NOIP's data never has two givens that clash, so, like the solutions of the time, this one
// does not look for a clash (on target-sudoku-clash, where givens may clash, it is WA).
#include <bits/stdc++.h>
using namespace std;

int g[9][9], r[9], c[9], b[9], bits[1024], low[1024];
int ans = -1;

int score(int i, int j) { return 6 + min(min(i, j), min(8 - i, 8 - j)); }

void dfs(int left, int now) {
    if (left == 0) {
        ans = max(ans, now);
        return;
    }
    int best = 10, x = -1, y = -1;
    for (int i = 0; i < 9; i++)
        for (int j = 0; j < 9; j++)
            if (!g[i][j]) {
                int t = bits[~(r[i] | c[j] | b[i / 3 * 3 + j / 3]) & 1022];
                if (t < best) best = t, x = i, y = j;
            }
    if (best == 0) return;
    int can = ~(r[x] | c[y] | b[x / 3 * 3 + y / 3]) & 1022;
    while (can) {
        int p = can & -can, d = low[p];
        can -= p;
        g[x][y] = d;
        r[x] |= p, c[y] |= p, b[x / 3 * 3 + y / 3] |= p;
        dfs(left - 1, now + d * score(x, y));
        r[x] ^= p, c[y] ^= p, b[x / 3 * 3 + y / 3] ^= p;
        g[x][y] = 0;
    }
}

int main() {
    freopen("sudoku.in", "r", stdin);
    freopen("sudoku.out", "w", stdout);
    for (int i = 1; i < 1024; i++) bits[i] = bits[i >> 1] + (i & 1);
    for (int i = 0; i < 10; i++) low[1 << i] = i;
    int left = 0, now = 0;
    for (int i = 0; i < 9; i++)
        for (int j = 0; j < 9; j++) {
            scanf("%d", &g[i][j]);
            if (g[i][j]) {
                int p = 1 << g[i][j];
                r[i] |= p, c[j] |= p, b[i / 3 * 3 + j / 3] |= p;
                now += g[i][j] * score(i, j);
            } else
                left++;
        }
    dfs(left, now);
    printf("%d\n", ans);
    return 0;
}
