// POJ 3074 as a contestant of its day wrote it for POJ's C++ (g++ in C++98 mode): the whole
// standard library through <bits/stdc++.h>, one puzzle per line read with gets(), global
// arrays, and a bitmask search that fills the empty cell with the fewest candidates first.
// gets() is gone from C++14 on: under cpp14, cpp17 or cpp20 this file does not compile.
#include <bits/stdc++.h>
using namespace std;

char s[128];
int row[9], col[9], blk[9], cnt[512], num[512];

int which(int i, int j) { return i / 3 * 3 + j / 3; }

void flip(int i, int j, int k) {
    row[i] ^= 1 << k;
    col[j] ^= 1 << k;
    blk[which(i, j)] ^= 1 << k;
}

bool dfs(int left) {
    if (left == 0) return true;
    int least = 10, x = 0, y = 0;
    for (int i = 0; i < 9; i++)
        for (int j = 0; j < 9; j++)
            if (s[i * 9 + j] == '.') {
                int t = cnt[row[i] & col[j] & blk[which(i, j)]];
                if (t < least) least = t, x = i, y = j;
            }
    for (int m = row[x] & col[y] & blk[which(x, y)]; m; m &= m - 1) {
        int k = num[m & -m];
        flip(x, y, k);
        s[x * 9 + y] = '1' + k;
        if (dfs(left - 1)) return true;
        flip(x, y, k);
        s[x * 9 + y] = '.';
    }
    return false;
}

int main() {
    for (int i = 1; i < 512; i++) cnt[i] = cnt[i >> 1] + (i & 1);
    for (int i = 0; i < 9; i++) num[1 << i] = i;
    while (gets(s) && strcmp(s, "end") != 0) {
        for (int i = 0; i < 9; i++) row[i] = col[i] = blk[i] = 511;
        int left = 0;
        for (int i = 0; i < 9; i++)
            for (int j = 0; j < 9; j++) {
                if (s[i * 9 + j] == '.') left++;
                else flip(i, j, s[i * 9 + j] - '1');
            }
        dfs(left);
        puts(s);
    }
    return 0;
}
