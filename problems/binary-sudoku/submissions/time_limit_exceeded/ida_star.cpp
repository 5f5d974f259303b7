// binary-sudoku, time limit exceeded: correct iterative-deepening A* over flip sequences. At
// each step it may flip any cell, bounded by the admissible estimate "number of odd rows" (one
// flip changes exactly one row). Exact, but the estimate ignores columns and boxes and every
// set of flips is revisited in every order: on grids needing seven to nine flips it explores
// billions of nodes.
#include <cstdio>

namespace {

unsigned cellMask[81];  // bit r: row r, bit 9 + c: column c, bit 18 + b: box b
int limit;

int estimate(unsigned s) { return __builtin_popcount(s & 0x1FF); }

bool search(unsigned s, int used) {
    if (s == 0) return true;
    if (used + estimate(s) > limit) return false;
    for (int i = 0; i < 81; i++)
        if (search(s ^ cellMask[i], used + 1)) return true;
    return false;
}

}  // namespace

int main() {
    unsigned s = 0;
    int n = 0, ch;
    while (n < 81 && (ch = getchar()) != EOF) {
        if (ch != '0' && ch != '1') continue;
        int r = n / 9, c = n % 9;
        cellMask[n] = 1u << r | 1u << (9 + c) | 1u << (18 + (r / 3) * 3 + c / 3);
        if (ch == '1') s ^= cellMask[n];
        n++;
    }
    for (limit = 0;; limit++)
        if (search(s, 0)) break;
    printf("%d\n", limit);
    return 0;
}
