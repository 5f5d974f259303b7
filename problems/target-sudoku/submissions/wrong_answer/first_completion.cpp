// target-sudoku, wrong answer: solves the grid like an ordinary sudoku and prints the score of
// the first completion it finds, as if a completion were unique. Right only when it is.
#include <cstdio>

namespace {

int grid[81], weight[81];
unsigned rowUsed[9], colUsed[9], boxUsed[9];

int boxOf(int i) { return (i / 27) * 3 + (i % 9) / 3; }

bool solve(int i) {
    while (i < 81 && grid[i]) i++;
    if (i == 81) return true;
    int r = i / 9, c = i % 9, b = boxOf(i);
    for (int d = 1; d <= 9; d++) {
        unsigned bit = 1u << d;
        if ((rowUsed[r] | colUsed[c] | boxUsed[b]) & bit) continue;
        grid[i] = d;
        rowUsed[r] |= bit;
        colUsed[c] |= bit;
        boxUsed[b] |= bit;
        if (solve(i + 1)) return true;
        rowUsed[r] ^= bit;
        colUsed[c] ^= bit;
        boxUsed[b] ^= bit;
    }
    grid[i] = 0;
    return false;
}

}  // namespace

int main() {
    bool clash = false;
    for (int i = 0; i < 81; i++) {
        int r = i / 9, c = i % 9, ring = r;
        if (c < ring) ring = c;
        if (8 - r < ring) ring = 8 - r;
        if (8 - c < ring) ring = 8 - c;
        weight[i] = 6 + ring;
        if (scanf("%d", &grid[i]) != 1 || grid[i] < 0 || grid[i] > 9) grid[i] = 0;
        if (!grid[i]) continue;
        unsigned bit = 1u << grid[i];
        if ((rowUsed[r] | colUsed[c] | boxUsed[boxOf(i)]) & bit) clash = true;
        rowUsed[r] |= bit;
        colUsed[c] |= bit;
        boxUsed[boxOf(i)] |= bit;
    }
    if (clash || !solve(0)) {
        printf("-1\n");
        return 0;
    }
    long long score = 0;
    for (int i = 0; i < 81; i++) score += (long long)weight[i] * grid[i];
    printf("%lld\n", score);
    return 0;
}
