"""The community's formats and tap patterns from Python: ``format="betatetris"`` deals
TetrisGYM v5 seeds under BetaTetris's line caps, labelled as a variant; ``taps`` gives the
hands any tap pattern."""

from __future__ import annotations

import pickle

import gymnasium
import pytest

import nestris

PLACEMENT = "nestris/NES-Tetris-Placement-v0"


def pieces(game: nestris.Game, frames: int) -> list[int]:
    """The next piece after each of ``frames`` idle frames."""
    seen = []
    for _ in range(frames):
        game.step(0)
        seen.append(game.state.next_piece)
    return seen


def test_betatetris_games_are_labelled_and_deal_the_gym_seed() -> None:
    g = nestris.Game(format="betatetris", seed=0x1A2B3C)
    assert g.level == 18
    assert g.rules == "gym-v5 seed 1A2B3C, ksx2@39, halt@49"
    assert nestris.Game(seed=5).rules == "cartridge"
    # The pieces are the Gym seed's: the same seed deals the same pieces, another seed
    # other ones, and the cartridge's generator other ones again.
    a = pieces(nestris.Game(format="betatetris", seed=0x1A2B3C), 3000)
    assert a == pieces(nestris.Game(format="betatetris", seed=0x1A2B3C), 3000)
    assert a != pieces(nestris.Game(format="betatetris", seed=0x1A2B3D), 3000)
    assert a != pieces(nestris.Game(level=18, seed=0x1A2B3C), 3000)
    # Seeds outside 512..2**24-1 are folded into it; a level given is kept.
    assert "gym-v5 seed" in nestris.Game(format="betatetris", seed=3).rules
    assert nestris.Game(format="betatetris", seed=700, level=19).level == 19
    with pytest.raises(nestris.InvalidArgument, match="format"):
        nestris.Game(format="gym")


def test_every_environment_takes_the_format() -> None:
    env = gymnasium.make(PLACEMENT, format="betatetris")
    obs, info = env.reset(seed=4242)
    assert info["level"] == 18
    for name in ("nestris/NES-Tetris-v0", PLACEMENT):
        e = gymnasium.make(name, format="betatetris", start_level=19)
        _, info = e.reset(seed=4242)
        assert info["level"] == 19
    f = nestris.NesTetrisVectorEnv(2, format="betatetris")
    obs, _ = f.reset(seed=[4242, 4243])
    assert list(obs["level"]) == [18, 18]
    v = nestris.NesTetrisPlacementVectorEnv(2, format="betatetris")
    obs, _ = v.reset(seed=[4242, 4243])
    assert list(obs["level"]) == [18, 18]
    with pytest.raises(nestris.InvalidArgument, match="format"):
        gymnasium.make(PLACEMENT, format="BetaTetris")


def test_the_format_changes_the_pieces_of_an_episode() -> None:
    def boards(**options: object) -> list[bytes]:
        env = nestris.PlacementEnv(start_level=18, **options)
        env.reset(777)
        seen = []
        for _ in range(12):
            obs, _, terminated, _ = env.step(0)
            seen.append(obs["board"].tobytes())
            if terminated:
                break
        return seen

    assert boards(format="betatetris") == boards(format="betatetris")
    assert boards(format="betatetris") != boards()


def test_a_tap_pattern_is_the_rate_it_spells() -> None:
    for pattern, hz in (("X.", 30), ("X..", 20), ("X....", 12)):
        a = nestris.PlacementEnv(start_level=18, taps=pattern)
        b = nestris.PlacementEnv(start_level=18, tap_hz=hz)
        a.reset(9)
        b.reset(9)
        assert a.input_model["tap_hz"] == hz
        assert (a.placements() == b.placements()).all()
    # A pattern no rate spells, slower than any: fewer places reachable at level 19 (for
    # the second piece: the first one waits 96 frames before it falls).
    slow = nestris.PlacementEnv(start_level=19, taps="X...........")
    fast = nestris.PlacementEnv(start_level=19, taps="X.")
    for env in (slow, fast):
        env.reset(9)
        env.step(0)
    assert slow.input_model["taps"] == "X..........."
    assert slow.input_model["tap_hz"] == 0
    assert slow.num_placements < fast.num_placements


