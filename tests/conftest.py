"""Shared fixtures: the recorded games of ../shared/data and small helpers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
GAMES_JSON = SHARED / "data" / "games.json"


def load_games() -> dict:
    if not GAMES_JSON.exists():
        pytest.fail(f"the recorded games are missing: {GAMES_JSON} (shared/ must sit beside the "
                    "repository)")
    return json.loads(GAMES_JSON.read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def games_data() -> dict:
    return load_games()
