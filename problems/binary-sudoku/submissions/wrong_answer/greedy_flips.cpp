// binary-sudoku, wrong answer: greedy. Repeatedly flips the cell that makes the most odd rows,
// columns and boxes even at once (first such cell in reading order), and counts the flips. It
// always ends with a valid grid, but not always with the fewest flips.
#include <cstdio>

int main() {
    int g[81], n = 0, ch;
    while (n < 81 && (ch = getchar()) != EOF)
        if (ch == '0' || ch == '1') g[n++] = ch - '0';
    if (n < 81) return 0;
    int flips = 0;
    for (int step = 0; step < 1000; step++) {
        int row[9] = {0}, col[9] = {0}, box[9] = {0}, odd = 0;
        for (int i = 0; i < 81; i++) {
            row[i / 9] ^= g[i];
            col[i % 9] ^= g[i];
            box[(i / 27) * 3 + (i % 9) / 3] ^= g[i];
        }
        for (int k = 0; k < 9; k++) odd += row[k] + col[k] + box[k];
        if (odd == 0) break;
        int best = 0, bestGain = -10;
        for (int i = 0; i < 81; i++) {
            int o = row[i / 9] + col[i % 9] + box[(i / 27) * 3 + (i % 9) / 3];
            int gain = 2 * o - 3;
            if (gain > bestGain) {
                bestGain = gain;
                best = i;
            }
        }
        g[best] ^= 1;
        flips++;
    }
    printf("%d\n", flips);
    return 0;
}
