/* Binary Sudoku as many wrote it for online judges that define ONLINE_JUDGE (POJ, Luogu,
 * Codeforces): at home the program reads a test kept beside it; on the judge the block is
 * compiled out and the program reads standard input. C99 (gcc -std=gnu99).
 * Cell by cell in reading order, the fewest changes so far for each parity profile: the nine
 * columns, the three boxes of the current band and the current row (13 bits). A row must
 * close even, a band's boxes too, and at the end every column. */
#include <stdio.h>

enum { STATES = 1 << 13, BIG = 1 << 20 };

static int best[STATES], step[STATES];

int main(void) {
#ifndef ONLINE_JUDGE
    freopen("bsudoku_at_home.txt", "r", stdin);
#endif
    char cell[81];
    for (int k = 0; k < 81;) {
        int ch = getchar();
        if (ch == EOF) return 1;
        if (ch == '0' || ch == '1') cell[k++] = (char)(ch - '0');
    }
    for (int s = 0; s < STATES; s++) best[s] = BIG;
    best[0] = 0;
    for (int k = 0; k < 81; k++) {
        int r = k / 9, c = k % 9;
        for (int s = 0; s < STATES; s++) step[s] = BIG;
        for (int s = 0; s < STATES; s++) {
            if (best[s] == BIG) continue;
            for (int v = 0; v <= 1; v++) {
                int t = v ? s ^ (1 << c) ^ (1 << (9 + c / 3)) ^ (1 << 12) : s;
                if (c == 8) {
                    if (t >> 12) continue;
                    if (r % 3 == 2) {
                        if ((t >> 9) & 7) continue;
                    }
                }
                int cost = best[s] + (v != cell[k]);
                if (cost < step[t]) step[t] = cost;
            }
        }
        for (int s = 0; s < STATES; s++) best[s] = step[s];
    }
    printf("%d\n", best[0]);
    return 0;
}
