"""The examples in the package's docstrings (Python modules and the extension's
classes and functions) run and give what they show."""

from __future__ import annotations

import doctest
import importlib
import inspect

import pytest

import nestris
from nestris import _nestris

MODULES = ["nestris", "nestris.env", "nestris.vec", "nestris.evaluate", "nestris.ai"]
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests(name: str) -> None:
    module = importlib.import_module(name)
    failures, tried = doctest.testmod(module, optionflags=FLAGS, verbose=False)
    assert failures == 0
    assert tried > 0, f"{name} has no examples"


def extension_docstrings() -> list[tuple[str, str]]:
    """Every docstring of the extension's classes, their methods and its functions."""
    out = []
    for name, obj in vars(_nestris).items():
        if name.startswith("_"):
            continue
        if inspect.isclass(obj) and obj.__module__ == "nestris._nestris":
            out.append((name, obj.__doc__ or ""))
            for attr, member in vars(obj).items():
                doc = getattr(member, "__doc__", None)
                if doc and not attr.startswith("__"):
                    out.append((f"{name}.{attr}", doc))
        elif callable(obj) and getattr(obj, "__doc__", None):
            out.append((name, obj.__doc__))
    return out


def test_extension_doctests() -> None:
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    tried = 0
    for name, doc in extension_docstrings():
        test = parser.get_doctest(doc, {"nestris": nestris}, name, None, 0)
        if test.examples:
            runner.run(test)
            tried += len(test.examples)
    result = runner.summarize(verbose=False)
    assert result.failed == 0
    assert tried >= 10
