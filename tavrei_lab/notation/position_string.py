"""The position string: one line that carries a whole Tavreli position.

It extends FEN so that stacks read bottom to top, as in Tak's TPS::

    <ranks> <side> <en passant> <halfmove clock> <fullmove number> [@<roll>]

- ``<ranks>``: from the top rank down to rank 1, separated by ``/``. In a
  rank, a number is that many empty squares, a tavrel token is a tower of one,
  and ``(`` tokens ``)`` is a tower listed **bottom to top**.
- A tavrel token is the piece letter (upper case white, lower case black),
  then ``:X`` the destiny of a ratnik (the role letter it promotes to), then
  ``*`` if promoted, then ``'`` if it has moved -- written only for the kinds
  where that matters (volkhv and ratoborets: castling; ratnik: double step).
- ``<en passant>``: the square a ratnik just crossed with a double step, or ``-``.
- ``@<roll>``: in die games, the face rolled and not yet used.

The Tavreli start::

    rslkvlsr/p:Rp:Sp:Lp:Kp:Hp:Lp:Sp:R/8/8/8/8/P:RP:SP:LP:KP:HP:LP:SP:R/RSLKVLSR w - 0 1

A white tower on e1 (ratoborets at the bottom, then two ratniks, then a black
knyaz on top) is ``(RP:L'P:S'k)``.

Standard six-field FEN is read too (castling rights set the moved flags of
volkhvs and ratoborets; ratniks on their second rank may double-step; each
ratnik's destiny is the one of its file in the variant's set-up).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from tavrei_lab.core.position import MAX_CLOCK, MAX_TAVRELS, MAX_TOWER_HEIGHT, Position
from tavrei_lab.core.tavrel import KING, MOVED, MOVED_MATTERS, PAWN, ROOK, Tavrel

# Writing needs only the model, so it lives in core; the names stay importable from here.
from tavrei_lab.core.text import (
    position_text,
    repetition_key,
    tavrel_token,
    write_board,
    write_position,
)
from tavrei_lab.errors import LimitError, NotationError, PositionError
from tavrei_lab.i18n import gettext as _

if TYPE_CHECKING:  # a type only: notation sits below rules (docs/architecture.md)
    from tavrei_lab.core.geometry import Geometry
    from tavrei_lab.core.pieces import PieceSet
    from tavrei_lab.rules.base import RuleModule

#: Limits on what a position string may ask for (see the robustness notes).
MAX_POSITION_CHARS = 20_000
# MAX_TAVRELS, MAX_TOWER_HEIGHT, MAX_CLOCK: the model's own limits (core.position),
# enforced here while reading; ``core.position.check_limits`` enforces them everywhere else.

_TOKEN = re.compile(r"([A-Za-z])(?::([A-Za-z]))?(\*)?(')?")
_CASTLING_FIELD = re.compile(r"(-|[KQkq]{1,4})\Z")
_ASCII_DIGITS = "0123456789"
_EMPTY_RUN = re.compile(r"[0-9]+")


def _fail(msg: str, text: str, where: str = "") -> PositionError:
    return PositionError(_("position string: {reason}").format(reason=msg), text=text, where=where)


def _rank(r: int) -> str:
    """A rank as an error names it, in the reader's language (only built on an error)."""
    return _("rank {number}").format(number=r + 1)


