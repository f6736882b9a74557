"""Shared fixtures: where the conformance traces are, and a reader for them."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path
from typing import Any
from collections.abc import Iterator

import pytest


def conformance_dir() -> Path:
    """tests/conformance of the repository (or ``$NESTRIS_CONFORMANCE_DIR``)."""
    env = os.environ.get("NESTRIS_CONFORMANCE_DIR")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[3] / "tests" / "conformance"


def read_trace(path: Path) -> tuple[str, Iterator[dict[str, Any]]]:
    """The header line (JSON text) and an iterator over the frame objects."""
    f = gzip.open(path, "rt", encoding="utf-8")
    header = f.readline()

    def frames() -> Iterator[dict[str, Any]]:
        with f:
            for line in f:
                if line.strip():
                    yield json.loads(line)

    return header, frames()


@pytest.fixture(scope="session")
def traces_dir() -> Path:
    d = conformance_dir()
    if not d.is_dir():
        pytest.skip(f"no conformance traces at {d} (set NESTRIS_CONFORMANCE_DIR)")
    return d
