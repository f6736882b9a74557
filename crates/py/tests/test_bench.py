"""``nestris.ai.bench``: the AI's benchmark from Python, in the command's shapes, and
``Ai.plan_blind``, the plan of the community's reaction model before the preview is seen."""

from __future__ import annotations

import random

import pytest

import nestris

# Short games: the figures of a whole game are the command's business; here the options,
# the seeds and the report's shape.
SHORT = {"max_frames": 900}

TIMING = ("seconds", "games_per_second")


def without_timing(report: dict) -> dict:
    return {k: v for k, v in report.items() if k not in TIMING}


def test_the_betatetris_seeds_are_pythons_own_sample() -> None:
    # BetaTetris's evaluate.py: random.seed(0), then random.sample(range(512, 2**24), n).
    rng = random.Random(0)
    expected = rng.sample(range(512, 2**24), 3)
    report = nestris.ai.bench(3, format="betatetris", threads=1, **SHORT)
    assert [g["gym_seed"] for g in report["results"]] == expected
    assert expected[0] == 0xD82E07


def test_the_games_do_not_depend_on_the_threads() -> None:
    one = nestris.ai.bench(3, format="betatetris", threads=1, **SHORT)
    two = nestris.ai.bench(3, format="betatetris", threads=2, **SHORT)
    assert without_timing(one)["results"] == without_timing(two)["results"]
    assert one["table"] == two["table"]
    assert all(g["frames"] <= SHORT["max_frames"] for g in one["results"])
    assert one["table"]["games"] == 3
    # Each game's clears by size (singles, doubles, triples, tetrises) make its lines.
    for g in one["results"]:
        singles, doubles, triples, tetrises = g["clears"]
        assert singles + 2 * doubles + 3 * triples + 4 * tetrises == g["lines"]
        assert tetrises == g["tetrises"]


def test_the_format_sets_the_defaults() -> None:
    beta = nestris.ai.bench(1, format="betatetris", threads=1, **SHORT)["config"]
    assert beta["format"] == "betatetris"
    assert beta["adjust_after"] == 18
    assert beta["search"]["lookahead"] == "screen"
    assert beta["search"]["blind_depth"] == 3
    assert beta["search"]["blind_depth_29"] == 5
    assert beta["search"]["blind_beam_29"] == 4
    assert beta["search"]["depth"] == 5
    cart = nestris.ai.bench(1, threads=1, **SHORT)["config"]
    assert cart["format"] == "cartridge"
    assert cart["adjust_after"] is None
    assert cart["search"]["lookahead"] == "generator"
    assert (cart["search"]["blind_depth_29"], cart["search"]["depth"]) == (3, 3)
    assert cart["search"]["blind_beam_29"] == 0
    assert cart["start_level"] == 18


def test_the_options_reach_the_games() -> None:
    report = nestris.ai.bench(
        1,
        format="betatetris",
        adjust=0,
        lookahead="generator",
        blind_depth=2,
        blind_depth_29=3,
        depth=3,
        blind_beam_29=2,
        taps="X.X..",
        start_level=19,
        crash_dodge=False,
        threads=1,
        **SHORT,
    )
    config = report["config"]
    assert config["adjust_after"] is None
    assert config["search"]["lookahead"] == "generator"
    assert config["search"]["blind_depth"] == 2
    assert config["search"]["blind_depth_29"] == 3
    assert config["search"]["depth"] == 3
    assert config["search"]["blind_beam_29"] == 2
    assert config["search"]["crash_dodge"] is False
    assert config["start_level"] == 19
    assert report["results"][0]["max_level"] >= 19
    # The weights: a named set, a dict, the format's by default.
    default = nestris.ai.bench(1, format="betatetris", threads=1, **SHORT)
    named = nestris.ai.bench(1, format="betatetris", weights="betatetris", threads=1, **SHORT)
    assert without_timing(default) == without_timing(named)
    other = nestris.ai.bench(1, format="betatetris", weights="default", threads=1, **SHORT)
    assert other["config"]["weights"] != default["config"]["weights"]


def test_the_reaction_model_changes_the_games() -> None:
    # Seeing the preview at once and 300 ms late are different players: from level 29,
    # where a piece lands before its preview is seen, two games of 1,500 frames differ.
    # (At level 18 the adjustment, six rows into the fall, often re-plans every piece as
    # the player who saw the preview at once placed it: six games of 8,000 frames the same.)
    def games(adjust: int | None) -> list[tuple[int, int]]:
        report = nestris.ai.bench(
            2, format="betatetris", start_level=29, adjust=adjust, threads=2, max_frames=1500
        )
        return [(g["pieces"], g["uncapped_score"]) for g in report["results"]]

    assert games(None) != games(0)
    assert games(None) == games(18)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"games": 0}, "games must be from 1"),
        ({"games": 1001}, "games must be from 1 to 1000"),
        ({"format": "gym"}, "format must be"),
        ({"format": "betatetris", "start_level": 17}, "level 18 or later"),
        ({"blind_depth": 6}, "blind_depth must be from 2 to 5"),
        ({"blind_depth_29": 1}, "blind_depth_29 must be from 2 to 5"),
        ({"depth": 2}, "depth must be from 3 to 5"),
        ({"blind_beam_29": 9}, "blind_beam_29 must be from 0 to 8"),
        ({"tap_hz": 31}, "tap_hz must be 30, 20, 15 or 12"),
        ({"tap_hz": 30, "taps": "X."}, "not both"),
        ({"threads": 0}, "threads must be from 1 to 1024"),
        ({"lookahead": "oracle"}, "lookahead"),
        ({"crash_mode": "never"}, "crash_mode must be"),
        ({"max_frames": 0}, "max_frames must be from 1"),
        ({"adjust": 256}, "adjust must be from 0 to 255"),
        ({"weights": "best"}, "built-in sets"),
    ],
)
def test_bad_options_are_one_clear_error(kwargs: dict, message: str) -> None:
    with pytest.raises(nestris.InvalidArgument, match=message):
        nestris.ai.bench(**{"games": 1, "threads": 1, **kwargs})


