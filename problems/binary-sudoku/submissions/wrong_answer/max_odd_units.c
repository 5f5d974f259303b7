/* binary-sudoku, wrong answer: prints max(odd rows, odd columns, odd boxes). One flip fixes at
 * most one row, one column and one box, so that is a lower bound, and it is right on the
 * sample and on grids with few flips; but often the odd units cannot all be paired up, and
 * more flips are needed. */
#include <stdio.h>

int main(void) {
    int row[9] = {0}, col[9] = {0}, box[9] = {0}, n = 0, ch;
    while (n < 81 && (ch = getchar()) != EOF) {
        if (ch != '0' && ch != '1') continue;
        int v = ch - '0', r = n / 9, c = n % 9;
        row[r] ^= v;
        col[c] ^= v;
        box[(r / 3) * 3 + c / 3] ^= v;
        n++;
    }
    int rows = 0, cols = 0, boxes = 0;
    for (int k = 0; k < 9; k++) {
        rows += row[k];
        cols += col[k];
        boxes += box[k];
    }
    int best = rows > cols ? rows : cols;
    printf("%d\n", best > boxes ? best : boxes);
    return 0;
}