def test_bad_tap_options_are_refused_with_a_reason() -> None:
    with pytest.raises(nestris.InvalidArgument, match="not both"):
        nestris.PlacementEnv(tap_hz=30, taps="X.")
    with pytest.raises(nestris.InvalidArgument, match="taps"):
        nestris.PlacementEnv(taps="Y.")
    with pytest.raises(nestris.InvalidArgument, match="taps"):
        nestris.Ai(taps="")
    with pytest.raises(TypeError):
        nestris.PlacementEnv(taps=3)


def test_an_ai_with_a_pattern_pickles_and_plays_its_format() -> None:
    ai = nestris.Ai(taps="X.X..", reaction=18, crash_dodge=False)
    assert repr(ai) == 'Ai(taps="X.X..", reaction=18, das=False, soft_drop=False)'
    back = pickle.loads(pickle.dumps(ai))
    assert back.input_model == ai.input_model
    assert repr(back) == repr(ai)
    assert repr(pickle.loads(pickle.dumps(nestris.Ai(tap_hz=20)))).startswith("Ai(tap_hz=20,")
    result = nestris.evaluate(ai, games=2, seed=4242, format="betatetris", max_steps=60)
    assert [g["steps"] for g in result["per_game"]] == [60, 60]
    assert all(g["lines"] > 0 for g in result["per_game"]), result["per_game"]
    # The same games from Python's loop over the environment: the format and the hands
    # are the environment's.
    env = nestris.PlacementEnv(format="betatetris", taps="X.X..", reaction=18)
    env.reset(4242)
    mine = nestris.Ai(taps="X.X..", reaction=18, crash_dodge=False)
    for _ in range(60):
        _, _, _, info = env.step(mine.choose(env))
    assert info["score"] == result["per_game"][0]["score"]
    # An Ai plays with its own hands only.
    with pytest.raises(nestris.InvalidArgument, match="differs from the Ai's"):
        nestris.evaluate(ai, games=1, taps="X.", max_steps=5)


def test_the_ai_can_search_on_what_the_screen_shows() -> None:
    # The piece after the preview weighed, not read off the generator: BetaTetris's terms.
    ai = nestris.Ai(lookahead="screen")
    assert ai.lookahead == "screen"
    assert nestris.Ai().lookahead == "generator"
    assert pickle.loads(pickle.dumps(ai)).lookahead == "screen"
    with pytest.raises(nestris.InvalidArgument, match="lookahead"):
        nestris.Ai(lookahead="future")
    result = nestris.evaluate(ai, games=1, seed=4242, format="betatetris", max_steps=60)
    assert result["per_game"][0]["lines"] > 0, result["per_game"]


def test_the_ai_takes_the_depths_of_its_plans() -> None:
    # The bench's --depth, --blind-depth and --blind-depth-29, kept through a pickle.
    plain = nestris.Ai()
    assert (plain.depth, plain.blind_depth, plain.blind_depth_29) == (3, 3, 3)
    assert plain.blind_beam_29 == 0
    deep = nestris.Ai(
        lookahead="screen", depth=4, blind_depth=2, blind_depth_29=4, blind_beam_29=4
    )
    assert (deep.depth, deep.blind_depth, deep.blind_depth_29) == (4, 2, 4)
    assert deep.blind_beam_29 == 4
    back = pickle.loads(pickle.dumps(deep))
    assert (back.depth, back.blind_depth, back.blind_depth_29, back.lookahead) == (
        4,
        2,
        4,
        "screen",
    )
    assert back.blind_beam_29 == 4
    for kwargs, name in [
        ({"depth": 2}, "depth"),
        ({"depth": 6}, "depth"),
        ({"blind_depth": 1}, "blind_depth"),
        ({"blind_depth_29": 6}, "blind_depth_29"),
        ({"blind_beam_29": 9}, "blind_beam_29"),
    ]:
        with pytest.raises(nestris.InvalidArgument, match=name):
            nestris.Ai(**kwargs)
    # Both plans come out from level 29 at the deepest settings.
    g = nestris.Game(level=29, seed=3)
    assert len(deep.plan_blind(g)) > 0
    assert len(deep.plan(g)) > 0
    assert nestris.Ai(lookahead="screen", depth=5).depth == 5
    assert nestris.Ai(lookahead="screen", blind_depth_29=5).blind_depth_29 == 5
    assert len(nestris.Ai(lookahead="screen", depth=5).plan(g)) > 0
