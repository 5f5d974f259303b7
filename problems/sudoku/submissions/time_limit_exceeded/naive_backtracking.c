/* sudoku, time limit exceeded: correct plain backtracking in reading order, trying digits 1-9
 * in each empty cell with no candidate ordering or propagation. Exponential on hard puzzles. */
#include <stdio.h>
#include <string.h>

static char g[81];

static int ok(int i, int d) {
    int r = i / 9, c = i % 9, br = r / 3 * 3, bc = c / 3 * 3;
    for (int k = 0; k < 9; k++) {
        if (g[r * 9 + k] == d || g[k * 9 + c] == d) return 0;
        if (g[(br + k / 3) * 9 + bc + k % 3] == d) return 0;
    }
    return 1;
}

static int fill(int i) {
    while (i < 81 && g[i]) i++;
    if (i == 81) return 1;
    for (int d = 1; d <= 9; d++) {
        if (!ok(i, d)) continue;
        g[i] = (char)d;
        if (fill(i + 1)) return 1;
        g[i] = 0;
    }
    return 0;
}

int main(void) {
    char line[4096];
    while (fgets(line, sizeof line, stdin)) {
        if (strncmp(line, "end", 3) == 0) break;
        if (strlen(line) < 81) continue;
        for (int i = 0; i < 81; i++) g[i] = (line[i] >= '1' && line[i] <= '9') ? (char)(line[i] - '0') : 0;
        fill(0);
        for (int i = 0; i < 81; i++) putchar('0' + g[i]);
        putchar('\n');
        fflush(stdout);
    }
    return 0;
}
