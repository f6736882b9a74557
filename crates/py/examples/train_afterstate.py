"""Learn to play NES Tetris from nothing on the placement environment, on the CPU.

An afterstate value network, the classic way to learn Tetris with TD: for every
placement the falling piece has (the environment's action mask), the board after it is
computed here in numpy (piece locked, full rows removed) and described by a few
numbers (lines cleared, heights, holes, bumpiness, row and column transitions, wells,
the next piece). A small PyTorch MLP V estimates the future of such an afterstate; the
agent plays the placement with the highest

    lines cleared + gamma * V(afterstate)

(epsilon-greedy while training, decaying to greedy), and V(the afterstate it chose)
learns by TD(0) towards

    lines cleared by the next piece's greedy placement + alive bonus
        + gamma * V(that placement's afterstate)         (or 0 once the game is over)

from a replay buffer of (afterstate, reward, next afterstate), the target recomputed
with the current V at each update. The small reward per placement (the alive bonus) is
what a beginner can learn from: random play at level 18 clears almost no lines.

Games run in `nestris.VecPlacementEnv` (Rust, both cores); the learning curve (lines
per game vs placements, greedy evaluations, and a random policy measured on the same
evaluation seeds) is written as PNG, CSV and JSON.

    python crates/py/examples/train_afterstate.py --minutes 30 --threads 2 --out runs/l18
    python crates/py/examples/train_afterstate.py --smoke     # the CI check, ~1 minute

`--smoke` checks the numpy afterstates against the engine, trains for a fixed number of
placements and exits non-zero unless every loss was finite and the greedy policy's
mean lines beat the random policy's by a margin.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import sys
import time

import numpy as np
import torch
from torch import nn

import nestris

# Cell offsets (row, column) from the pivot for each orientation id, and each
# orientation's piece type (T J Z O S L I), as the engine has them; rows grow downwards,
# like the board.
ORIENTATION_CELLS = np.array(nestris.ORIENTATION_CELLS, dtype=np.int64)
ORIENTATION_TYPE = np.array(nestris.ORIENTATION_TYPE, dtype=np.int64)
ROWS, COLS = 20, 10
NUM_FEATURES = 10 + 7
SMOKE_MARGIN = 5.0  # lines per game the smoke's greedy policy must beat random by
NEXT_PIECE = nestris.FEATURE_NAMES.index("next_piece")


def afterstates(boards, placements, num):
    """Every available placement of every game, played out on a copy of its board.

    boards (n, 20, 10) of the locked cells, placements (n, 200, 3) of (orientation, x,
    y), num (n,) available placements. Returns (game, action, boards after the lock
    with full rows removed (m, 20, 10) bool, lines cleared (m,)).
    """
    game, action = np.nonzero(np.arange(placements.shape[1]) < num[:, None])
    o, x, y = (placements[game, action, k].astype(np.int64) for k in range(3))
    rows = y[:, None] + ORIENTATION_CELLS[o, :, 0]
    cols = x[:, None] + ORIENTATION_CELLS[o, :, 1]
    after = boards[game] != 0
    # A piece locked partly above the field tops out; its visible cells still count.
    on = rows >= 0
    after[np.nonzero(on)[0], rows[on], cols[on]] = True
    full = after.all(axis=2)
    lines = full.sum(axis=1)
    # Full rows to the top (stable, so the others keep their order), then emptied.
    order = np.argsort(~full, axis=1, kind="stable")
    after = np.take_along_axis(after, order[:, :, None], axis=1)
    after[np.arange(ROWS)[None, :] < lines[:, None]] = False
    return game, action, after, lines


def board_features(after, lines, next_type):
    """The numbers V sees for each afterstate, scaled to about 0..1."""
    filled = after.any(axis=1)
    heights = np.where(filled, ROWS - after.argmax(axis=1), 0)
    covered = np.maximum.accumulate(after, axis=1)
    holes = (covered & ~after).sum(axis=(1, 2))
    hole_cols = (covered & ~after).any(axis=1).sum(axis=1)
    bump = np.abs(np.diff(heights, axis=1)).sum(axis=1)
    # Transitions count the walls as filled, as Dellacherie's features do.
    walled = np.pad(after, ((0, 0), (0, 0), (1, 1)), constant_values=True)
    row_trans = (walled[:, :, 1:] != walled[:, :, :-1]).sum(axis=(1, 2))
    floored = np.pad(after, ((0, 0), (0, 1), (0, 0)), constant_values=True)
    col_trans = (floored[:, 1:] != floored[:, :-1]).sum(axis=(1, 2))
    padded = np.pad(heights, ((0, 0), (1, 1)), constant_values=ROWS)
    well = np.minimum(padded[:, :-2], padded[:, 2:]) - heights
    wells = np.clip(well, 0, None).sum(axis=1)
    feats = np.concatenate(
        [
            np.stack(
                [
                    lines / 4,
                    heights.sum(axis=1) / 100,
                    heights[:, 4:6].max(axis=1) / ROWS,
                    holes / 20,
                    hole_cols / COLS,
                    bump / 40,
                    heights.max(axis=1) / ROWS,
                    row_trans / 60,
                    col_trans / 60,
                    wells / 30,
                ],
                axis=1,
            ),
            np.eye(7)[next_type],
        ],
        axis=1,
    )
    return feats.astype(np.float32)


class Agent:
    """V over afterstate features, and the choice of placements with it."""

    def __init__(self, gamma):
        self.net = nn.Sequential(
            nn.Linear(NUM_FEATURES, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1)
        )
        self.gamma = gamma

    def evaluate(self, obs, num):
        """For every game: its greedy placement; and for every placement of every game
        (rows of `index`, -1 where none) its features and lines cleared."""
        game, action, after, lines = afterstates(obs["board"], obs["placements"], num)
        next_type = ORIENTATION_TYPE[obs["features"][game, NEXT_PIECE]]
        feats = board_features(after, lines, next_type)
        with torch.no_grad():
            v = self.net(torch.from_numpy(feats)).squeeze(1).numpy()
        q = np.full(obs["placements"].shape[:2], -np.inf, dtype=np.float32)
        q[game, action] = lines + self.gamma * v
        index = np.full(q.shape, -1)
        index[game, action] = np.arange(len(game))
        return q.argmax(axis=1), feats, lines, index


def check_afterstates(games=20, seed=0):
    """The numpy afterstates equal the engine's: random placements at level 9 (rows do
    get cleared), each predicted board and line count compared with the step's."""
    rng = np.random.default_rng(seed)
    env = nestris.PlacementEnv(start_level=9, reward="lines")
    compared = cleared = 0
    for s in range(seed, seed + games):
        obs, info = env.reset(s)
        while info["num_placements"] > 0:
            n = info["num_placements"]
            # Half random, half the lowest placement, so that rows fill and clear.
            a = (
                int(rng.integers(n))
                if rng.random() < 0.5
                else int(obs["placements"][:n, 2].argmax())
            )
            _, _, after, lines = afterstates(
                obs["board"][None], obs["placements"][None], np.array([n])
            )
            obs, _, terminated, info = env.step(a)
            if terminated:
                break
            if not (after[a] == (obs["board"] != 0)).all() or lines[a] != info["lines_cleared"]:
                raise AssertionError(f"afterstate of placement {a} differs (seed {s})")
            compared += 1
            cleared += int(lines[a])
    if compared < 200 or cleared < 10:
        raise AssertionError(f"too few placements compared ({compared}) or lines ({cleared})")
    print(f"afterstates equal the engine's: {compared} placements, {cleared} lines cleared")


