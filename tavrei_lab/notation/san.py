"""Standard Algebraic Notation (SAN), the move text of chess records.

SAN names the piece and where it goes (``Nf3``, ``exd5``, ``e8=Q``, ``O-O``,
``Qh4xe1+``), and the square it comes from only as far as needed to tell two
pieces apart (``Nbd7``, ``R1e2``). It says nothing of towers, so it is written
and read only in variants where a square holds one piece at most and no die is
rolled: ``plays_chess(rules)``, orthodox chess among the shipped variants.

The reader follows the PGN standard and the habits of real files: ``0-0`` for
``O-O``, ``e8Q`` for ``e8=Q``, a from-square given in full (``g1f3``, ``e2-e4``:
then any piece on it, castling as ``e1g1`` too), and check marks or
annotation glyphs after the move (``Nf3+!?``), which are not checked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tavrei_lab.core import speech
from tavrei_lab.core.fen import plays_chess
from tavrei_lab.core.move import Move
from tavrei_lab.core.tavrel import ACTING, COLOR_BIT, PAWN
from tavrei_lab.errors import IllegalMoveError, NotationError
from tavrei_lab.i18n import gettext as _

if TYPE_CHECKING:
    from tavrei_lab.core.position import Position

# (the from-file is never "x": that letter is the capture mark, "Bxf3" no bishop on file x)
SAN_RE = re.compile(
    r"(?:(?P<castle>[O0]-[O0](?:-[O0])?)"
    r"|(?P<piece>[A-Z])?(?P<file>[a-wyz])?(?P<rank>[0-9]{1,2})?(?P<capture>[-x:])?"
    r"(?P<to>[a-z][0-9]{1,2})(?:=?(?P<promo>[A-Za-z]))?)"
    r"(?P<check>[+#]{0,2})(?P<glyph>[!?]{0,2})\Z")

#: What the annotation glyphs after a move mean, as numeric annotation glyphs (NAGs).
GLYPH_NAGS = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}


@dataclass(frozen=True)
class SanSpec:
    """What a SAN text says, before a position gives it meaning.

    ``piece`` is the piece letter (upper case, "" for a pawn or a from-square in
    full), ``from_file``/``from_rank`` the parts of the from-square given (""
    when not), ``castle`` ``"short"``, ``"long"`` or None, ``glyph`` an
    annotation after the move (``!?``)."""

    text: str
    piece: str = ""
    from_file: str = ""
    from_rank: str = ""
    to_square: str = ""
    promotion: str = ""
    castle: str | None = None
    glyph: str = ""


def parse_san(text: str) -> SanSpec | None:
    """What ``text`` says as SAN, or None when it is no SAN at all.

    >>> parse_san("Nbd7+").from_file
    'b'
    >>> parse_san("e8Q").promotion
    'Q'
    """
    m = SAN_RE.match(text.strip())
    if m is None:
        return None
    glyph = m.group("glyph")
    if glyph and glyph not in GLYPH_NAGS:
        return None
    if m.group("castle"):
        return SanSpec(text=text, castle="long" if m.group("castle").count("-") == 2
                       else "short", glyph=glyph)
    return SanSpec(text=text, piece=m.group("piece") or "", from_file=m.group("file") or "",
                   from_rank=m.group("rank") or "", to_square=m.group("to"),
                   promotion=(m.group("promo") or "").upper(), glyph=glyph)


def _acting(position: Position, move: Move) -> int:
    tower = position.board[move.from_square]
    return tower[-1].acting_kind if tower else 0


def _piece_name(position: Position, kind: int) -> str:
    return speech.kind_name(position.pieces.by_kind[kind])


def _matching(position: Position, spec: SanSpec, moves: list[Move]) -> list[Move]:
    """The moves of ``moves`` that ``spec`` may name (promotion not yet looked at)."""
    g = position.geometry
    if spec.castle:
        return [m for m in moves if m.castling
                and (m.to_square > m.from_square) == (spec.castle == "short")]
    to = g.index_of[spec.to_square]
    found = [m for m in moves if m.to_square == to]
    if spec.from_file and spec.from_rank and not spec.piece:   # a from-square in full
        fr = g.index_of.get(spec.from_file + spec.from_rank)
        return [m for m in found if m.from_square == fr]
    kind = position.pieces.kind(spec.piece) if spec.piece else PAWN
    found = [m for m in found if not m.castling and _acting(position, m) == kind]
    if spec.from_file:
        found = [m for m in found if g.names[m.from_square][0] == spec.from_file]
    if spec.from_rank:
        found = [m for m in found if g.names[m.from_square][1:] == spec.from_rank]
    return found


def _legal_for(position: Position, spec: SanSpec) -> list[Move]:
    """The legal moves ``spec`` may name, generated only from the squares it may
    mean (a replay reads every move: the whole list each ply costs twice as much)."""
    rules = position.rules
    g = position.geometry
    me = position.turn
    if spec.castle:
        ks = position.king_square(me)
        return [] if ks is None else rules.legal_moves_from(position, ks)
    to = g.index_of[spec.to_square]
    if spec.from_file and spec.from_rank and not spec.piece:
        squares = [g.index_of[spec.from_file + spec.from_rank]]
    else:
        kind = position.pieces.kind(spec.piece) if spec.piece else PAWN
        squares = [s for s, t in enumerate(position.board)
                   if t and t[-1] & COLOR_BIT == me and ACTING[t[-1]] == kind]
    found: list[Move] = []
    for square in squares:
        found.extend(rules.legal_moves_from(position, square, to))
    return found


def read_san(position: Position, text: str, spec: SanSpec | None = None) -> Move:
    """The legal move that the SAN ``text`` names in ``position``.

    Raises ``NotationError`` for text that is no SAN or names no square or piece of
    this variant, ``IllegalMoveError`` saying why when no legal move (or more than
    one) fits.
    """
    spec = spec or parse_san(text)
    if spec is None:
        raise NotationError(_("{text} is not a chess move: expected e.g. e4, Nf3, exd5, "
                              "e8=Q or O-O").format(text=repr(text[:40])), text)
    pieces = position.pieces
    g = position.geometry
    for letter in (spec.piece, spec.promotion):
        if letter and letter not in pieces.by_letter:
            raise NotationError(_("{text}: {letter} is not a piece letter of this variant "
                                  "({letters})").format(text=repr(text), letter=repr(letter),
                                                         letters="".join(pieces.by_letter)),
                                text)
    full = spec.from_file + spec.from_rank if spec.from_file and spec.from_rank else ""
    for square in (spec.to_square, full):
        if square and square not in g.index_of:
            raise NotationError(_("{text}: {square} is not a square of this board").format(
                text=repr(text), square=square), text)
    found = _matching(position, spec, _legal_for(position, spec))
    if spec.promotion:
        kind = pieces.kind(spec.promotion)
        named = [m for m in found if m.promotion == kind]
        if not named and found and not any(m.promotion for m in found):
            raise IllegalMoveError(_("{text}: this move is no promotion").format(
                text=repr(text)), move_text=text)
        found = named
    elif any(m.promotion for m in found):
        letters = ", ".join(sorted({"=" + pieces.letter(m.promotion) for m in found}))
        raise IllegalMoveError(_("{text}: name the promotion ({letters})").format(
            text=repr(text), letters=letters), move_text=text)
    if len(found) == 1:
        return found[0]
    if found:
        options = " ".join(sorted(write_san(position, m) for m in found))
        raise IllegalMoveError(_("{text} is ambiguous here: it may be {moves}").format(
            text=repr(text), moves=options), move_text=text)
    raise IllegalMoveError(_why_not(position, spec, text), move_text=text)


def _why_not(position: Position, spec: SanSpec, text: str) -> str:
    """Why no legal move fits ``spec``: one sentence per case."""
    if spec.castle:
        return (_("{text}: short castling is not legal here") if spec.castle == "short"
                else _("{text}: long castling is not legal here")).format(text=repr(text))
    rules = position.rules
    if _matching(position, spec, rules.pseudo_moves(position)):
        king = _piece_name(position, 1)
        return _("{text}: it would leave the {king} attacked").format(text=repr(text),
                                                                      king=king)
    if spec.from_file and spec.from_rank and not spec.piece:
        return _("{text}: nothing on {square} can move to {to}").format(
            text=repr(text), square=spec.from_file + spec.from_rank, to=spec.to_square)
    kind = position.pieces.kind(spec.piece) if spec.piece else PAWN
    return _("{text}: no {piece} can move to {square}").format(
        text=repr(text), piece=_piece_name(position, kind), square=spec.to_square)


def write_san(position: Position, move: Move) -> str:
    """The SAN of the legal ``move`` in ``position``, with ``+`` or ``#``.

    >>> from tavrei_lab import Game
    >>> g = Game("orthodox")
    >>> write_san(g.position, g.parse_move("g1-f3"))
    'Nf3'
    """
    rules = position.rules
    names = position.geometry.names
    if move.castling:
        text = "O-O" if move.to_square > move.from_square else "O-O-O"
    else:
        kind = _acting(position, move)
        fr, to = names[move.from_square], names[move.to_square]
        capture = bool(position.board[move.to_square])
        if kind == PAWN:
            capture = capture or fr[0] != to[0]    # a pawn leaves its file only to take
            text = (fr[0] + "x" if capture else "") + to
        else:
            me = position.turn
            others = {s for s, t in enumerate(position.board)
                      if t and s != move.from_square and t[-1] & COLOR_BIT == me
                      and ACTING[t[-1]] == kind and any(
                          not m.castling for m in rules.legal_moves_from(
                              position, s, move.to_square))}
            same_file = any(names[s][0] == fr[0] for s in others)
            same_rank = any(names[s][1:] == fr[1:] for s in others)
            if not others:
                where = ""
            elif not same_file:
                where = fr[0]
            elif not same_rank:
                where = fr[1:]
            else:
                where = fr
            text = position.pieces.letter(kind) + where + ("x" if capture else "") + to
        if move.promotion:
            text += "=" + position.pieces.letter(move.promotion)
    after = rules.apply(position, move)
    if rules.is_check(after):
        text += "+" if rules.has_legal_move(after) else "#"
    return text


__all__ = ["GLYPH_NAGS", "SAN_RE", "SanSpec", "parse_san", "plays_chess", "read_san",
           "write_san"]
