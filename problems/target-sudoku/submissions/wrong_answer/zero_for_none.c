/* target-sudoku, wrong answer: the enumeration solver, but it starts from best = 0, so a grid
 * with no completion prints 0 instead of -1. Right on every other input. */
#include <stdio.h>

static int weight[81], box_of[81], grid[81];
static unsigned row_used[9], col_used[9], box_used[9];
static long long best = 0;

static void dfs(long long score) {
    int cell = -1, count = 10;
    unsigned cell_mask = 0;
    for (int i = 0; i < 81; i++) {
        if (grid[i]) continue;
        unsigned m = ~(row_used[i / 9] | col_used[i % 9] | box_used[box_of[i]]) & 0x3FE;
        int n = __builtin_popcount(m);
        if (n < count) {
            count = n;
            cell = i;
            cell_mask = m;
            if (n == 0) return;
        }
    }
    if (cell < 0) {
        if (score > best) best = score;
        return;
    }
    int r = cell / 9, c = cell % 9, b = box_of[cell];
    for (int d = 1; d <= 9; d++) {
        unsigned bit = 1u << d;
        if (!(cell_mask & bit)) continue;
        grid[cell] = d;
        row_used[r] |= bit;
        col_used[c] |= bit;
        box_used[b] |= bit;
        dfs(score + (long long)weight[cell] * d);
        row_used[r] &= ~bit;
        col_used[c] &= ~bit;
        box_used[b] &= ~bit;
    }
    grid[cell] = 0;
}

int main(void) {
    long long score = 0;
    int clash = 0;
    for (int i = 0; i < 81; i++) {
        int r = i / 9, c = i % 9;
        int ring = r;
        if (c < ring) ring = c;
        if (8 - r < ring) ring = 8 - r;
        if (8 - c < ring) ring = 8 - c;
        weight[i] = 6 + ring;
        box_of[i] = (r / 3) * 3 + c / 3;
        if (scanf("%d", &grid[i]) != 1 || grid[i] < 0 || grid[i] > 9) grid[i] = 0;
        if (!grid[i]) continue;
        unsigned bit = 1u << grid[i];
        if ((row_used[r] | col_used[c] | box_used[box_of[i]]) & bit) clash = 1;
        row_used[r] |= bit;
        col_used[c] |= bit;
        box_used[box_of[i]] |= bit;
        score += (long long)weight[i] * grid[i];
    }
    if (!clash) dfs(score);
    if (best < 0) best = 0;
    printf("%lld\n", best);
    return 0;
}
