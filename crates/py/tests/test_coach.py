"""``nestris.ai.suggest``: the coach from Python, in the command's shapes."""

from __future__ import annotations

import pytest

import nestris

WELL = "0" * 160 + "1111111110" * 4


def request(**extra: object) -> dict[str, object]:
    return {"board": WELL, "currentPiece": "I", "nextPiece": "T", "level": 18, "lines": 0, **extra}


def test_the_i_piece_takes_the_tetris() -> None:
    answer = nestris.ai.suggest(request())
    best = answer["best"]
    assert best["cleared"] == 4
    assert best["placement"] == [1, 4, 18]
    assert best["resultingBoard"] == "0" * 200
    assert best["score"] == 1200 * 19
    assert answer["moves"][0] == best
    values = [m["value"] for m in answer["moves"]]
    assert values == sorted(values, reverse=True)


def test_the_inputs_put_the_piece_where_the_answer_says() -> None:
    # Played on a Game built from the same position through the extension's own engine:
    # the answer's frames, from the spawn, lock the piece at its cells.
    answer = nestris.ai.suggest(request(currentPiece="L", top=3, reactionTime=6, tapHz=20))
    for move in answer["moves"]:
        inputs = move["inputs"]
        assert len(inputs) == move["frames"]
        assert all(b == 0 for b in inputs[:6]), "no press in the reaction frames"
        taps = [f for f, b in enumerate(inputs) if b]
        assert all(b - a >= 3 for a, b in zip(taps, taps[1:])), "20 Hz: three frames apart"
        assert len(move["cells"]) == 4 and move["piece"] == "L"


def test_a_tap_pattern_spaces_the_taps_by_its_gaps() -> None:
    # X.X..: taps 2 and 3 frames apart in turn, each gap counted from the tap before.
    answer = nestris.ai.suggest(request(currentPiece="L", top=5, inputFrameTimeline="X.X.."))
    assert answer["moves"]
    for move in answer["moves"]:
        taps = [f for f, b in enumerate(move["inputs"]) if b]
        gaps = [b - a for a, b in zip(taps, taps[1:])]
        assert all(g >= (2, 3)[k % 2] for k, g in enumerate(gaps)), move["inputsText"]


def test_a_board_as_rows_is_the_same_position() -> None:
    rows = [WELL[r * 10 : r * 10 + 10] for r in range(20)]
    as_rows = nestris.ai.suggest(request(board=rows))
    as_lists = nestris.ai.suggest(request(board=[[int(c) for c in row] for row in rows]))
    assert as_rows == as_lists == nestris.ai.suggest(request())


@pytest.mark.parametrize(
    "bad, message",
    [
        ({"board": "01"}, "board"),
        ({"currentPiece": "X"}, "currentPiece"),
        ({"level": 256}, "level: 256 is out of range"),
        ({"inputFrameTimeline": "X.X"}, "two X one frame apart"),
        ({"colour": "red"}, "unknown field"),
    ],
)
def test_a_bad_request_raises_invalid_argument(bad: dict[str, object], message: str) -> None:
    with pytest.raises(nestris.InvalidArgument, match=message):
        nestris.ai.suggest(request(**bad))


def test_not_a_mapping_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        nestris.ai.suggest("board=...")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        nestris.ai.suggest(request(level=float("nan")))


def test_no_placement_is_an_answer_not_an_error() -> None:
    answer = nestris.ai.suggest(request(board="1111111110" * 20))
    assert answer["best"] is None and answer["moves"] == []
    assert "cannot spawn" in answer["noPlacement"]


def test_weights_change_the_values() -> None:
    default = nestris.ai.suggest(request())
    # A tetris worth 1,000 more: the same choice, its value 1,000 higher.
    richer = nestris.ai.suggest(request(), weights={"tetris": nestris.Ai().weights["tetris"] + 1000.0})
    assert richer["best"]["placement"] == default["best"]["placement"]
    assert richer["best"]["value"] == pytest.approx(default["best"]["value"] + 1000.0, abs=0.05)
    with pytest.raises(nestris.InvalidArgument, match="unknown weight"):
        nestris.ai.suggest(request(), weights={"nonsense": 1.0})


def test_the_risk_table_is_a_weight_like_the_others() -> None:
    # 0 by default (the table unused); weighed, it changes the values at level 29.
    assert nestris.Ai().weights["risk"] == 0.0
    killscreen = request(level=29, lines=230)
    plain = nestris.ai.suggest(killscreen)
    risky = nestris.ai.suggest(killscreen, weights={"level29": {"risk": -75.0}})
    assert risky["best"]["value"] != plain["best"]["value"]
    assert nestris.Ai(weights={"level29": {"risk": -75.0}}).weights["level29"]["risk"] == -75.0


def test_a_bracket_table_weighs_its_levels_only() -> None:
    richer = {"level29": {"tetris": nestris.Ai().weights["tetris"] + 1000.0}}
    at18 = (nestris.ai.suggest(request()), nestris.ai.suggest(request(), weights=richer))
    assert at18[0]["best"]["value"] == at18[1]["best"]["value"]
    killscreen = request(level=29, lines=230)
    plain, tuned = nestris.ai.suggest(killscreen), nestris.ai.suggest(killscreen, weights=richer)
    assert tuned["best"]["value"] == pytest.approx(plain["best"]["value"] + 1000.0, abs=0.05)
    # The format's built-in set by name.
    assert nestris.ai.suggest(killscreen, weights="betatetris")["best"]["cleared"] == 4
    with pytest.raises(nestris.InvalidArgument, match="built-in sets"):
        nestris.ai.suggest(killscreen, weights="strongest")
    with pytest.raises(nestris.InvalidArgument, match="unknown weight"):
        nestris.ai.suggest(killscreen, weights={"level29": {"holez": 1.0}})
    with pytest.raises(TypeError, match="bracket"):
        nestris.ai.suggest(killscreen, weights={"level29": 1.0})
