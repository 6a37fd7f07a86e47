"""The old path of ``lab.results``: the same names, kept for one
release (``tavrei_lab.compare`` says why)."""

from __future__ import annotations

from tavrei_lab.lab.results import (
    ADJUDICATED as ADJUDICATED,
)
from tavrei_lab.lab.results import (
    GameResult as GameResult,
)

__all__ = ["ADJUDICATED", "GameResult"]