def read_position(text: str, rules: RuleModule, validate: bool = True) -> Position:
    """Parse a position string (or a standard FEN) for ``rules``.

    Raises ``PositionError`` naming the field, rank or square at fault.
    """
    if not isinstance(text, str):
        raise _fail(_("expected text, got {kind}").format(kind=type(text).__name__), repr(text))
    if len(text) > MAX_POSITION_CHARS:
        raise LimitError(_("position string is {size} characters; the limit is {limit}").format(
            size=len(text), limit=MAX_POSITION_CHARS))
    fields = text.split()
    if not fields:
        raise _fail(_("empty"), text)
    roll = None
    if fields[-1].startswith("@"):
        roll = fields.pop()[1:]
        if not roll:
            raise _fail(_("'@' must be followed by a die face"), text, "roll")
    fen = (len(fields) == 6 and _CASTLING_FIELD.match(fields[2]) is not None
           and re.match(r"(-|[a-zA-Z][0-9]{1,2})\Z", fields[3]) is not None
           and fields[4].isdigit() and fields[5].isdigit())
    if fen:
        castling = fields.pop(2)
    elif len(fields) != 5:
        raise _fail(_("expected 5 fields (board, side, en passant, halfmove clock, fullmove "
                      "number) or a 6-field FEN, got {count}").format(count=len(fields)), text)
    board_text, side, ep_text, half, full = fields
    g = rules.geometry
    pieces = rules.pieces
    rows = board_text.split("/")
    if len(rows) != g.height:
        raise _fail(_("{count} ranks, but the board has {height}").format(
            count=len(rows), height=g.height), text, "board")
    board: list[tuple[Tavrel, ...]] = [()] * g.size
    total = 0
    for i, row in enumerate(rows):
        r = g.height - 1 - i
        f = 0
        pos = 0
        rank_where = f"rank {r + 1}"
        while pos < len(row):
            c = row[pos]
            if c in _ASCII_DIGITS:  # str.isdigit() would let "²" and "٣" in
                m = _EMPTY_RUN.match(row, pos)
                assert m is not None
                # at most 3 digits: int() of a 5,000-digit run raises ValueError
                n = int(m.group()) if len(m.group()) <= 3 else 0
                if n == 0 or n > g.width:
                    raise _fail(_("{rank}: bad count of empty squares {run}").format(
                        rank=_rank(r), run=repr(m.group()[:12])), text, rank_where)
                f += n
                pos += len(m.group())
                continue
            if f >= g.width:
                raise _fail(_("{rank} has more than {width} squares").format(
                    rank=_rank(r), width=g.width), text, rank_where)
            square = g.names[r * g.width + f]
            if c == "(":
                end = row.find(")", pos)
                if end < 0:
                    raise _fail(_("{square}: tower opened with '(' is never closed").format(
                        square=square), text, square)
                body = row[pos + 1:end]
                pos = end + 1
            else:
                m = _TOKEN.match(row, pos)
                if m is None:
                    raise _fail(_("{rank}: unexpected {char}").format(rank=_rank(r), char=repr(c)),
                                text, rank_where)
                body = m.group()
                pos = m.end()
            tower = _read_tower(body, square, pieces, text, g, r)
            total += len(tower)
            if total > MAX_TAVRELS:
                raise LimitError(_("position string: more than {limit} tavrels on the board (the "
                                   "limit), counting up to {square}").format(
                    limit=MAX_TAVRELS, square=square))
            board[r * g.width + f] = tower
            f += 1
        if f != g.width:
            raise _fail(_("{rank} has {count} squares, expected {width}").format(
                rank=_rank(r), count=f, width=g.width), text, rank_where)
    if side not in ("w", "b"):
        raise _fail(_("side to move must be 'w' or 'b', got {side}").format(side=repr(side)),
                    text, "side")
    turn = 0 if side == "w" else 1
    ep = None
    if ep_text != "-":
        try:
            ep = g.parse(ep_text.lower())
        except NotationError:
            raise _fail(_("en passant square {square} is not a square of this board").format(
                square=repr(ep_text)), text, "en passant") from None
    clocks = []
    for name, value in (("halfmove clock", half), ("fullmove number", full)):
        said = _(name)
        if not value.isdigit() or not value.isascii():
            raise _fail(_("{field} must be a whole number, got {value}").format(
                field=said, value=repr(value)), text, name)
        # compare digit counts first: int() refuses runs of more than 4,300 digits
        digits = value.lstrip("0") or "0"
        if len(digits) > len(str(MAX_CLOCK)) or int(digits) > MAX_CLOCK:
            shown = digits if len(digits) <= 20 else f"{digits[:20]}... ({len(digits)} digits)"
            raise LimitError(_("position string: {field} {value} is over the limit {limit}").format(
                field=said, value=shown, limit=MAX_CLOCK))
        clocks.append(int(digits))
    if clocks[1] < 1:
        raise _fail(_("fullmove number starts at 1"), text, "fullmove number")
    if fen:
        _apply_fen_rights(board, castling, rules, text)
    if validate and roll is not None and not rules.has_chance:
        # without a die the face would ride along in every later position string
        raise _fail(_("'@{roll}': a die face belongs only to die games, and {variant} has "
                      "no die").format(roll=roll[:20], variant=rules.variant.id), text, "roll")
    position = Position(rules, tuple(board), turn, ep, clocks[0], clocks[1], roll)  # type: ignore[arg-type]
    if validate:
        rules.validate(position)
    return position