def test_a_blind_plan_lands_the_piece() -> None:
    ai = nestris.Ai(lookahead="screen")
    differ = 0
    for seed in range(1, 9):
        game = nestris.Game(level=18, seed=seed)
        blind = ai.plan_blind(game)
        seeing = ai.plan(game.clone())
        assert blind, "a piece under control has a plan"
        differ += blind != seeing
        game.run(blind)
        assert game.play_state == 2, f"seed {seed}: the blind plan did not land the piece"
    # The preview changes some choices (else the two plans would be one).
    assert differ > 0


def test_no_piece_no_blind_plan() -> None:
    game = nestris.Game(level=18, seed=1)
    game.run([0] * 40)  # the first piece's fall, then the entry delay
    while game.play_state == 1:
        game.step(0)
    assert nestris.Ai().plan_blind(game) == []


def test_progress_is_called_as_games_end() -> None:
    seen: list[tuple[int, int]] = []
    report = nestris.ai.bench(
        4, format="betatetris", threads=2, progress=lambda d, t: seen.append((d, t)), **SHORT
    )
    assert report["table"]["games"] == 4
    assert seen[-1] == (4, 4)
    done = [d for d, _ in seen]
    assert done == sorted(done) and len(set(done)) == len(done)
    assert all(t == 4 for _, t in seen)


def test_progress_true_writes_a_line(capsys: pytest.CaptureFixture[str]) -> None:
    nestris.ai.bench(2, format="betatetris", threads=1, progress=True, **SHORT)
    assert capsys.readouterr().err.endswith("2/2 games\n")


def test_an_exception_from_progress_stops_the_run() -> None:
    calls = []

    def stop(done: int, total: int) -> None:
        calls.append(done)
        if done >= 1:
            raise RuntimeError("enough")

    # Long games: the run must stop after the first, not play all 50.
    with pytest.raises(RuntimeError, match="enough"):
        nestris.ai.bench(50, format="betatetris", threads=1, max_frames=20_000, progress=stop)
    assert max(calls) < 5


def test_progress_must_be_callable() -> None:
    with pytest.raises(TypeError, match="progress must be a callable"):
        nestris.ai.bench(1, threads=1, progress=3, **SHORT)


def test_ctrl_c_stops_the_run() -> None:
    # Python's signal handler runs on the main thread while the games run on others; a
    # SIGINT from a timer thread is raised as KeyboardInterrupt by the watching loop.
    import os
    import signal
    import threading
    import time

    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        # About three minutes of games on two cores (the Rust test of play_from_until
        # checks that a game in play gives up at its next piece).
        nestris.ai.bench(200, format="betatetris", threads=2)
    timer.join()
    assert time.monotonic() - start < 3


def test_a_checkpoint_keeps_the_games_of_a_stopped_run(tmp_path) -> None:
    path = tmp_path / "run.jsonl"
    short = {"format": "betatetris", "threads": 1, **SHORT}
    whole = nestris.ai.bench(3, **short)

    def stop(done: int, total: int) -> None:
        if done >= 2:
            raise RuntimeError("stopped")

    # Stopped after two games: those are in the file, and a call given it again plays
    # only the third; the report is that of one run of the three.
    with pytest.raises(RuntimeError, match="stopped"):
        nestris.ai.bench(3, checkpoint=path, progress=stop, **short)
    kept = path.read_text().splitlines()
    assert len(kept) >= 3  # the settings, then a line a game
    resumed = nestris.ai.bench(3, checkpoint=str(path), **short)
    assert resumed["results"] == whole["results"]
    # The report says how many of its games it read (its time is the others').
    assert (resumed["resumed"], whole["resumed"]) == (len(kept) - 1, 0)
    assert len(path.read_text().splitlines()) == 4
    # Other settings do not read the file, and say which differ.
    with pytest.raises(nestris.InvalidArgument, match="differs in: limits"):
        nestris.ai.bench(3, checkpoint=path, **{**short, "max_frames": 1000})
    with pytest.raises(OSError):
        nestris.ai.bench(1, checkpoint=tmp_path / "no" / "such" / "file", **short)
