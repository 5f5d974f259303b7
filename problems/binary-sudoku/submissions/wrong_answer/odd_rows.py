# binary-sudoku, wrong answer: reasons that every odd row needs one flip and prints the number
# of odd rows, forgetting that columns and boxes may need more flips than that.
import sys


def main():
    rows = [line.strip() for line in sys.stdin if line.strip()]
    print(sum(row.count("1") % 2 for row in rows[:9]))


main()
