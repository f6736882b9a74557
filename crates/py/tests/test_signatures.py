"""The environments' constructor options are defined once, by the Rust classes
(``__text_signature__``); the type stubs and the Gymnasium wrappers are checked against
them here, name for name and default for default, so none can drift."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

import nestris
from nestris import _nestris

STUBS = Path(_nestris.__file__).with_name("_nestris.pyi")

# Rust class -> the Gymnasium wrapper around it, and the wrapper's own options (which the
# Rust class does not take). The wrappers call the vector classes' ``n`` ``num_envs``.
PAIRS = [
    (_nestris.FrameEnv, nestris.NesTetrisEnv, {"render_mode"}),
    (_nestris.PlacementEnv, nestris.NesTetrisPlacementEnv, {"render_mode"}),
    (_nestris.VecEnv, nestris.NesTetrisVectorEnv, {"render_mode", "copy"}),
    (_nestris.VecPlacementEnv, nestris.NesTetrisPlacementVectorEnv, {"render_mode", "copy"}),
]


def rust_params(cls: type) -> dict[str, object]:
    """Name -> default (``inspect.Parameter.empty`` for none) from the Rust signature."""
    sig = inspect.signature(cls)
    return {p.name: p.default for p in sig.parameters.values()}


def stub_params(name: str) -> dict[str, object]:
    """Name -> default of ``__new__`` in the stubs, ``cls`` left out."""
    tree = ast.parse(STUBS.read_text())
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name)
    new = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__new__")
    args = new.args.args[1:]
    defaults = [inspect.Parameter.empty] * (len(args) - len(new.args.defaults)) + [
        ast.literal_eval(d) for d in new.args.defaults
    ]
    return {a.arg: d for a, d in zip(args, defaults)}


def wrapper_params(cls: type) -> dict[str, object]:
    sig = inspect.signature(cls.__init__)
    return {p.name: p.default for p in sig.parameters.values() if p.name != "self"}


@pytest.mark.parametrize("rust, wrapper, own", PAIRS, ids=lambda x: getattr(x, "__name__", ""))
def test_stubs_and_wrappers_take_the_rust_options(rust: type, wrapper: type, own: set) -> None:
    options = rust_params(rust)
    assert options, f"{rust.__name__} has no text signature"
    assert stub_params(rust.__name__) == options, "the stub's __new__ differs"
    theirs = wrapper_params(wrapper)
    if "n" in options:
        theirs = {("n" if k == "num_envs" else k): v for k, v in theirs.items()}
    mine = {k: v for k, v in theirs.items() if k not in own}
    # The same options with the same defaults; the order may differ (keywords).
    assert sorted(mine) == sorted(options), f"{wrapper.__name__} options differ"
    for k, v in options.items():
        assert mine[k] == v, f"{wrapper.__name__}({k}=...) defaults to {mine[k]!r}, Rust to {v!r}"


def test_the_check_can_fail() -> None:
    # A signature with one default changed is caught.
    options = rust_params(_nestris.VecEnv)
    changed = dict(options, frame_skip=2)
    assert changed != stub_params("VecEnv")


@pytest.mark.parametrize(
    "name", ["Game", "Ai", "Events", "FrameEnv", "VecEnv", "PlacementEnv", "VecPlacementEnv"]
)
def test_every_constructor_stub_is_the_rust_signature(name: str) -> None:
    assert stub_params(name) == rust_params(getattr(_nestris, name))
