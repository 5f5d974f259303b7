// target-sudoku, accepted: depth-first search over completions on the empty cell with the fewest
// candidates, largest digit first, pruned by an admissible bound: the score so far plus, for
// every empty cell, its weight times its largest remaining candidate. Exact, since the bound
// never underestimates what a branch can still reach.
#include <cstdio>

namespace {

int weight[81], boxOf[81];
unsigned rowUsed[9], colUsed[9], boxUsed[9];
int grid[81];
int empties[81], nEmpty;
long long best = -1;

inline unsigned candidates(int i) { return ~(rowUsed[i / 9] | colUsed[i % 9] | boxUsed[boxOf[i]]) & 0x3FE; }

inline int highestBit(unsigned m) { return 31 - __builtin_clz(m); }

void dfs(int left, long long score) {
    if (left == 0) {
        if (score > best) best = score;
        return;
    }
    int bestIdx = -1, bestCount = 10;
    long long bound = score;
    for (int k = 0; k < left; k++) {
        int i = empties[k];
        unsigned m = candidates(i);
        if (!m) return;
        int n = __builtin_popcount(m);
        bound += (long long)weight[i] * highestBit(m);
        if (n < bestCount) {
            bestCount = n;
            bestIdx = k;
        }
    }
    if (bound <= best) return;
    int cell = empties[bestIdx];
    empties[bestIdx] = empties[left - 1];
    empties[left - 1] = cell;
    unsigned m = candidates(cell);
    int r = cell / 9, c = cell % 9, b = boxOf[cell];
    while (m) {
        int d = highestBit(m);
        unsigned bit = 1u << d;
        m ^= bit;
        rowUsed[r] |= bit;
        colUsed[c] |= bit;
        boxUsed[b] |= bit;
        dfs(left - 1, score + (long long)weight[cell] * d);
        rowUsed[r] ^= bit;
        colUsed[c] ^= bit;
        boxUsed[b] ^= bit;
    }
    empties[left - 1] = empties[bestIdx];
    empties[bestIdx] = cell;
}

}  // namespace

int main() {
    long long score = 0;
    bool clash = false;
    for (int i = 0; i < 81; i++) {
        int r = i / 9, c = i % 9;
        int ring = r < c ? r : c;
        if (8 - r < ring) ring = 8 - r;
        if (8 - c < ring) ring = 8 - c;
        weight[i] = 6 + ring;
        boxOf[i] = (r / 3) * 3 + c / 3;
        if (scanf("%d", &grid[i]) != 1) grid[i] = 0;
        int d = grid[i];
        if (d < 1 || d > 9) {
            empties[nEmpty++] = i;
            continue;
        }
        unsigned bit = 1u << d;
        if ((rowUsed[r] | colUsed[c] | boxUsed[boxOf[i]]) & bit) clash = true;
        rowUsed[r] |= bit;
        colUsed[c] |= bit;
        boxUsed[boxOf[i]] |= bit;
        score += (long long)weight[i] * d;
    }
    if (!clash) dfs(nEmpty, score);
    printf("%lld\n", best);
    return 0;
}
