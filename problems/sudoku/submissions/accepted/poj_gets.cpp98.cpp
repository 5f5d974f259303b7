// POJ 3074 as a contestant of its day wrote it for POJ's C++ (g++ in C++98 mode): the whole
// standard library through <bits/stdc++.h>, one puzzle per line read with gets(), global
// arrays. The empty cells are kept in a list; at depth k the one with the fewest candidates
// among those left is swapped to place k and tried digit by digit.
// gets() is gone from C++14 on: under cpp14, cpp17 or cpp20 this file does not compile.
#include <bits/stdc++.h>
using namespace std;

char line[128];
int used[3][9], bitcnt[1 << 9], digit[1 << 9];
int ex[81], ey[81], total;

inline int part(int x, int y) { return x / 3 * 3 + y / 3; }

inline int cand(int x, int y) {
    return ~(used[0][x] | used[1][y] | used[2][part(x, y)]) & 511;
}

inline void mark(int x, int y, int b) {
    used[0][x] ^= b;
    used[1][y] ^= b;
    used[2][part(x, y)] ^= b;
}

bool search(int k) {
    if (k == total) return true;
    int pick = k, fewest = 10;
    for (int t = k; t < total && fewest > 1; t++) {
        int n = bitcnt[cand(ex[t], ey[t])];
        if (n < fewest) fewest = n, pick = t;
    }
    if (fewest == 0) return false;
    swap(ex[k], ex[pick]);
    swap(ey[k], ey[pick]);
    int x = ex[k], y = ey[k];
    for (int c = cand(x, y); c; ) {
        int b = c & -c;
        c ^= b;
        mark(x, y, b);
        line[x * 9 + y] = char('1' + digit[b]);
        if (search(k + 1)) return true;
        mark(x, y, b);
    }
    line[x * 9 + y] = '.';
    return false;
}

int main() {
    for (int i = 1; i < (1 << 9); i++) bitcnt[i] = bitcnt[i & (i - 1)] + 1;
    for (int i = 0; i < 9; i++) digit[1 << i] = i;
    while (gets(line)) {
        if (line[0] == 'e') break;
        memset(used, 0, sizeof(used));
        total = 0;
        for (int p = 0; p < 81; p++) {
            int x = p / 9, y = p % 9;
            if (line[p] == '.') ex[total] = x, ey[total] = y, total++;
            else mark(x, y, 1 << (line[p] - '1'));
        }
        search(0);
        puts(line);
    }
    return 0;
}
