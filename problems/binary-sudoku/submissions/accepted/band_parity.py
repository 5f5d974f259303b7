# binary-sudoku, accepted: a closed form per band instead of a search over cells.
#
# Within one band (three rows), let c be the columns whose flip count is odd and R the rows
# whose flip count must be odd (the rows that are odd now). A box's flip parity is the parity of
# c over its three columns, so the box rules only constrain c. The fewest flips in the band with
# column pattern c is max(|c|, |R|): every odd column and every odd row needs a flip, and that
# many are enough (pair the odd columns with the odd rows, stack the spare odd columns two by two
# in one row; with fewer odd columns than odd rows, a column takes two or three flips).
# So the answer is the minimum over c0 ^ c1 ^ c2 = (the odd columns) of the three band costs,
# with each c_b matching its band's odd boxes: 64 x 64 pairs.
import sys


def parity(x):
    return bin(x).count("1") & 1


def main():
    bits = [ch for ch in sys.stdin.read() if ch in "01"]
    grid = [[int(bits[r * 9 + c]) for c in range(9)] for r in range(9)]
    odd_cols = 0
    for c in range(9):
        if sum(grid[r][c] for r in range(9)) & 1:
            odd_cols |= 1 << c
    bands = []
    for b in range(3):
        rows = [grid[3 * b + i] for i in range(3)]
        odd_rows = sum(sum(row) & 1 for row in rows)
        boxes = 0
        for k in range(3):
            if sum(row[3 * k + j] for row in rows for j in range(3)) & 1:
                boxes |= 1 << k
        patterns = []
        for c in range(512):
            box_par = sum(parity((c >> (3 * k)) & 7) << k for k in range(3))
            if box_par == boxes:
                patterns.append((c, max(bin(c).count("1"), odd_rows)))
        bands.append((patterns, odd_rows))
    cost2 = {}
    for c, cost in bands[2][0]:
        cost2[c] = cost
    best = None
    for c0, k0 in bands[0][0]:
        for c1, k1 in bands[1][0]:
            c2 = odd_cols ^ c0 ^ c1
            k2 = cost2.get(c2)
            if k2 is None:
                continue
            total = k0 + k1 + k2
            if best is None or total < best:
                best = total
    print(best)


main()