def play_greedy(agent, games, level, seed, max_steps, threads, policy="greedy"):
    """Lines of `games` games from seeds seed.. with the greedy (or a random) policy."""
    env = nestris.VecPlacementEnv(
        games, start_level=level, reward="lines", max_episode_steps=max_steps, num_threads=threads
    )
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    done = np.zeros(games, dtype=bool)
    lines = np.zeros(games, dtype=np.int64)
    while not done.all():
        num = info["num_placements"]
        if policy == "greedy":
            actions = agent.evaluate(obs, num)[0]
        else:
            actions = (rng.random(games) * num).astype(np.int64)
        obs, _, term, trunc, info = env.step(actions)
        ended = (term | trunc) & ~done
        lines[ended] = info["lines"][ended]
        # A finished game is reset by the next step; its later games are not counted.
        done |= term | trunc
    return lines


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--level", type=int, default=18)
    p.add_argument("--envs", type=int, default=32, help="games played at once")
    p.add_argument("--minutes", type=float, default=30.0, help="wall-clock limit of training")
    p.add_argument("--steps", type=int, default=None, help="limit on placements (all games)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--alive-bonus", type=float, default=0.1, help="reward per placement")
    p.add_argument("--death", type=float, default=0.0, help="value of a game over")
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--updates", type=int, default=4, help="gradient steps per env step")
    p.add_argument("--buffer", type=int, default=50_000)
    p.add_argument(
        "--epsilon",
        type=float,
        default=0.05,
        help="exploration, decays to 0 over half of --steps (or 1M placements)",
    )
    p.add_argument("--max-episode-steps", type=int, default=2000, help="placements per game")
    p.add_argument(
        "--first-eval",
        type=int,
        default=10_000,
        help="placements before the first greedy "
        "evaluation; the next ones come each time the placements double",
    )
    p.add_argument("--eval-games", type=int, default=32)
    p.add_argument("--out", default="train-out")
    p.add_argument("--smoke", action="store_true", help="CI check: short, and asserts learning")
    args = p.parse_args(argv)
    if args.smoke:
        args.steps = args.steps or 30_000
        args.first_eval = args.steps
        args.eval_games = 16

    torch.manual_seed(args.seed)
    torch.set_num_threads(1)  # the net is tiny: the second core steps the games
    rng = np.random.default_rng(args.seed)
    os.makedirs(args.out, exist_ok=True)
    if args.smoke:
        check_afterstates()
    # Evaluation games use their own seeds, far from the training games'.
    eval_seed = 1_000_000 + args.seed
    cap = args.max_episode_steps

    random_lines = play_greedy(
        None, args.eval_games, args.level, eval_seed, cap, args.threads, "random"
    )
    print(f"random policy: {random_lines.mean():.2f} lines per game ({args.eval_games} games)")

    agent = Agent(args.gamma)
    opt = torch.optim.Adam(agent.net.parameters(), lr=args.lr)
    # Replay of (afterstate, reward, next greedy afterstate, game over): targets are
    # recomputed with the current V at every update, so values propagate through it.
    buf_x = np.zeros((args.buffer, NUM_FEATURES), dtype=np.float32)
    buf_r = np.zeros(args.buffer, dtype=np.float32)
    buf_next = np.zeros((args.buffer, NUM_FEATURES), dtype=np.float32)
    buf_over = np.zeros(args.buffer, dtype=np.float32)
    buf_n = 0  # samples ever written (the buffer is a ring)

    n = args.envs
    env = nestris.VecPlacementEnv(
        n, start_level=args.level, reward="lines", max_episode_steps=cap, num_threads=args.threads
    )
    obs, info = env.reset(seed=args.seed)
    prev_x = np.zeros((n, NUM_FEATURES), dtype=np.float32)
    prev_valid = np.zeros(n, dtype=bool)
    resetting = np.zeros(n, dtype=bool)
    steps, updates, losses = 0, 0, []
    episodes = []  # (placements so far, seconds, lines of a finished training game)
    evals = []  # (placements so far, seconds, mean greedy lines, std)
    start = time.monotonic()
    next_eval = args.first_eval
    limit_s = args.minutes * 60
    total = args.steps or math.inf

    while steps < total and time.monotonic() - start < limit_s:
        num = info["num_placements"].copy()
        greedy, feats, lines, index = agent.evaluate(obs, num)
        # The afterstates chosen last step are followed by this piece's greedy
        # placement, or by the end of the game (no placements).
        k = np.nonzero(prev_valid)[0]
        slots = (buf_n + np.arange(len(k))) % args.buffer
        best = index[k, greedy[k]]
        over = num[k] == 0
        buf_x[slots] = prev_x[k]
        buf_r[slots] = np.where(over, args.death, lines[best] + args.alive_bonus)
        buf_next[slots] = feats[best]
        buf_over[slots] = over
        buf_n += len(k)
        eps = args.epsilon * max(0.0, 1 - steps / (0.5 * total if args.steps else 1e6))
        explore = rng.random(n) < eps
        actions = np.where(explore, (rng.random(n) * num).astype(np.int64), greedy)
        actions = np.where(num > 0, actions, 0)
        rows = index[np.arange(n), actions]
        # Games being reset ignore this step's action: nothing of theirs to learn from.
        prev_valid = (num > 0) & ~resetting
        prev_x[prev_valid] = feats[rows[prev_valid]]
        obs, _, term, trunc, info = env.step(actions)
        resetting = term | trunc
        steps += int(prev_valid.sum())
        for i in np.nonzero(resetting)[0]:
            episodes.append((steps, time.monotonic() - start, int(info["lines"][i])))

        for _ in range(args.updates if buf_n >= args.batch else 0):
            j = rng.integers(0, min(buf_n, args.buffer), size=args.batch)
            with torch.no_grad():
                v_next = agent.net(torch.from_numpy(buf_next[j])).squeeze(1)
            target = (
                torch.from_numpy(buf_r[j])
                + args.gamma * (1 - torch.from_numpy(buf_over[j])) * v_next
            )
            pred = agent.net(torch.from_numpy(buf_x[j])).squeeze(1)
            loss = nn.functional.mse_loss(pred, target)
            opt.zero_grad()
            loss.backward()
            opt.step()
            updates += 1
            losses.append(loss.item())
            if not math.isfinite(losses[-1]):
                print(f"loss is {losses[-1]} at update {updates}")
                return 1

        if steps >= next_eval:
            next_eval *= 2
            got = play_greedy(agent, args.eval_games, args.level, eval_seed, cap, args.threads)
            evals.append((steps, time.monotonic() - start, float(got.mean()), float(got.std())))
            recent = [e[2] for e in episodes[-100:]]
            print(
                f"{steps:>9} placements {evals[-1][1]:7.0f} s  train {np.mean(recent or [0]):7.1f}"
                f" lines/game ({len(episodes)} games)  greedy {got.mean():7.1f}"
                f"  loss {np.mean(losses[-200:]):.4f}",
                flush=True,
            )

    elapsed = time.monotonic() - start
    final = play_greedy(agent, args.eval_games, args.level, eval_seed, cap, args.threads)
    evals.append((steps, time.monotonic() - start, float(final.mean()), float(final.std())))
    result = {
        "level": args.level,
        "placements": steps,
        "updates": updates,
        "train_seconds": round(elapsed, 1),
        "games": len(episodes),
        "eval_games": args.eval_games,
        "max_episode_steps": cap,
        "random_mean_lines": float(random_lines.mean()),
        "final_mean_lines": float(final.mean()),
        "final_lines": final.tolist(),
        "final_loss": float(np.mean(losses[-200:])) if losses else None,
        "args": vars(args),
        "evals": evals,
    }
    torch.save(agent.net.state_dict(), os.path.join(args.out, "value_net.pt"))
    with open(os.path.join(args.out, "curve.json"), "w") as f:
        json.dump(result, f, indent=1)
    with open(os.path.join(args.out, "episodes.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["placements", "seconds", "lines"])
        w.writerows(episodes)
    print(
        f"done: {steps} placements, {updates} updates in {elapsed:.0f} s; greedy"
        f" {final.mean():.1f} lines per game, random {random_lines.mean():.2f}"
    )
    if not args.smoke:
        plot(args, episodes, evals, float(random_lines.mean()))
        return 0
    ok = bool(losses) and all(math.isfinite(v) for v in losses)
    # Seeds 0-3 reached 34-165 lines in 30,000 placements (random: about 0.05): a
    # margin of 5 lines holds even if float rounding on another CPU changes the run.
    margin = random_lines.mean() + SMOKE_MARGIN
    if not ok:
        print("FAIL: no finite loss")
    elif final.mean() < margin:
        print(
            f"FAIL: greedy {final.mean():.2f} lines per game"
            f" < random + {SMOKE_MARGIN} = {margin:.2f}"
        )
    else:
        print(
            f"ok: losses finite, greedy {final.mean():.2f} lines per game"
            f" >= random + {SMOKE_MARGIN} = {margin:.2f}"
        )
        return 0
    return 1


def plot(args, episodes, evals, random_mean):
    """The learning curve as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=100)
    if episodes:
        e = np.array(episodes, dtype=float)
        w = max(1, min(100, len(e) // 20))
        smooth = np.convolve(e[:, 2], np.ones(w) / w, mode="valid")
        ax.plot(
            e[w - 1 :, 0], smooth, lw=1, color="tab:blue", label=f"training games (mean of {w})"
        )
    ev = np.array(evals, dtype=float)
    ax.errorbar(
        ev[:, 0],
        ev[:, 2],
        yerr=ev[:, 3],
        fmt="o-",
        color="tab:red",
        ms=4,
        capsize=2,
        label=f"greedy, {args.eval_games} games (± std)",
    )
    for x, seconds, y in ev[:, :3]:
        ax.annotate(
            f"{seconds / 60:.1f} min",
            (x, y),
            xytext=(0, -14),
            textcoords="offset points",
            ha="center",
            fontsize=7,
            color="tab:red",
        )
    # 4 cells a placement, 10 a line: the cap on placements caps the lines.
    most = args.max_episode_steps * 4 // COLS
    ax.axhline(most, color="black", lw=0.8, ls=":", label=f"most possible in the cap ({most})")
    ax.axhline(random_mean, color="gray", ls="--", label=f"random policy ({random_mean:.2f})")
    # Log placements: learning is fastest in the first minutes.
    ax.set_xscale("log")
    ax.set_xlabel("placements played in training (log scale)")
    ax.set_ylabel(f"lines per game (level {args.level}, ≤ {args.max_episode_steps} placements)")
    ax.set_title("Afterstate TD value learning on nestris' placement env")
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(args.out, "curve.png"))


if __name__ == "__main__":
    sys.exit(main())
