# target-sudoku, time limit exceeded: correct but slow. Tries every digit in every empty cell in
# reading order, checking the row, column and box by scanning them, and scores every completion.
import sys


def main():
    vals = sys.stdin.read().split()
    grid = [int(v) for v in vals[:81]]
    weight = [6 + min(r, c, 8 - r, 8 - c) for r in range(9) for c in range(9)]
    empties = [i for i in range(81) if grid[i] == 0]

    def fits(i, d):
        r, c = divmod(i, 9)
        for k in range(9):
            if grid[r * 9 + k] == d or grid[k * 9 + c] == d:
                return False
        br, bc = r // 3 * 3, c // 3 * 3
        for a in range(3):
            for b in range(3):
                if grid[(br + a) * 9 + bc + b] == d:
                    return False
        return True

    for i in range(81):
        if grid[i]:
            d, grid[i] = grid[i], 0
            ok = fits(i, d)
            grid[i] = d
            if not ok:
                print(-1)
                return

    best = -1

    def dfs(k):
        nonlocal best
        if k == len(empties):
            best = max(best, sum(w * g for w, g in zip(weight, grid)))
            return
        i = empties[k]
        for d in range(1, 10):
            if fits(i, d):
                grid[i] = d
                dfs(k + 1)
                grid[i] = 0

    dfs(0)
    print(best)


main()
