"""Move filters: which kinds of move a tree grows, so a tree stays readable.

A full Tavreli tree is far too big to look at (about 70,000 leaves three
plies from the start), but a lesson is usually about one kind of move:
the splits, the captures, the volkhv's steps. A *filter* is a predicate
``(position, move) -> bool``; ``build(..., moves=...)`` keeps only the moves
it accepts.

Filters compose like sets: ``captures | checks`` keeps either kind,
``splits & frees`` keeps splits that free a prisoner, ``~captures`` keeps the
quiet moves. Wherever a filter is accepted, you may also write

- a name: ``"captures"``, ``"splits"``, ``"volkhv"``, ``"frees"``,
  ``"checks"``, ``"all"``;
- names joined by ``&`` (all of them) or ``,`` / ``|`` (any of them):
  ``"splits&frees"``, ``"captures,checks"``;
- a list of names or filters (any of them);
- any callable ``(position, move) -> bool``.

>>> from tavrei_lab import Game
>>> g = Game()             # the volkhv may step onto its own towers: 5 moves
>>> len([m for m in g.legal_moves() if as_filter("captures")(g.position, m)])
0
>>> len([m for m in g.legal_moves() if as_filter("volkhv | checks")(g.position, m)])
5
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from tavrei_lab.core.move import Move
from tavrei_lab.core.position import Position
from tavrei_lab.core.tavrel import COLOR_BIT, KING, PAWN, acting_kind
from tavrei_lab.errors import NotationError
from tavrei_lab.i18n import gettext as _

Predicate = Callable[[Position, Move], bool]


class MoveFilter:
    """A named predicate on (position, move) that composes with ``|``, ``&``, ``~``."""

    __slots__ = ("name", "predicate")

    def __init__(self, name: str, predicate: Predicate) -> None:
        self.name = name
        self.predicate = predicate

    def __call__(self, position: Position, move: Move) -> bool:
        return bool(self.predicate(position, move))

    def __or__(self, other: Any) -> MoveFilter:
        b = as_filter(other)
        return MoveFilter(f"({self.name} | {b.name})",
                          lambda p, m: self(p, m) or b(p, m))

    def __and__(self, other: Any) -> MoveFilter:
        b = as_filter(other)
        return MoveFilter(f"({self.name} & {b.name})",
                          lambda p, m: self(p, m) and b(p, m))

    def __invert__(self) -> MoveFilter:
        return MoveFilter(f"~{self.name}", lambda p, m: not self(p, m))

    def __repr__(self) -> str:
        return f"<MoveFilter {self.name}>"


# -- facts about one move (shared with the tactic finders) ---------------------

def is_capture(position: Position, move: Move) -> bool:
    """Does the unit land on an enemy-topped tower (taking it prisoner), or en passant?"""
    if move.castling:
        return False
    dest = position.board[move.to_square]
    mover = position.turn
    if dest:
        return dest[-1] & COLOR_BIT != mover
    top = position.board[move.from_square][-1]
    w = position.geometry.width
    return (move.to_square == position.ep_square and acting_kind(top) == PAWN
            and (move.to_square - move.from_square) % w != 0)


def is_split(position: Position, move: Move) -> bool:
    """Does the move take only the top part of a tower, leaving the rest behind?"""
    return not move.castling and move.count < len(position.board[move.from_square])


def is_volkhv_move(position: Position, move: Move) -> bool:
    """Does a volkhv (the king role) move -- a step, a tower it carries, or castling?"""
    top = position.board[move.from_square][-1]
    return move.castling or acting_kind(top) == KING


def freed_prisoner(position: Position, move: Move) -> int | None:
    """The square whose own tavrel this split frees, or None.

    A tavrel is a prisoner while an enemy tavrel sits directly on it. When a
    split carries off everything above it, the left-behind part has that
    tavrel on top and it acts at once (docs/rules.md A3.4). Here "frees" means the
    mover's own tavrel comes back into play.
    """
    if not is_split(position, move):
        return None
    tower = position.board[move.from_square]
    h = len(tower)
    new_top, cover = tower[h - move.count - 1], tower[h - move.count]
    me = position.turn
    if new_top & COLOR_BIT == me and cover & COLOR_BIT != me:
        return move.from_square
    return None


def frees_prisoner(position: Position, move: Move) -> bool:
    """Does the move free one of the mover's own prisoners (see ``freed_prisoner``)?"""
    return freed_prisoner(position, move) is not None


def gives_check(position: Position, move: Move) -> bool:
    """Is the opponent's volkhv attacked after the move?"""
    rules = position.rules
    return bool(rules.is_check(rules.apply(position, move)))


captures = MoveFilter("captures", is_capture)
splits = MoveFilter("splits", is_split)
volkhv = MoveFilter("volkhv", is_volkhv_move)
frees = MoveFilter("frees", frees_prisoner)
checks = MoveFilter("checks", gives_check)
every = MoveFilter("all", lambda p, m: True)

#: The filters a name (or the CLI's ``--filter``) can ask for.
FILTERS: dict[str, MoveFilter] = {
    "captures": captures, "splits": splits, "volkhv": volkhv, "frees": frees,
    "checks": checks, "all": every,
}
_ALIASES = {"capture": "captures", "split": "splits", "volkhv-moves": "volkhv",
            "king": "volkhv", "free": "frees", "frees-prisoner": "frees", "check": "checks"}


def _named(name: str) -> MoveFilter:
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    if key not in FILTERS:
        raise NotationError(_("unknown move filter {name!r}; known: {known} (combine with "
                              "'&' or ',')").format(name=name.strip(), known=", ".join(FILTERS)),
                            text=name)
    return FILTERS[key]


def _parse(text: str) -> MoveFilter:
    """``"a & b, c"``: ``&`` binds tighter than ``,`` / ``|`` (any of)."""
    alternatives = [part for part in text.replace("|", ",").split(",")]
    if not text.strip() or any(not part.strip() for part in alternatives):
        raise NotationError(_("empty move filter in {text!r}").format(text=text), text=text)
    result: MoveFilter | None = None
    for part in alternatives:
        names = part.split("&")
        if any(not n.strip() for n in names):
            raise NotationError(_("empty move filter in {text!r}").format(text=text),
                                text=text)
        term = _named(names[0])
        for n in names[1:]:
            term = term & _named(n)
        result = term if result is None else result | term
    assert result is not None
    return result


def as_filter(spec: Any) -> MoveFilter:
    """Turn any accepted filter spelling (see the module docstring) into a ``MoveFilter``."""
    if isinstance(spec, MoveFilter):
        return spec
    if spec is None:
        return every
    if isinstance(spec, str):
        return _parse(spec)
    if callable(spec):
        return MoveFilter(getattr(spec, "__name__", "custom"), spec)
    if isinstance(spec, Iterable):
        parts = [as_filter(s) for s in spec]
        if not parts:
            raise NotationError(_("an empty list of move filters keeps no move; pass None "
                                  "for every move"), text="[]")
        result = parts[0]
        for p in parts[1:]:
            result = result | p
        return result
    raise TypeError(_("a move filter is a name, a list of names or a callable "
                      "(position, move) -> bool, not {type}").format(type=type(spec).__name__))


def looks_like_filter(text: str) -> bool:
    """Is ``text`` made only of filter names (so it cannot be movetext)?"""
    try:
        _parse(text)
    except NotationError:
        return False
    return True
