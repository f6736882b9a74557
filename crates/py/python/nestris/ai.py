"""The coach: the best placements of a position, with their values and inputs.

:func:`suggest` takes a request as a dict and answers with a dict, in the shapes of the
command ``nestris ai suggest`` (its JSON, parsed): the request's fields follow
StackRabbit's (``board``, ``currentPiece``, ``nextPiece``, ``level``, ``lines``,
``reactionTime``, ``inputFrameTimeline``; ours also ``tapHz``, ``score``, ``top``), and
each answered move gives StackRabbit's ``placement`` ``[rotation, xOffset, yOffset]``, the
cells it fills, its ``value``, the joypad byte of every frame until it locks (``inputs``),
the same frames in StackRabbit's letters (``inputSequence``) and for a person
(``inputsText``), and the field, lines, level and score after it. ``docs/AI.md`` ("The
coach") lists every field.

>>> import nestris
>>> well = "0" * 160 + "1111111110" * 4     # four rows ready for a tetris
>>> answer = nestris.ai.suggest(
...     {"board": well, "currentPiece": "I", "nextPiece": "T", "level": 18, "lines": 0}
... )
>>> best = answer["best"]
>>> best["cleared"], best["placement"], best["cells"]
(4, [1, 4, 18], [[16, 9], [17, 9], [18, 9], [19, 9]])
>>> len(answer["moves"])
5
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Mapping
from typing import Any

from . import _nestris

__all__ = ["bench", "suggest"]


def suggest(request: Mapping[str, Any], weights: Mapping[str, Any] | str | None = None) -> dict[str, Any]:
    """The answer to ``request`` (see the module's documentation).

    ``weights`` are evaluation weights as :attr:`nestris.Ai.weights` lists them (missing
    ones keep their defaults; a nested dict under a bracket's name, ``"level29"`` say,
    is that bracket's set, chosen by the request's level), or a built-in set's name
    (``"default"``, ``"betatetris"``). A position whose current piece has no placement (it cannot
    spawn) is answered with ``best`` ``None`` and the reason in ``noPlacement``.

    Raises ``InvalidArgument`` for a request it does not accept (the message names the
    field), ``TypeError`` when ``request`` is not a mapping of JSON values.
    """
    if not isinstance(request, Mapping):
        raise TypeError(f"request must be a dict, got {type(request).__name__}")
    text = json.dumps(dict(request), allow_nan=False)
    if weights is not None and not isinstance(weights, str):
        weights = {k: dict(v) if isinstance(v, Mapping) else v for k, v in weights.items()}
    return json.loads(_nestris.suggest_json(text, weights))


def bench(
    games: int = 100,
    *,
    format: str = "cartridge",
    start_level: int | None = None,
    tap_hz: int | None = None,
    taps: str | None = None,
    reaction: int | None = None,
    adjust: int | None = None,
    weights: Mapping[str, Any] | str | None = None,
    lookahead: str | None = None,
    blind_depth: int | None = None,
    blind_depth_29: int | None = None,
    depth: int | None = None,
    blind_beam_29: int | None = None,
    crash_mode: str = "cartridge",
    crash_dodge: bool = True,
    uncapped: bool = False,
    max_frames: int | None = None,
    threads: int | None = None,
    progress: bool | Callable[[int, int], object] | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
) -> dict[str, Any]:
    """The benchmark of ``nestris ai bench``: ``games`` games of the AI, and the report
    that ``nestris ai bench --json`` prints, as a dict (``docs/AI.md``, "Benchmarks").

    ``format="betatetris"`` plays BetaTetris's format (TetrisGYM v5 seeds drawn as its
    evaluation draws them, 30 Hz, the double killscreen at 39, the halt at 49, 300 ms of
    reaction as the community models it), so that the figures compare with the published
    bots'; ``report["table"]`` is BetaTetris's table (lines, score percentiles, the average
    score at the transitions to 19 / 29 / 39), ``report["results"]`` every game (with its
    ``gym_seed`` and its ``clears``: singles, doubles, triples, tetrises). ``"cartridge"``
    plays the cartridge's own game on the published seed list (at most its 1,000 games).

    ``start_level`` (None: 18), ``tap_hz`` or ``taps`` (a tap pattern such as ``"X.X.."``),
    ``reaction`` (frames without input after each spawn), ``adjust`` (frames after each
    spawn before the preview is seen and the plan may change; None: the format's, 18 in
    BetaTetris's, else 0, the preview seen at once), ``weights`` (as :class:`nestris.Ai`
    takes them; None: the format's), ``lookahead`` (``"screen"`` or ``"generator"``; None:
    the format's), ``blind_depth`` (2 to 5: the pieces the plan made before the preview is
    seen weighs below level 29; None: 3), ``blind_depth_29`` (the same from level 29;
    None: the format's, 5 in BetaTetris's, else 3), ``depth`` (3 to 5: the pieces the plan
    weighs once the preview is seen; None: the format's, 5 in BetaTetris's, else 3),
    ``blind_beam_29`` (0 to 8: from level 29, how many of the blind plan's candidates, the
    best over the preview pieces alone, are weighed at its whole depth; 0 all; None: the
    format's, 4 in BetaTetris's, else 0), ``crash_mode``, ``crash_dodge``, ``uncapped``,
    ``max_frames`` (a game's limit; None: 2,000,000) and ``threads`` (None: every core)
    are the command's options.
    The games run in Rust without the GIL and are deterministic: the same call gives the
    same games, whatever ``threads``. A whole game of the betatetris format takes about 35
    seconds on one core of a 2-core AMD EPYC, most of it from level 29 on, where its plans
    weigh two pieces more (``depth=3, blind_depth_29=3, blind_beam_29=0`` plays about 20
    times as fast);
    ``max_frames`` shortens them.

    ``checkpoint`` (a path) keeps each game in that file as it ends (a JSON line), and a
    call given the file again takes the games it holds instead of playing them: a run
    stopped by Ctrl-C, or by the end of a machine's time, resumes where it stopped, and one
    asked for more games plays only those. The report is that of one run of every game.
    Only the same settings read a file back (``threads`` and ``games`` aside; otherwise
    ``InvalidArgument`` names the settings that differ), and only the same build of nestris
    plays the same games. ``--checkpoint`` of the command writes the same files.

    ``progress`` is called as ``progress(done, total)`` as games end (``True``: a line on
    standard error kept up to date; with tqdm, ``lambda done, total: bar.update(done -
    bar.n)``). Ctrl-C (``KeyboardInterrupt``), or an exception from ``progress``, stops the
    run within a piece of each game in play, and the exception is raised.

    >>> import nestris
    >>> report = nestris.ai.bench(2, format="betatetris", max_frames=600, threads=1)
    >>> report["results"][0]["gym_seed"] == 0xD82E07     # game 1 of BetaTetris's list
    True
    >>> table = report["table"]
    >>> table["games"], len(table["score_percentiles"]), len(table["transitions"])
    (2, 9, 3)
    """
    if weights is not None and not isinstance(weights, str):
        weights = {k: dict(v) if isinstance(v, Mapping) else v for k, v in weights.items()}
    if progress is True:
        progress = _stderr_progress
    elif progress is False:
        progress = None
    text = _nestris.bench_json(
        games,
        format,
        start_level,
        tap_hz,
        taps,
        reaction,
        adjust,
        weights,
        lookahead,
        blind_depth,
        blind_depth_29,
        depth,
        blind_beam_29,
        crash_mode,
        crash_dodge,
        uncapped,
        max_frames,
        threads,
        progress,
        None if checkpoint is None else os.fspath(checkpoint),
    )
    result: dict[str, Any] = json.loads(text)
    return result


def _stderr_progress(done: int, total: int) -> None:
    """``bench(progress=True)``: one line on standard error, rewritten as games end."""
    end = "\n" if done == total else ""
    print(f"\r{done}/{total} games", end=end, file=sys.stderr, flush=True)
