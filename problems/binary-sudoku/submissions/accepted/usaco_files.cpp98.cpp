/*
ID: sudojudge
PROG: bsudoku
LANG: C++
*/
// USACO 2011 November Gold "bsudoku" as its contestants wrote it for USACO's C++ (g++ in
// C++98 mode): the program header USACO asked for, the contest's own files bsudoku.in and
// bsudoku.out through fstreams, nothing on the console. Row by row, a DP over the parity of
// each column so far (9 bits) and of the three boxes of the current band (3 bits): each row
// becomes one of the 256 even-weight patterns, at the cost of the cells it changes.
#include <fstream>
#include <string>
#include <cstring>
using namespace std;

const int INF = 1000000;
int f[1 << 12], h[1 << 12], ones[1 << 9], boxpar[1 << 9];
int even[256], n_even;

int main() {
    ifstream fin("bsudoku.in");
    ofstream fout("bsudoku.out");
    int row[9];
    for (int i = 0; i < 9; i++) {
        string s;
        fin >> s;
        row[i] = 0;
        for (int j = 0; j < 9; j++)
            if (s[j] == '1') row[i] |= 1 << j;
    }
    for (int m = 0; m < (1 << 9); m++) {
        ones[m] = 0;
        for (int j = 0; j < 9; j++) ones[m] += (m >> j) & 1;
        boxpar[m] = 0;
        for (int k = 0; k < 3; k++)
            if (ones[(m >> (3 * k)) & 7] & 1) boxpar[m] |= 1 << k;
        if (ones[m] % 2 == 0) even[n_even++] = m;
    }
    for (int s = 0; s < (1 << 12); s++) f[s] = INF;
    f[0] = 0;
    for (int i = 0; i < 9; i++) {
        for (int s = 0; s < (1 << 12); s++) h[s] = INF;
        for (int s = 0; s < (1 << 12); s++) {
            if (f[s] == INF) continue;
            for (int k = 0; k < n_even; k++) {
                int p = even[k];
                int cols = (s & 511) ^ p, boxes = (s >> 9) ^ boxpar[p];
                if (i % 3 == 2 && boxes != 0) continue;
                int t = cols | (boxes << 9);
                int cost = f[s] + ones[p ^ row[i]];
                if (cost < h[t]) h[t] = cost;
            }
        }
        memcpy(f, h, sizeof f);
    }
    fout << f[0] << endl;
    return 0;
}
