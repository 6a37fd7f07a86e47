"""Puzzles as data: ``puzzles.toml`` (and a teacher's own files) read into ``Exercise`` objects.

A puzzle file holds ``[[puzzle]]`` tables: the texts (English, and each other
language under its code: ``[puzzle.ru]``), where the puzzle starts, how it is
answered, which checker judges it (by name, from ``CHECKERS``, with its
``args``) and what a teacher's "show solutions" tries (``candidates``, by name
from ``CANDIDATES``). The checkers stay code; the puzzles are data, so a teacher
adds one without writing Python: in a file of their own, found through the
``TAVREI_PUZZLES`` setting (files or folders, separated as in ``PATH``), or by
``add_puzzles(path)``. A file that cannot be used is refused whole, with the
file, the puzzle and the field named.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from functools import partial
from importlib import resources
from pathlib import Path
from typing import Any

from tavrei_lab.core.tavrel import BLACK, WHITE
from tavrei_lab.data import recorded_game
from tavrei_lab.errors import TavreiError
from tavrei_lab.exercises import checkers as c
from tavrei_lab.exercises.model import ANSWER_KINDS, EXERCISES, Exercise
from tavrei_lab.game import Game
from tavrei_lab.i18n import gettext as _

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

#: The setting naming a teacher's puzzle files or folders (``os.pathsep`` between them).
PUZZLES_SETTING = "TAVREI_PUZZLES"

_COLORS = {"white": WHITE, "black": BLACK}


def _kind(game: Game, kind: Any) -> int:
    """A piece kind given as its number or its name (``"luchnik"``)."""
    if isinstance(kind, int) and not isinstance(kind, bool):
        return kind
    for piece in game.position.pieces:
        if str(kind).lower() in (piece.name.lower(), piece.letter.lower()):
            return int(piece.kind)
    raise TavreiError(_("no piece {kind!r} in this variant").format(kind=kind))


#: The checkers a puzzle file names: ``checker(game, answer, **args)``.
CHECKERS: dict[str, Callable[..., c.Feedback]] = {
    "accepted": lambda g, a, *, accepted, answer_kind="text": c.check_accepted(
        g, a, accepted, answer_kind),
    "chess-analogue": lambda g, a, *, piece: c.check_chess_analogue(g, piece, a),
    "destinations": lambda g, a, *, square: c.check_destinations(g, square, a),
    "discovered-check": c.check_discovered_check,
    "escape": c.check_escape,
    "frees": lambda g, a, *, square, kind: c.check_frees(g, a, square, _kind(g, kind)),
    "gives-check": c.check_gives_check,
    "mate-in-one": c.check_mate_in_one,
    "prisoners": lambda g, a, *, color=None: c.check_prisoners(
        g, a, color=None if color is None else _COLORS[color]),
    "promotion": lambda g, a, *, square: c.check_promotion(g, square, a),
    "saving-faces": c.check_saving_faces,
    "takes-prisoner": lambda g, a, *, square=None: c.check_takes_prisoner(g, a, square),
}

#: What "show solutions" tries, by name: ``candidates(game, **args)`` (args: the checker's).
CANDIDATES: dict[str, Callable[..., list[Any]]] = {
    "accepted": lambda g, **args: [str(a) for a in args.get("accepted", [])],
    "chess-names": lambda g, **args: [p.english for p in g.position.pieces],
    "counts": lambda g, **args: list(range(0, 33)),
    "destinations": lambda g, **args: [" ".join(sorted(c.destinations(g, args["square"])))],
    "pieces": lambda g, **args: [p.name for p in g.position.pieces],
    "saving-faces": lambda g, **args: [" ".join(c.faces_that_save_the_king(g))],
}

_TEXTS = ("title", "prompt", "hint")
_FIELDS = {"key", "title", "prompt", "hint", "position", "variant", "moves", "recorded_game",
           "plies", "options", "answer", "checker", "args", "accepted", "candidates", "focus"}
_LANGUAGES = {"ru"}


def _bad(where: str, key: Any, what: str) -> TavreiError:
    return TavreiError(f"{where}: puzzle {key!r}: {what}")


def _recorded_moves(where: str, key: Any, number: Any, plies: Any) -> str:
    try:
        moves = list(recorded_game(number)["moves"])
    except (TavreiError, KeyError, IndexError, TypeError):
        raise _bad(where, key, f"recorded_game {number!r} is not a game shipped with the "
                               "package") from None
    if plies is not None:
        if isinstance(plies, bool) or not isinstance(plies, int):
            raise _bad(where, key, f"plies must be a whole number, not {plies!r}")
        moves = moves[:plies]
    return " ".join(moves)


def _checker(where: str, key: Any, entry: dict[str, Any]) -> tuple[Any, Any]:
    name = entry.get("checker", "accepted" if "accepted" in entry else None)
    if name not in CHECKERS:
        raise _bad(where, key, f"checker must be one of {', '.join(sorted(CHECKERS))}, "
                               f"not {name!r}")
    args = dict(entry.get("args", {}))
    if not isinstance(entry.get("args", {}), dict):
        raise _bad(where, key, "args must be a table ({ square = \"d4\" })")
    if name == "accepted":
        accepted = entry.get("accepted")
        if not isinstance(accepted, list) or not accepted:
            raise _bad(where, key, "the accepted checker needs a list of accepted answers")
        args = {"accepted": accepted, "answer_kind": entry.get("answer", "text")}
    if "color" in args and args["color"] not in _COLORS:
        raise _bad(where, key, f"args.color must be white or black, not {args['color']!r}")
    function = CHECKERS[name]
    try:
        import inspect
        inspect.signature(function).bind(None, None, **args)
    except TypeError as exc:
        raise _bad(where, key, f"checker {name!r} cannot take args {args!r} ({exc})") from None
    candidates_name = entry.get("candidates", "accepted" if name == "accepted" else None)
    if candidates_name is not None and candidates_name not in CANDIDATES:
        raise _bad(where, key, f"candidates must be one of {', '.join(sorted(CANDIDATES))}, "
                               f"not {candidates_name!r}")

    # An argument-less checker is kept as itself, so code may ask which checker a puzzle uses.
    check: Callable[..., c.Feedback] = partial(function, **args) if args else function

    candidates = None
    if candidates_name is not None:
        maker = CANDIDATES[candidates_name]

        def candidates(game: Game) -> list[Any]:
            return maker(game, **args)
    return check, candidates


def _texts(where: str, key: Any, entry: dict[str, Any]) -> dict[str, dict[str, str]]:
    texts: dict[str, dict[str, str]] = {}
    for language in _LANGUAGES & set(entry):
        table = entry[language]
        if not isinstance(table, dict) or set(table) - set(_TEXTS) or not all(
                isinstance(v, str) for v in table.values()):
            raise _bad(where, key, f"[puzzle.{language}] holds title, prompt and hint as text")
        texts[language] = dict(table)
    return texts


def puzzle_from_data(entry: dict[str, Any], where: str = "puzzle") -> Exercise:
    """One ``[[puzzle]]`` table as an ``Exercise`` (``where`` names it in errors)."""
    key = entry.get("key")
    unknown = set(entry) - _FIELDS - _LANGUAGES
    if unknown:
        raise _bad(where, key, f"unknown field(s) {', '.join(sorted(unknown))}; a puzzle "
                               f"has {', '.join(sorted(_FIELDS | _LANGUAGES))}")
    for name in ("key", "title", "prompt"):
        if not isinstance(entry.get(name), str) or not entry[name].strip():
            raise _bad(where, key, f"{name} is required (text)")
    for name in ("hint", "position", "variant", "moves"):
        if name in entry and not isinstance(entry[name], str):
            raise _bad(where, key, f"{name} must be text")
    answer = entry.get("answer", "text")
    if answer not in ANSWER_KINDS:
        raise _bad(where, key, f"answer must be one of {', '.join(ANSWER_KINDS)}, not "
                               f"{answer!r}")
    focus = entry.get("focus", [])
    if not isinstance(focus, list) or not all(isinstance(s, str) for s in focus):
        raise _bad(where, key, "focus must be a list of square names")
    options = entry.get("options", {})
    if not isinstance(options, dict):
        raise _bad(where, key, "options must be a table ({ own_towers = false })")
    moves = entry.get("moves", "")
    if "recorded_game" in entry:
        moves = _recorded_moves(where, key, entry["recorded_game"], entry.get("plies"))
    check, candidates = _checker(where, key, entry)
    return Exercise(entry["key"], entry["title"], entry["prompt"], entry.get("position"),
                    check, variant=entry.get("variant", "tavreli"), hint=entry.get("hint", ""),
                    moves=moves, focus=tuple(focus), candidates=candidates, answer=answer,
                    options=dict(options), texts=_texts(where, key, entry))


def load_puzzles(source: str | os.PathLike[str], *, text: str | None = None) -> list[Exercise]:
    """The puzzles of the file ``source`` (or of ``text``, ``source`` naming it)."""
    where = str(source)
    if text is None:
        try:
            text = Path(source).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise TavreiError(_("{where}: cannot read the puzzle file ({reason})").format(
                where=where, reason=exc)) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise TavreiError(_("{where}: not a TOML file ({reason})").format(
            where=where, reason=exc)) from None
    entries = data.get("puzzle", [])
    if set(data) - {"puzzle"} or not isinstance(entries, list):
        raise TavreiError(_("{where}: a puzzle file holds [[puzzle]] tables only").format(
            where=where))
    puzzles = [puzzle_from_data(entry, where) for entry in entries]
    keys = [p.key for p in puzzles]
    twice = sorted({k for k in keys if keys.count(k) > 1})
    if twice:
        raise TavreiError(_("{where}: puzzle key(s) {names} given more than once").format(
            where=where, names=', '.join(twice)))
    return puzzles


def add_puzzles(source: str | os.PathLike[str]) -> list[Exercise]:
    """Read a puzzle file (or every ``*.toml`` in a folder) into ``EXERCISES``; a key that
    is already there is refused and nothing of that file is added."""
    path = Path(source)
    files = sorted(path.glob("*.toml")) if path.is_dir() else [path]
    added: list[Exercise] = []
    for file in files:
        puzzles = load_puzzles(file)
        clash = [p.key for p in puzzles if p.key in EXERCISES]
        if clash:
            raise TavreiError(_("{file}: puzzle key(s) {names} already exist").format(
                file=file, names=', '.join(clash)))
        EXERCISES.update((p.key, p) for p in puzzles)
        added += puzzles
    return added


def load_shipped() -> None:
    """The package's puzzles, then the teacher's files named by ``TAVREI_PUZZLES``."""
    shipped = resources.files("tavrei_lab.exercises").joinpath("puzzles.toml")
    EXERCISES.update((p.key, p) for p in load_puzzles(
        "tavrei_lab/exercises/puzzles.toml", text=shipped.read_text(encoding="utf-8")))
    for part in os.environ.get(PUZZLES_SETTING, "").split(os.pathsep):
        if part.strip():
            add_puzzles(part.strip())


__all__ = ["CANDIDATES", "CHECKERS", "PUZZLES_SETTING", "add_puzzles", "load_puzzles",
           "load_shipped", "puzzle_from_data"]
