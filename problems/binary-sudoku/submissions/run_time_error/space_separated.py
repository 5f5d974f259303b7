# binary-sudoku, run-time error: reads the grid as if the bits were separated by spaces, so each
# row is one token and grid[r][1] raises IndexError.
import sys


def main():
    grid = [list(map(int, sys.stdin.readline().split())) for _ in range(9)]
    odd = 0
    for r in range(9):
        odd += sum(grid[r][c] for c in range(9)) % 2
    print(odd)


main()
