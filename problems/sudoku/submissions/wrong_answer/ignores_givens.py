# sudoku, wrong answer: builds one valid solved grid by the classic shifting pattern and prints
# it for every puzzle, without looking at the givens. Every line is a valid grid, but not a
# solution of the puzzle asked.
import sys


def main():
    base = [(r * 3 + r // 3) % 9 for r in range(9)]
    grid = "".join(str((base[r] + c) % 9 + 1) for r in range(9) for c in range(9))
    out = []
    for line in sys.stdin:
        line = line.strip()
        if line == "end":
            break
        if line:
            out.append(grid)
    sys.stdout.write("\n".join(out) + "\n")


main()
