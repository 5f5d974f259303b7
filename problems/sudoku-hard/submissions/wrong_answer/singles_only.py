# sudoku-hard, wrong answer: "logic only", no search. Fills naked singles (a cell with one
# candidate) and hidden singles (a digit with one place in a row, column or box) until none
# is left, then guesses the smallest candidate in every cell still empty. Enough for easy
# puzzles; hard ones come out as invalid grids.
import sys

UNITS = [[r * 9 + c for c in range(9)] for r in range(9)]
UNITS += [[r * 9 + c for r in range(9)] for c in range(9)]
UNITS += [[(b // 3 * 3 + k // 3) * 9 + b % 3 * 3 + k % 3 for k in range(9)] for b in range(9)]
PEERS = [set(x for u in UNITS if i in u for x in u) - {i} for i in range(81)]


def candidates(grid, i):
    return set(range(1, 10)) - {grid[p] for p in PEERS[i]}


def solve(grid):
    changed = True
    while changed:
        changed = False
        for i in range(81):
            if grid[i] == 0:
                cands = candidates(grid, i)
                if len(cands) == 1:
                    grid[i] = cands.pop()
                    changed = True
        for unit in UNITS:
            for d in range(1, 10):
                if any(grid[i] == d for i in unit):
                    continue
                places = [i for i in unit if grid[i] == 0 and d in candidates(grid, i)]
                if len(places) == 1:
                    grid[places[0]] = d
                    changed = True
    for i in range(81):
        if grid[i] == 0:
            grid[i] = min(candidates(grid, i), default=1)
    return grid


def main():
    out = []
    for line in sys.stdin:
        line = line.strip()
        if line == "end":
            break
        grid = [int(ch) if ch != "." else 0 for ch in line]
        out.append("".join(map(str, solve(grid))))
    print("\n".join(out))


main()
