// target-sudoku, accepted: the textbook solution of NOIP 2009 "target Sudoku" / AcWing 183.
// One 9-bit mask of free digits per row, column and box; a plain depth-first search over
// every completion that fills the empty cell with the fewest candidates (popcount), takes its
// digits with lowbit and undoes each move on return, keeping the best score seen. No upper
// bound prunes anything: every completion is visited. Clashing givens print -1 (an extension
// of the original, whose givens never clash).
#include <cstdio>

static const int FULL = (1 << 9) - 1;
static int row_free[9], col_free[9], box_free[9];
static int ones[1 << 9], digit_of[1 << 9];
static int grid[9][9];
static int best = -1;

static inline int box_of(int r, int c) { return r / 3 * 3 + c / 3; }
static inline int lowbit(int x) { return x & -x; }

static int weight(int r, int c) {
    int ring = r < c ? r : c;
    if (8 - r < ring) ring = 8 - r;
    if (8 - c < ring) ring = 8 - c;
    return 6 + ring;
}

// Flips digit d (0-8) in the masks of cell (r, c): places it when free, frees it when placed.
static void flip(int r, int c, int d) {
    row_free[r] ^= 1 << d;
    col_free[c] ^= 1 << d;
    box_free[box_of(r, c)] ^= 1 << d;
}

static void dfs(int empty, int score) {
    if (empty == 0) {
        if (score > best) best = score;
        return;
    }
    int fewest = 10, br = 0, bc = 0;
    for (int r = 0; r < 9; r++)
        for (int c = 0; c < 9; c++)
            if (!grid[r][c]) {
                int n = ones[row_free[r] & col_free[c] & box_free[box_of(r, c)]];
                if (n < fewest) fewest = n, br = r, bc = c;
            }
    for (int m = row_free[br] & col_free[bc] & box_free[box_of(br, bc)]; m; m -= lowbit(m)) {
        int d = digit_of[lowbit(m)];
        grid[br][bc] = d + 1;
        flip(br, bc, d);
        dfs(empty - 1, score + weight(br, bc) * (d + 1));
        flip(br, bc, d);
        grid[br][bc] = 0;
    }
}

int main() {
    for (int i = 0; i < 9; i++) digit_of[1 << i] = i;
    for (int m = 0; m < (1 << 9); m++) ones[m] = __builtin_popcount(m);
    for (int i = 0; i < 9; i++) row_free[i] = col_free[i] = box_free[i] = FULL;
    int empty = 0, score = 0;
    bool clash = false;
    for (int r = 0; r < 9; r++)
        for (int c = 0; c < 9; c++) {
            if (scanf("%d", &grid[r][c]) != 1) return 1;
            int d = grid[r][c] - 1;
            if (d < 0) {
                empty++;
            } else if (!(row_free[r] & col_free[c] & box_free[box_of(r, c)] & (1 << d))) {
                clash = true;
            } else {
                flip(r, c, d);
                score += weight(r, c) * (d + 1);
            }
        }
    if (!clash) dfs(empty, score);
    printf("%d\n", best);
    return 0;
}
