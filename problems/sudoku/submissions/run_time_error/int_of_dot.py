# sudoku, run-time error: reads every character as an int, assuming '0' marks an empty cell;
# int('.') raises ValueError and nothing catches it.
import sys


def main():
    for line in sys.stdin:
        line = line.strip()
        if line == "end":
            break
        digits = [int(ch) for ch in line]
        print("".join(str(d) for d in digits))


main()
