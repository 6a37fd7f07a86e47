"""How the package names pieces, tavrels, towers and game endings in the language in force.

Every name a learner reads for a piece is made here, so the choice between the
English and the Russian way of saying it is made in one place. English names a
tavrel by its transliterated role after its colour ("white luchnik"), and may
add the Russian name beside it; Russian names it by its Russian name in the
nominative followed by the side in the genitive ("лучник белых"), so the name
never has to decline inside a sentence. Sentences around these names go through
the message catalogue as whole sentences, as everywhere else.

A module outside this one and ``tavrei_lab.i18n`` does not compare the language
in force with "ru": it asks one of the functions below.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from tavrei_lab.core.tavrel import COLOR_NAMES
from tavrei_lab.i18n import N_, get_language
from tavrei_lab.i18n import gettext as _

__all__ = ["ENDINGS", "by_language", "ending_name", "kind_glossed", "kind_name",
           "kind_with_analogue", "labelled", "legend_row", "number", "piece_names_first",
           "tavrel_described", "tavrel_glossed", "tavrel_name"]

T = TypeVar("T")

#: How a game ended, as a record's Termination tag writes it, and as a reader is told it.
ENDINGS = {"checkmate": N_("checkmate"), "stalemate": N_("stalemate"),
           "king-capture": N_("king-capture"),
           "threefold-repetition": N_("threefold-repetition"),
           "fifty-move-rule": N_("fifty-move-rule"), "resignation": N_("resignation"),
           "adjudication": N_("adjudication"), "abandoned": N_("abandoned"),
           "max-plies": N_("drawn at the ply limit"),
           "time-limit": N_("stopped by the time limit")}


def _russian(language: str | None = None) -> bool:
    return (language or get_language()) == "ru"


def by_language(english: T, russian: T, language: str | None = None) -> T:
    """``english`` or ``russian`` by the language in force (or ``language``): for what is
    not a sentence the catalogue can hold, such as a board's set of strip letters."""
    return russian if _russian(language) else english


def piece_names_first() -> bool:
    """Whether a piece's own name in the language in force is its Russian name: a list of
    names then needs no Russian beside it (the English one shows both)."""
    return _russian()


def kind_name(kind: Any) -> str:
    """A role's name: ``volkhv`` in English, ``волхв`` in Russian."""
    return str(kind.russian if _russian() else kind.name)


def kind_glossed(kind: Any) -> str:
    """A role's name with the Russian beside it in English: ``knyaz (князь)``; ``князь``."""
    return str(kind.russian) if _russian() else f"{kind.name} ({kind.russian})"


def kind_with_analogue(kind: Any) -> str:
    """``volkhv (волхв, moves like a king)``; ``волхв, ходит как король``."""
    if _russian():
        return _("{piece}, moves like a {analogue}").format(piece=kind.russian,
                                                          analogue=_(kind.english))
    return f"{kind.name} ({kind.russian}, moves like a {kind.english})"


def tavrel_name(color: int, kind: Any) -> str:
    """A tavrel by colour and role: ``white luchnik``; ``лучник белых``."""
    if _russian():
        side = _("{piece} of white") if color == 0 else _("{piece} of black")
        return side.format(piece=kind.russian)
    return f"{COLOR_NAMES[color]} {kind.name}"


def tavrel_glossed(color: int, kind: Any) -> str:
    """A tavrel by colour and role with the Russian name beside it in English:
    ``white luchnik (лучник)``; ``лучник белых``."""
    if _russian():
        return tavrel_name(color, kind)
    return f"{COLOR_NAMES[color]} {kind.name} ({kind.russian})"


def legend_row(letter: str, kind: Any) -> list[str]:
    """A strip legend's row: letter, name, Russian name (empty where the name is the
    Russian one), chess analogue, move-text letter."""
    if _russian():
        return [letter, kind.russian, "", _(kind.english), kind.letter]
    return [letter, kind.name, kind.russian, kind.english, kind.letter]


def labelled(values: Sequence[str], label: Any) -> list[Any]:
    """Choices for a picker: the values themselves in English (they are what a user
    types), ``(label(value), value)`` pairs in Russian."""
    if not _russian():
        return list(values)
    return [(label(v), v) for v in values]


def number(value: float) -> str:
    """A number as the language in force writes it: ``0.5``; ``0,5``."""
    text = f"{value:g}"
    return text.replace(".", ",") if _russian() else text


def ending_name(termination: str) -> str:
    """A record's Termination tag as a reader is told it (an unknown one as written)."""
    known = ENDINGS.get(termination)
    return _(known) if known is not None else termination


def tavrel_described(t: Any, pieces: Any) -> str:
    """``white ratnik (ратник, pawn)``; a promoted ratnik says what it became. In Russian
    the Russian name leads and the chess analogue follows in its Russian name:
    ``ратник белых (пешка)``."""
    pk = pieces.by_kind[t.kind]
    if _russian():
        side = _("{piece} of white") if t.color == 0 else _("{piece} of black")
        if t.promoted and t.destiny:
            dk = pieces.by_kind[t.destiny]
            return _("{piece}, promoted to {destiny} ({analogue})").format(
                piece=side.format(piece=pk.russian), destiny=dk.russian,
                analogue=_(dk.english))
        if pk.russian == _(pk.english):
            return side.format(piece=pk.russian)
        return f"{side.format(piece=pk.russian)} ({_(pk.english)})"
    color = COLOR_NAMES[t.color]
    if t.promoted and t.destiny:
        dk = pieces.by_kind[t.destiny]
        return (f"{color} {pk.name} promoted to {dk.name} "
                f"({pk.russian} → {dk.russian}; {pk.english} → {dk.english})")
    if pk.english == pk.name:
        return f"{color} {pk.name} ({pk.russian})"
    return f"{color} {pk.name} ({pk.russian}, {pk.english})"