def _read_tower(body: str, square: str, pieces: PieceSet, text: str, g: Geometry,
                rank: int) -> tuple[Tavrel, ...]:
    tower = []
    pos = 0
    if not body:
        raise _fail(_("{square}: empty tower '()'").format(square=square), text, square)
    while pos < len(body):
        m = _TOKEN.match(body, pos)
        if m is None:
            raise _fail(_("{square}: unexpected {char} in a tower").format(
                square=square, char=repr(body[pos])), text, square)
        letter, destiny, star, moved = m.groups()
        if letter.upper() not in pieces.by_letter:
            raise _fail(_("{square}: unknown piece letter {letter} (this variant uses "
                          "{letters})").format(square=square, letter=repr(letter),
                                               letters="".join(pieces.by_letter)),
                        text, square)
        kind = pieces.kind(letter)
        color = 0 if letter.isupper() else 1
        d = 0
        if destiny:
            if kind != PAWN:
                raise _fail(_("{square}: only a ratnik has a destiny ({token})").format(
                    square=square, token=repr(m.group())), text, square)
            if destiny.upper() not in pieces.by_letter or pieces.kind(destiny) in (KING, PAWN):
                raise _fail(_("{square}: {destiny} is not a destiny a ratnik can have").format(
                    square=square, destiny=repr(destiny)), text, square)
            d = pieces.kind(destiny)
        if star and not d:
            raise _fail(_("{square}: '*' (promoted) needs a ratnik with a destiny").format(
                square=square), text, square)
        if moved and kind not in MOVED_MATTERS:
            raise _fail(_("{square}: the moved mark ' is only kept for the kinds where it matters "
                          "({letters})").format(
                square=square, letters=", ".join(pieces.letter(k) for k in MOVED_MATTERS)),
                text, square)
        tower.append(Tavrel.make(color, kind, d, bool(star), bool(moved)))
        pos = m.end()
        if len(tower) > MAX_TOWER_HEIGHT:
            raise LimitError(_("position string: tower on {square} is taller than the limit of "
                               "{limit} tavrels").format(square=square, limit=MAX_TOWER_HEIGHT))
    return tuple(tower)


def _apply_fen_rights(board: list[tuple[Tavrel, ...]], castling: str, rules: RuleModule,
                      text: str) -> None:
    """FEN has no per-piece flags: derive them from castling rights and ranks."""
    g = rules.geometry
    w = g.width
    destinies = rules.default_destinies()
    rights = set(castling) - {"-"}
    for color, back, second in ((0, 0, 1), (1, g.height - 1, g.height - 2)):
        king_letter, queen_letter = ("K", "Q") if color == 0 else ("k", "q")
        king_sq = None
        for f in range(w):
            here = board[back * w + f]
            if here and here[-1].kind == KING and here[-1].color == color:
                king_sq = back * w + f
        for s, tower in enumerate(board):
            new: list[Tavrel] = []
            for t in tower:
                moved = True
                if t.kind == PAWN and t.color == color:
                    moved = s // w != second
                    if not t.destiny and (color, s % w) in destinies:
                        t = Tavrel(t | (destinies[(color, s % w)] << 4))
                elif t.kind == KING and t.color == color:
                    moved = not (s == king_sq and ({king_letter, queen_letter} & rights))
                elif t.kind == ROOK and t.color == color and king_sq is not None \
                        and s // w == back:
                    side = king_letter if s > king_sq else queen_letter
                    outer = all(not board[x] or board[x][-1].kind != ROOK
                                for x in (range(s + 1, back * w + w) if s > king_sq
                                          else range(back * w, s)))
                    moved = not (side in rights and outer)
                elif t.color != color:
                    new.append(t)
                    continue
                new.append(Tavrel(t | MOVED) if moved and t.kind in MOVED_MATTERS
                           else Tavrel(t & ~MOVED))
            board[s] = tuple(new)


__all__ = ["MAX_CLOCK", "MAX_POSITION_CHARS", "position_text", "read_position", "repetition_key",
           "tavrel_token", "write_board", "write_position"]
