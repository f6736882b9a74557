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
from collections.abc import Mapping
from typing import Any

from . import _nestris

__all__ = ["suggest"]


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
