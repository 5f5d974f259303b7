/* sudoku and sudoku-hard (a symlink), accepted: candidate bitmasks per cell, constraint
 * propagation (naked singles and hidden singles in every row, column and box), then
 * depth-first search on the cell with the fewest candidates, copying the whole state (81
 * masks) at each branch. */
#include <stdio.h>
#include <string.h>

typedef struct {
    unsigned short cand[81]; /* candidate digits of each cell, bit d-1 for digit d */
    unsigned char val[81];   /* 0 = empty, else the digit */
    int left;                /* empty cells */
} State;

static int peers[81][20];
static int units[27][9];
static int cell_units[81][3];

static void init_tables(void) {
    for (int r = 0; r < 9; r++)
        for (int c = 0; c < 9; c++) {
            int i = r * 9 + c, b = (r / 3) * 3 + c / 3, k = 0;
            units[r][c] = i;
            units[9 + c][r] = i;
            units[18 + b][(r % 3) * 3 + c % 3] = i;
            cell_units[i][0] = r;
            cell_units[i][1] = 9 + c;
            cell_units[i][2] = 18 + b;
            for (int j = 0; j < 81; j++) {
                int r2 = j / 9, c2 = j % 9, b2 = (r2 / 3) * 3 + c2 / 3;
                if (j != i && (r2 == r || c2 == c || b2 == b)) peers[i][k++] = j;
            }
        }
}

static int stack_cells[81 * 9];

/* Places digit bit m in cell i and propagates naked singles. Returns 0 on contradiction. */
static int place(State *s, int i, unsigned m) {
    int top = 0;
    if (!(s->cand[i] & m)) return 0;
    s->cand[i] = (unsigned short)m;
    stack_cells[top++] = i;
    while (top) {
        int c = stack_cells[--top];
        unsigned bit = s->cand[c];
        if (s->val[c]) continue;
        s->val[c] = (unsigned char)(__builtin_ctz(bit) + 1);
        s->left--;
        for (int k = 0; k < 20; k++) {
            int p = peers[c][k];
            if (!(s->cand[p] & bit)) continue;
            if (s->val[p]) return 0;
            unsigned nm = s->cand[p] & ~bit;
            if (!nm) return 0;
            s->cand[p] = (unsigned short)nm;
            if (!(nm & (nm - 1))) stack_cells[top++] = p;
        }
    }
    return 1;
}

/* Hidden singles over all units until nothing changes. Returns 0 on contradiction. */
static int hidden_singles(State *s) {
    int changed = 1;
    while (changed) {
        changed = 0;
        for (int u = 0; u < 27; u++) {
            unsigned once = 0, twice = 0, placed = 0;
            for (int k = 0; k < 9; k++) {
                int c = units[u][k];
                unsigned m = s->cand[c];
                if (s->val[c]) { placed |= m; continue; }
                twice |= once & m;
                once |= m;
            }
            if ((once | placed) != 0x1FF) return 0;
            unsigned single = once & ~twice & ~placed;
            while (single) {
                unsigned bit = single & -single;
                single ^= bit;
                for (int k = 0; k < 9; k++) {
                    int c = units[u][k];
                    if (!s->val[c] && (s->cand[c] & bit)) {
                        if (!place(s, c, bit)) return 0;
                        changed = 1;
                        break;
                    }
                }
            }
        }
    }
    return 1;
}

static int solve(State *s) {
    if (!hidden_singles(s)) return 0;
    if (s->left == 0) return 1;
    int best = -1, best_n = 10;
    for (int i = 0; i < 81; i++) {
        if (s->val[i]) continue;
        int n = __builtin_popcount(s->cand[i]);
        if (n < best_n) {
            best_n = n;
            best = i;
            if (n == 2) break;
        }
    }
    unsigned m = s->cand[best];
    while (m) {
        unsigned bit = m & -m;
        m ^= bit;
        State t = *s;
        if (place(&t, best, bit) && solve(&t)) {
            *s = t;
            return 1;
        }
    }
    return 0;
}

int main(void) {
    static char line[1 << 16];
    static char out[1 << 16];
    init_tables();
    while (fgets(line, sizeof line, stdin)) {
        size_t n = strlen(line);
        while (n && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' ')) line[--n] = 0;
        if (n == 0) continue;
        if (strcmp(line, "end") == 0) break;
        State s;
        for (int i = 0; i < 81; i++) { s.cand[i] = 0x1FF; s.val[i] = 0; }
        s.left = 81;
        int ok = 1;
        for (int i = 0; i < 81 && i < (int)n && ok; i++)
            if (line[i] >= '1' && line[i] <= '9' && !s.val[i])
                ok = place(&s, i, 1u << (line[i] - '1'));
            else if (line[i] >= '1' && line[i] <= '9' && s.val[i] != line[i] - '0')
                ok = 0;
        if (ok) ok = solve(&s);
        for (int i = 0; i < 81; i++) out[i] = ok ? (char)('0' + s.val[i]) : '0';
        out[81] = '\n';
        fwrite(out, 1, 82, stdout);
    }
    return 0;
}
