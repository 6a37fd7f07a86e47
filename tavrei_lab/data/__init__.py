"""Data shipped with the package: the recorded Tavreli tournament games.

``games.json`` holds twenty games played in Moscow, Smolensk and Ryazan
between 1997 and 2003, with the moves exactly as published (typos included:
upper-case squares, a Cyrillic letter, a missing separator -- the record
reader tolerates them, docs/rules.md A10). For ten of them it also lists the
facts an independent replay found after the last move.

Attribution: the records come from the game archives of tavreli.narod.ru
(games 1-4) and rus-chess.ru (games 5-20), as collected in the sirdyf/tavreli
repository's samples file; the games are numbered as there. A game record
(who played, where, and the moves) is a factual account of a game; the
players' names and the sources are kept with every game.

The data ships inside the package (not read from the repository), so the
notebooks work the same on mybinder, in JupyterLite and after a plain
``pip install``.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

from tavrei_lab.errors import TavreiError

SOURCES = ("tavreli.narod.ru (games 1-4) and rus-chess.ru (games 5-20), as collected in "
           "the sirdyf/tavreli repository's samples file")


@lru_cache(maxsize=1)
def _load() -> dict[str, Any]:
    text = resources.files(__name__).joinpath("games.json").read_text(encoding="utf-8")
    return json.loads(text)


def recorded_games() -> list[dict[str, Any]]:
    """The recorded games: each a dict with ``n``, ``title`` (in Russian, as
    published), ``moves`` (the record's tokens) and, for some,
    ``expected_at_end``. A fresh copy each call, so callers may edit it.

    >>> games = recorded_games()
    >>> len(games), games[0]["title"]
    (20, 'У.Андерсон - В.Жмуров, Москва, 1997 год')
    """
    return json.loads(json.dumps(_load()["games"]))


def recorded_game(n: int) -> dict[str, Any]:
    """Recorded game number ``n`` (1-20), numbered as in the source."""
    for game in recorded_games():
        if game["n"] == n:
            return game
    raise TavreiError(f"no recorded game {n}; the games are numbered 1-20")


def lab_study(name: str = "splits") -> dict[str, Any]:
    """A small shipped study of the variant lab (tutorial 10 reads it, so it runs in
    seconds), made by ``scripts/lab_splits_study.py``: ``command`` per strength (the
    ``tavrei-lab sweep --tune --until-decided`` that produced it), ``cells`` per
    strength (its ``--out`` ``cells.json``, readable by ``lab.ResultsTable.from_json``),
    ``differences`` (its ``differences.json``), ``decision`` (the lines its looks
    printed), ``seconds`` (wall) and ``cpu_seconds`` (the sweep and its workers) it
    took here, ``tune``: each cell's tune log, and ``check``: the same for the weaker
    strength played again with a 400-ply limit.

    >>> sorted(lab_study()["cells"])
    ['play:nodes=150', 'play:nodes=500']
    """
    if name != "splits":
        raise TavreiError(f"no shipped lab study {name!r}; there is one: 'splits'")
    text = resources.files(__name__).joinpath("lab_splits.json").read_text(encoding="utf-8")
    return json.loads(text)
