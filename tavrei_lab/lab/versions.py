"""The versions of what a lab result depends on besides its settings.

Stored results (a shipped study, a tutorial's data) were made by one evaluation
(``engine.weights.EVALUATION_VERSION``) and one fit method (``lab.tune.FIT_VERSION``,
which names both): the same command on code of other versions plays other games.
Data records ``code_versions()`` as it was made, and a test compares it with the
code's, so stale figures are found, not read as today's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tavrei_lab.engine.weights import EVALUATION_VERSION
from tavrei_lab.lab.tune import FIT_VERSION


def code_versions() -> dict[str, Any]:
    """The versions this code plays and fits by."""
    return {"evaluation_version": EVALUATION_VERSION, "fit_version": FIT_VERSION}


def stale_versions(made_with: Mapping[str, Any] | None) -> list[str]:
    """The names whose recorded version differs from the code's (all of them when
    nothing was recorded)."""
    current = code_versions()
    if not made_with:
        return sorted(current)
    return sorted(k for k, v in current.items() if made_with.get(k) != v)


__all__ = ["code_versions", "stale_versions"]
