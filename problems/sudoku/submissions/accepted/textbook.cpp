// sudoku, accepted (and sudoku-hard, time limit exceeded: the same file, through a symlink):
// the textbook solution of POJ 3074 / AcWing 166. One 9-bit mask of free digits per row,
// column and box; depth-first search that fills the empty cell with the fewest candidates
// (popcount of row & column & box), taking its digits with lowbit, and undoes each move on
// return. No naked or hidden singles, no copy of the state.
#include <cstdio>
#include <cstring>

static const int FULL = (1 << 9) - 1;
static int row_free[9], col_free[9], box_free[9];
static int ones[1 << 9], digit_of[1 << 9];
static char grid[100];

static inline int box_of(int r, int c) { return r / 3 * 3 + c / 3; }
static inline int lowbit(int x) { return x & -x; }

static void put(int r, int c, int d) {
    grid[r * 9 + c] = (char)('1' + d);
    row_free[r] ^= 1 << d;
    col_free[c] ^= 1 << d;
    box_free[box_of(r, c)] ^= 1 << d;
}

static void take(int r, int c, int d) {
    grid[r * 9 + c] = '.';
    row_free[r] ^= 1 << d;
    col_free[c] ^= 1 << d;
    box_free[box_of(r, c)] ^= 1 << d;
}

static bool dfs(int empty) {
    if (empty == 0) return true;
    int best = 10, br = 0, bc = 0;
    for (int r = 0; r < 9; r++)
        for (int c = 0; c < 9; c++)
            if (grid[r * 9 + c] == '.') {
                int n = ones[row_free[r] & col_free[c] & box_free[box_of(r, c)]];
                if (n < best) best = n, br = r, bc = c;
            }
    for (int m = row_free[br] & col_free[bc] & box_free[box_of(br, bc)]; m; m -= lowbit(m)) {
        int d = digit_of[lowbit(m)];
        put(br, bc, d);
        if (dfs(empty - 1)) return true;
        take(br, bc, d);
    }
    return false;
}

int main() {
    for (int i = 0; i < 9; i++) digit_of[1 << i] = i;
    for (int m = 0; m < (1 << 9); m++) ones[m] = __builtin_popcount(m);
    while (scanf("%99s", grid) == 1 && grid[0] != 'e') {
        for (int i = 0; i < 9; i++) row_free[i] = col_free[i] = box_free[i] = FULL;
        int empty = 0;
        for (int r = 0; r < 9; r++)
            for (int c = 0; c < 9; c++) {
                char ch = grid[r * 9 + c];
                if (ch == '.') empty++;
                else put(r, c, ch - '1');
            }
        dfs(empty);
        puts(grid);
    }
    return 0;
}
