"""Move text (docs/rules.md A10): a tolerant reader and a canonical writer.

Canonical form: ``e2-e4`` moves the whole tower, ``f3(2)-f6`` the top two
tavrels, ``x`` replaces ``-`` when the unit lands on a tower (forming one or
taking prisoners), ``0-0`` / ``0-0-0`` castle, ``=Q`` names a promotion where
the variant lets the mover choose.

The reader accepts what real records contain: upper-case squares (``F4``),
Cyrillic look-alike letters (``с6``), ``-`` ``x`` ``:`` or no separator,
spaces around it, and trailing ``+ # x ! ? *``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tavrei_lab.core.move import Move
from tavrei_lab.errors import NotationError
from tavrei_lab.i18n import gettext as _
from tavrei_lab.i18n import ngettext

if TYPE_CHECKING:
    from tavrei_lab.core.position import Position

#: Cyrillic (and a few other) letters that look like, or transliterate to, the
#: Latin letters used in square names and castling.
_LOOKALIKES = str.maketrans({
    "а": "a", "А": "a", "в": "b", "В": "b", "б": "b", "Б": "b", "с": "c", "С": "c",
    "д": "d", "Д": "d", "е": "e", "Е": "e", "ё": "e", "Ё": "e", "ф": "f", "Ф": "f",
    "г": "g", "Г": "g", "н": "h", "Н": "h", "х": "x", "Х": "x", "о": "o", "О": "o",
    "–": "-", "—": "-", "−": "-", "‐": "-", "‑": "-", "‒": "-", "×": "x",
})

MAX_MOVE_CHARS = 64

# Each run of spaces is matched by exactly one ``\s*`` (the one before the
# count, the separator or the target square), never by two in a row: with
# ``\s*(...)?\s*(...)?\s*`` a long run of spaces in movetext had cubically
# many ways to split, and a 3,000-space gap took 40 s to refuse.
MOVE_RE = re.compile(
    r"(?P<from>[a-z][0-9]{1,2})\s*(?:\(\s*(?P<count>[0-9]{1,3})\s*\)\s*)?"
    r"(?:(?P<sep>[-x:])\s*)?(?P<to>[a-z][0-9]{1,2})"
    r"(?:\s*=\s*(?P<promo>[a-z]))?")
CASTLE_RE = re.compile(r"(?P<castle>[0o]-[0o](?:-[0o])?)")
#: What may follow a move's text: check and mate marks, a capture mark, annotations.
MOVE_SUFFIX = re.compile(r"[+#x!?*]*")


def normalize(text: str) -> str:
    """Fold the text to the plain lower-case form the grammar is written in."""
    if text.isascii():  # NFKC and the look-alikes leave ASCII as it is
        return text.lower()
    return unicodedata.normalize("NFKC", text).translate(_LOOKALIKES).lower()


@dataclass(frozen=True)
class MoveSpec:
    """What a move text says, before a position gives it meaning.

    ``count`` is None when the text names no count (the whole tower).
    ``castle`` is ``"short"`` (``0-0``), ``"long"`` (``0-0-0``) or None.
    """

    text: str
    from_square: str = ""
    to_square: str = ""
    count: int | None = None
    promotion: str = ""
    castle: str | None = None
    separator: str = ""
    suffix: str = ""


def match_move(normalized: str, pos: int = 0) -> re.Match[str] | None:
    """Match a move (without suffix) at ``pos`` of normalized text."""
    m = CASTLE_RE.match(normalized, pos)
    if m:
        return m
    return MOVE_RE.match(normalized, pos)


def parse_move_spec(text: str) -> MoveSpec:
    """Read one move text; raises ``NotationError`` naming what is wrong.

    >>> parse_move_spec("F3 (2) x f6+").count
    2
    >>> parse_move_spec("b1 e1").to_square
    'e1'
    """
    if not isinstance(text, str):
        raise NotationError(_("a move must be text, got {type}").format(
            type=type(text).__name__), str(text))
    if len(text) > MAX_MOVE_CHARS:
        raise NotationError(_("move text is {size} characters long; a move is at most "
                              "{limit}").format(size=len(text), limit=MAX_MOVE_CHARS),
                            text[:MAX_MOVE_CHARS] + "...")
    norm = normalize(text).strip()
    if not norm:
        raise NotationError(_("empty move text"), text)
    m = match_move(norm)
    if m is None:
        raise NotationError(_("{text} is not a move: expected e.g. e2-e4, f3(2)-f6, b2xd4 or "
                              "0-0").format(text=repr(text)), text)
    rest = norm[m.end():].strip()
    sm = MOVE_SUFFIX.fullmatch(rest)
    if sm is None:
        raise NotationError(_("{text} is not a move: unexpected {rest} after {move}").format(
            text=repr(text), rest=repr(rest), move=repr(norm[:m.end()])), text)
    if m.re is CASTLE_RE:
        castle = "long" if m.group("castle").count("-") == 2 else "short"
        return MoveSpec(text=text, castle=castle, suffix=rest)
    count = m.group("count")
    if count is not None and int(count) == 0:
        raise NotationError(_("{text}: a move takes at least one tavrel, not 0").format(
            text=repr(text)), text)
    return MoveSpec(text=text, from_square=m.group("from"), to_square=m.group("to"),
                    count=int(count) if count else None, promotion=m.group("promo") or "",
                    separator=m.group("sep") or "", suffix=rest)


def write_move(position: Position, move: Move) -> str:
    """The canonical text of ``move`` played in ``position``.

    >>> from tavrei_lab import Game
    >>> g = Game()
    >>> write_move(g.position, g.parse_move("e2e4"))
    'e2-e4'
    """
    g = position.geometry
    # checked cheaply (the board writes every move of a 20,000-move game at each step)
    if not isinstance(move, Move) and not all(
            hasattr(move, f) for f in ("from_square", "count", "to_square", "promotion",
                                       "castling")):
        raise NotationError(_("not a move: {move}").format(move=repr(move)[:110]),
                            repr(move)[:120])
    if not (type(move.from_square) is int and type(move.count) is int
            and type(move.to_square) is int and type(move.promotion) is int):
        raise NotationError(_("not a move: {move}").format(move=repr(move)[:110]),
                            repr(move)[:120])
    if not (0 <= move.from_square < g.size and 0 <= move.to_square < g.size):
        raise NotationError(_("{move}: a square is off the {width}x{height} board").format(
            move=repr(move)[:120], width=g.width, height=g.height), repr(move)[:120])
    if move.castling:
        return "0-0" if move.to_square > move.from_square else "0-0-0"
    tower = position.board[move.from_square]
    if not 1 <= move.count <= max(len(tower), 1):
        raise NotationError(ngettext(
            "{move}: the tower on {square} has {n} tavrel; a move cannot take {count}",
            "{move}: the tower on {square} has {n} tavrels; a move cannot take {count}",
            len(tower)).format(move=repr(move)[:100], square=g.name(move.from_square),
                               n=len(tower), count=move.count), repr(move)[:120])
    if move.promotion and move.promotion not in position.pieces.by_kind:
        raise NotationError(_("{move}: {kind} is not a piece kind").format(
            move=repr(move)[:120], kind=move.promotion), repr(move)[:120])
    return write_legal_move(position, move)


def write_legal_move(position: Position, move: Move) -> str:
    """``write_move`` without its checks, for a move the rule module has just
    generated in ``position`` (a tree writes one for every node it grows).

    >>> from tavrei_lab import Game
    >>> g = Game()
    >>> [write_legal_move(g.position, m) for m in g.legal_moves()][:2]
    ['a1xa2', 'a1xb1']
    """
    if move.castling:
        return "0-0" if move.to_square > move.from_square else "0-0-0"
    g = position.geometry
    names = g.names
    tower = position.board[move.from_square]
    text = names[move.from_square]
    if move.count < len(tower):
        text += f"({move.count})"
    dest = position.board[move.to_square]
    capture_ep = (not dest and move.to_square == position.ep_square
                  and tower and tower[-1].acting_kind == 6
                  and (move.to_square - move.from_square) % g.width != 0)
    text += ("x" if dest or capture_ep else "-") + names[move.to_square]
    if move.promotion:
        text += "=" + position.pieces.letter(move.promotion)
    return text
