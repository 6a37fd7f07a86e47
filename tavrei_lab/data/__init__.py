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
import re
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from tavrei_lab.errors import TavreiError
from tavrei_lab.i18n import N_, ngettext
from tavrei_lab.i18n import gettext as _

#: Where the games come from; ``gettext(SOURCES)`` says it in the language in force.
SOURCES = N_("tavreli.narod.ru (games 1-4) and rus-chess.ru (games 5-20), as collected in "
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
    raise TavreiError(_("no recorded game {n}; the games are numbered 1-20").format(n=n))


def lab_study(name: str = "splits") -> dict[str, Any]:
    """A small shipped study of the variant lab (tutorial 10 reads it, so it runs in
    seconds), made by ``scripts/lab_splits_study.py``: ``command`` per strength (the
    ``tavrei-lab sweep --tune --until-decided`` that produced it), ``cells`` per
    strength (its ``--out`` ``cells.json``, readable by ``lab.ResultsTable.from_json``),
    ``differences`` (its ``differences.json``), ``decision`` (the lines its looks
    printed, said again in the language in force), ``seconds`` (wall) and
    ``cpu_seconds`` (the sweep and its workers) it took here, ``notes`` (what the sweeps
    said of their players: a fit not played, each player's Elo against the reference
    player; said again in the language in force too), ``tune``: each cell's tune log
    with its proof (``proven``, ``proof``), ``made_with``: the evaluation's and the fit
    method's versions (``lab.versions.code_versions()`` when it was made), and ``check``:
    further runs of the same shape, if any.

    >>> sorted(lab_study()["cells"])
    ['play:nodes=150', 'play:nodes=50']
    """
    if name != "splits":
        raise TavreiError(_("no shipped lab study {name!r}; there is one: 'splits'").format(
            name=name))
    text = resources.files(__name__).joinpath("lab_splits.json").read_text(encoding="utf-8")
    study = json.loads(text)
    for part in (study, study.get("check", {})):
        for key in ("decision", "notes"):
            part[key] = {label: [_said_again(line) for line in lines]
                         for label, lines in part.get(key, {}).items()}
    return study


#: What ``tavrei-lab sweep --until-decided`` printed at its looks (cli/sweep.py,
#: lab/planning.py), kept in English in the study's file: each message with the
#: placeholder that chooses its plural form ("" for none).
_PRINTED = (
    (N_("look at {games:.0f} games a cell: p = {p:.3g} (alpha this look {alpha:.3g}), "
        "interval at that level {low:+.3f} to {high:+.3f}"), ""),
    (N_("After {looks} looks ({games} games a cell): {words}. {measure} {a} - {b} = "
        "{difference:+.3f}, p = {p:.3g} against this look's alpha {alpha:.3g} ({how})."),
     "looks"),
    (N_("Lan-DeMets O'Brien-Fleming-type alpha spending over the looks, overall "
        "alpha {alpha:g}"), ""),
    (N_("the difference is established"), ""),
    (N_("a difference as large as the one asked about is excluded"), ""),
    (N_("the budget is spent and neither is shown"), ""),
    # what the sweeps said of their players (lab.strength, lab.sweep, engine.weights)
    (N_("strength of {agent} in {cell}: Elo {bound} against the reference player "
        "{reference} (score {score:.3f} [{slow:.3f}, {shigh:.3f}], {games} games: {wins} "
        "won, {draws} drawn, {losses} lost)"), ""),
    (N_("below {elo}"), ""),
    (N_("above {elo}"), ""),
    (N_("the fit {what} is not played, {problem}: the default weights play instead"), ""),
    (N_("of this cell's tune"), ""),
    (N_("no gated match tested it"), ""),
    (N_("cell {name}: {line}"), ""),
)
_FIELD = re.compile(r"\{(\w+)(?::[^{}]*)?\}")


@cache
def _pattern(message: str) -> re.Pattern[str]:
    """A regular expression that matches what ``message`` prints, one group a placeholder."""
    parts, at, seen = [], 0, set()
    for field in _FIELD.finditer(message):
        name = field.group(1)
        parts += [re.escape(message[at:field.start()]),
                  f"(?P={name})" if name in seen else f"(?P<{name}>.+?)"]
        seen.add(name)
        at = field.end()
    return re.compile("".join(parts) + re.escape(message[at:]), re.S)


def _said_again(line: str) -> str:
    """``line``, printed in English by one of the messages of ``_PRINTED``, said again in
    the language in force, its numbers and names as printed (in English: ``line`` itself;
    a line that is none of them is given back as it is)."""
    for message, counted in _PRINTED:
        found = _pattern(message).fullmatch(line)
        if found is None:
            continue
        values = {name: _said_again(value) for name, value in found.groupdict().items()}
        text = ngettext(message, message, int(values[counted])) if counted else _(message)

        def printed(field: re.Match[str], said: dict[str, str] = values) -> str:
            return said[field.group(1)]

        return _FIELD.sub(printed, text)
    return line
