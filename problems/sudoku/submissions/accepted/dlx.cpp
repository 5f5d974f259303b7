// sudoku and sudoku-hard (a symlink), accepted: Knuth's dancing links on the 324-column
// exact-cover matrix (cell, row-digit, column-digit, box-digit). The full matrix is built
// once; for each puzzle the givens' rows are selected, algorithm X (smallest column first)
// finds a cover, and everything is undone.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

const int COLS = 324, ROWS = 729, NODES = 1 + COLS + ROWS * 4;

int L[NODES], R[NODES], U[NODES], D[NODES], C[NODES], rowOf[NODES], sz[COLS + 1];
int firstNode[ROWS];

void cover(int c) {
    L[R[c]] = L[c];
    R[L[c]] = R[c];
    for (int i = D[c]; i != c; i = D[i])
        for (int j = R[i]; j != i; j = R[j]) {
            U[D[j]] = U[j];
            D[U[j]] = D[j];
            sz[C[j]]--;
        }
}

void uncover(int c) {
    for (int i = U[c]; i != c; i = U[i])
        for (int j = L[i]; j != i; j = L[j]) {
            sz[C[j]]++;
            U[D[j]] = j;
            D[U[j]] = j;
        }
    L[R[c]] = c;
    R[L[c]] = c;
}

void build() {
    for (int c = 0; c <= COLS; c++) {
        L[c] = c == 0 ? COLS : c - 1;
        R[c] = c == COLS ? 0 : c + 1;
        U[c] = D[c] = c;
        C[c] = c;
        sz[c] = 0;
    }
    int n = COLS + 1;
    for (int r = 0; r < ROWS; r++) {
        int cell = r / 9, d = r % 9, row = cell / 9, col = cell % 9, box = (row / 3) * 3 + col / 3;
        int cols[4] = {1 + cell, 1 + 81 + row * 9 + d, 1 + 162 + col * 9 + d, 1 + 243 + box * 9 + d};
        firstNode[r] = n;
        for (int k = 0; k < 4; k++) {
            int c = cols[k];
            C[n] = c;
            rowOf[n] = r;
            U[n] = U[c];
            D[n] = c;
            D[U[c]] = n;
            U[c] = n;
            sz[c]++;
            L[n] = k == 0 ? n + 3 : n - 1;
            R[n] = k == 3 ? n - 3 : n + 1;
            n++;
        }
    }
}

int chosen[81];
int depth;

bool search() {
    if (R[0] == 0) return true;
    int c = R[0];
    for (int j = R[c]; j != 0; j = R[j])
        if (sz[j] < sz[c]) {
            c = j;
            if (sz[c] <= 1) break;
        }
    if (sz[c] == 0) return false;
    cover(c);
    for (int r = D[c]; r != c; r = D[r]) {
        chosen[depth++] = r;
        for (int j = R[r]; j != r; j = R[j]) cover(C[j]);
        if (search()) return true;  // leaves the matrix covered; solve() undoes it
        for (int j = L[r]; j != r; j = L[j]) uncover(C[j]);
        depth--;
    }
    uncover(c);
    return false;
}

// Undo what search() left covered after a success, deepest choice first.
void unwindSolution(int from) {
    for (int k = depth - 1; k >= from; k--) {
        int r = chosen[k];
        for (int j = L[r]; j != r; j = L[j]) uncover(C[j]);
        uncover(C[r]);
    }
    depth = from;
}

}  // namespace

int main() {
    build();
    std::string out;
    char line[4096];
    while (fgets(line, sizeof line, stdin)) {
        size_t n = strlen(line);
        while (n && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' ')) line[--n] = 0;
        if (n == 0) continue;
        if (strcmp(line, "end") == 0) break;
        char grid[82];
        memset(grid, '0', 81);
        grid[81] = '\n';
        depth = 0;
        bool ok = true;
        // Select each given's row: cover its columns, as if algorithm X had chosen it.
        for (int i = 0; i < 81 && i < (int)n && ok; i++) {
            if (line[i] < '1' || line[i] > '9') continue;
            int node = firstNode[i * 9 + (line[i] - '1')];
            // A given clashing with an earlier one has a column already covered.
            for (int j = node, k = 0; k < 4; j = R[j], k++) {
                int c = C[j];
                if (L[R[c]] != c) ok = false;
            }
            if (!ok) break;
            cover(C[node]);
            for (int j = R[node]; j != node; j = R[j]) cover(C[j]);
            chosen[depth++] = node;
        }
        int givens = depth;
        if (ok && search()) {
            for (int k = 0; k < depth; k++) {
                int r = rowOf[chosen[k]];
                grid[r / 9] = (char)('1' + r % 9);
            }
        }
        unwindSolution(givens);
        unwindSolution(0);
        out.append(grid, 82);
    }
    fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}
