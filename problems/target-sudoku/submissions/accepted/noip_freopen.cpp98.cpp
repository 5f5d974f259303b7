// NOIP 2009 "target Sudoku" as a contestant wrote it for NOIP's g++ (C++98): the files named
// by the contest (sudoku.in / sudoku.out) opened with freopen, <bits/stdc++.h>, global
// arrays. The rows are filled fullest first (the usual trick of the time), each left to right,
// over every completion, keeping the best score. The givens go straight into the masks:
// NOIP's data never has two givens that clash, so, like the solutions of the time, this one
// does not look for a clash (on target-sudoku-clash, where givens may clash, it is WA).
#include <bits/stdc++.h>
using namespace std;

int a[9][9], rowm[9], colm[9], boxm[9], w[9][9];
int order[9], holes[9], px[81], py[81], cnt;
long long best = -1;

bool fuller(int u, int v) { return holes[u] < holes[v]; }

void go(int at, long long got) {
    if (at == cnt) {
        if (got > best) best = got;
        return;
    }
    int x = px[at], y = py[at], q = x / 3 * 3 + y / 3;
    int free_ = 1022 & ~(rowm[x] | colm[y] | boxm[q]);
    for (int d = 9; d >= 1; d--) {
        if (!(free_ >> d & 1)) continue;
        rowm[x] ^= 1 << d, colm[y] ^= 1 << d, boxm[q] ^= 1 << d;
        go(at + 1, got + d * w[x][y]);
        rowm[x] ^= 1 << d, colm[y] ^= 1 << d, boxm[q] ^= 1 << d;
    }
}

int main() {
    freopen("sudoku.in", "r", stdin);
    freopen("sudoku.out", "w", stdout);
    long long base = 0;
    for (int i = 0; i < 9; i++) {
        order[i] = i;
        for (int j = 0; j < 9; j++) {
            w[i][j] = 10 - max(abs(i - 4), abs(j - 4));
            scanf("%d", &a[i][j]);
            if (a[i][j] == 0) {
                holes[i]++;
                continue;
            }
            int b = 1 << a[i][j];
            rowm[i] |= b, colm[j] |= b, boxm[i / 3 * 3 + j / 3] |= b;
            base += a[i][j] * w[i][j];
        }
    }
    sort(order, order + 9, fuller);
    for (int k = 0; k < 9; k++)
        for (int j = 0; j < 9; j++)
            if (a[order[k]][j] == 0) px[cnt] = order[k], py[cnt] = j, cnt++;
    go(0, base);
    printf("%lld\n", best);
    return 0;
}
