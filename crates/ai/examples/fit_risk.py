"""Fits a risk table of `nestris_ai::risk` to the lines `risk_data` writes.

    python3 crates/ai/examples/fit_risk.py DATA [DATA ...] -o crates/ai/weights/risk29.txt
    python3 crates/ai/examples/fit_risk.py DATA [DATA ...] --first-level 39 -o crates/ai/weights/risk39.txt

Each position at levels 29-38 (or the ten levels from `--first-level`) is one sample: its
field's active table entries, and 1 if its game topped out within the next 40 pieces (0
otherwise). The fit is least squares with a ridge of 10, the level given as ten more
entries so that the field's entries do not take what the level explains; the table keeps
the field's entries only (a search compares fields at one level). A fifth of the games
(those whose index is a multiple of 5) are held out first to report how well the field's
entries rank the positions (AUC), against the highest column, the holes and the rows with
holes alone. Needs numpy.
"""

import argparse

import numpy as np

FEATURES = 615  # nestris_ai::risk::FEATURES
LEVELS = 10  # the levels from --first-level (29-38 by default)
# Where the highest column's, the holes' and the rows with holes' blocks start and end.
SIMPLE = (491, 491 + 21 + 16 + 11)
HORIZON = 40
RIDGE = 10.0


def load(paths, first=29):
    rows = []
    for path in paths:
        with open(path) as f:
            for line in f:
                rows.append([int(t) for t in line.split()])
    a = np.array(rows, dtype=np.int64)
    game, k, n, level, top = a[:, 0], a[:, 1], a[:, 2], a[:, 3], a[:, 4]
    keep = (level >= first) & (level < first + LEVELS)
    active = np.concatenate([a[:, 5:], (FEATURES + level - first)[:, None]], axis=1)
    y = ((top == 1) & (n - k <= HORIZON)).astype(np.float64)
    return game[keep], active[keep], y[keep]


def fit(active, y, columns):
    size = FEATURES + LEVELS
    a = np.zeros((size, size))
    b = np.zeros(size)
    for s in range(0, len(y), 20000):
        x = np.zeros((min(20000, len(y) - s), size))
        x[np.arange(x.shape[0])[:, None], active[s : s + 20000]] = 1.0
        x[:, ~columns] = 0.0
        a += x.T @ x
        b += x.T @ y[s : s + 20000]
    w = np.linalg.solve(a + RIDGE * np.eye(size), b)
    w[~columns] = 0.0
    return w


def auc(score, truth):
    order = np.argsort(score, kind="stable")
    rank = np.empty(len(score))
    rank[order] = np.arange(len(score))
    pos = truth == 1
    return (rank[pos].mean() - (pos.sum() - 1) / 2) / (~pos).sum()


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("data", nargs="+")
    p.add_argument("-o", "--out", required=True)
    p.add_argument("--first-level", type=int, default=29)
    args = p.parse_args()
    first = args.first_level
    game, active, y = load(args.data, first)
    every = np.ones(FEATURES + LEVELS, bool)
    simple = np.zeros(FEATURES + LEVELS, bool)
    simple[SIMPLE[0] : SIMPLE[1]] = True
    simple[FEATURES - 1 :] = True
    test = game % 5 == 0
    print(f"{len(y)} positions at levels {first}-{first + LEVELS - 1}, {y.mean():.4f} of them within {HORIZON} pieces of a top-out")
    for name, columns in (("highest column, holes, rows with holes", simple), ("every pattern", every)):
        w = fit(active[~test], y[~test], columns)
        print(f"held-out AUC, {name}: {auc(w[active[test]].sum(1), y[test]):.4f}")
    w = fit(active, y, every)[:FEATURES]
    with open(args.out, "w") as f:
        f.write(
            f"# nestris_ai::risk's table: {FEATURES} entries, fitted by crates/ai/examples/fit_risk.py\n"
            f"# to {len(y)} positions at levels {first}-{first + LEVELS - 1} ({len(set(game.tolist()))} games of risk_data).\n"
        )
        for s in range(0, FEATURES, 15):
            f.write(" ".join(f"{v:.5f}" for v in w[s : s + 15]) + "\n")


if __name__ == "__main__":
    main()
