"""Finding the legal move a text or a ``Move`` names, or saying why there is none.

A learner's typing is most of what is refused here, so a refusal says what to do
about it (``why_illegal``): no tower on the square, the other side's tower, a split
the variant forbids, a volkhv left attacked, a die face that does not allow it.
Only the moves between the two named squares are generated, not every legal move.
"""

from __future__ import annotations

from tavrei_lab.core import speech
from tavrei_lab.core.move import Move
from tavrei_lab.core.position import Position
from tavrei_lab.core.tavrel import KING
from tavrei_lab.errors import IllegalMoveError, NotationError
from tavrei_lab.i18n import gettext as _
from tavrei_lab.i18n import ngettext
from tavrei_lab.notation.moves import MoveSpec, write_move
from tavrei_lab.rules.base import RuleModule


def match(pos: Position, rules: RuleModule, move: Move, ply: int) -> Move:
    """The legal move in ``pos`` that ``move`` is (castling given as a plain volkhv move,
    e1-g1, is the castling move); ``ply`` is the ply it would be, for the error."""
    if rules.is_chance_node(pos):
        raise IllegalMoveError(_("{move}: roll the die first (no move is playable before "
                                 "the roll)").format(move=safe_text(pos, move)),
                               move_text=safe_text(pos, move), ply=ply,
                               position=pos.string)
    # only the moves between the move's squares can be it (a castling too)
    legal = rules.legal_moves_from(pos, move.from_square, move.to_square)
    if move in legal:
        return move
    for m in legal:  # castling given as a plain volkhv move, e.g. e1-g1
        if m.key == move.key and m.promotion == move.promotion:
            return m
    raise IllegalMoveError(why_illegal(pos, rules, move.from_square, move.count,
                                       move.to_square, legal),
                           move_text=safe_text(pos, move), ply=ply, position=pos.string)


def safe_text(pos: Position, move: Move) -> str:
    """The move's text, or its repr when it names squares or layers the board lacks."""
    try:
        return write_move(pos, move)
    except (IndexError, KeyError, NotationError):
        return repr(move)[:120]


def resolve(pos: Position, rules: RuleModule, spec: MoveSpec, ply: int) -> Move:
    """The legal move in ``pos`` that read move text (``spec``) names; ``ply`` is the ply
    it would be, for the error."""
    if rules.is_chance_node(pos):
        raise IllegalMoveError(_("{move}: roll the die first").format(move=repr(spec.text)),
                               move_text=spec.text, ply=ply)
    g = pos.geometry
    if spec.castle:
        for m in rules.legal_moves(pos):
            if m.castling and (m.to_square > m.from_square) == (spec.castle == "short"):
                return m
        said = (_("short (0-0) castling is not legal here") if spec.castle == "short"
                else _("long (0-0-0) castling is not legal here"))
        raise IllegalMoveError(said, move_text=spec.text, ply=ply)
    index = g.index_of   # (``g.parse``'s dictionary; it says what is wrong on a miss)
    fr = index.get(spec.from_square)
    to = index.get(spec.to_square)
    if fr is None or to is None:
        try:
            fr = g.parse(spec.from_square)
            to = g.parse(spec.to_square)
        except NotationError as exc:
            raise NotationError(_("{text!r}: {reason}").format(text=spec.text,
                                                                 reason=exc.args[0]),
                                text=spec.text) from None
    count = spec.count if spec.count is not None else len(pos.board[fr])
    promo = 0
    if spec.promotion:
        letter = spec.promotion.upper()
        if letter not in pos.pieces.by_letter:
            raise NotationError(_("{text!r}: {promotion!r} is not a piece letter").format(
                text=spec.text, promotion=spec.promotion),
                                text=spec.text)
        promo = pos.pieces.kind(letter)
    # the text names its squares: only the moves between them can match
    legal = rules.legal_moves_from(pos, fr, to)
    if len(legal) == 1 and not promo:   # the common case: one move between the squares
        m = legal[0]
        if m.count == count and m.from_square == fr and m.to_square == to:
            return m
    found = [m for m in legal if m.key == (fr, count, to)]
    if promo:
        found = [m for m in found if m.promotion == promo]
    if len(found) == 1 or (found and not promo and all(m.castling for m in found)):
        return found[0]
    if len(found) > 1:
        letters = ", ".join(pos.pieces.letter(m.promotion) for m in found)
        raise IllegalMoveError(_("{move}: name the promotion (={letters})").format(
            move=repr(spec.text), letters=letters), move_text=spec.text, ply=ply)
    raise IllegalMoveError(_("{move}: {reason}").format(
                               move=repr(spec.text),
                               reason=why_illegal(pos, rules, fr, count, to, legal)),
                           move_text=spec.text, ply=ply, position=pos.string)


def why_illegal(pos: Position, rules: RuleModule, fr: int, count: int, to: int,
                legal: list[Move]) -> str:
    """A reason a learner can act on, in the language in force (a whole sentence per
    case, so a translation can put the words in its own order)."""
    g = pos.geometry
    names = pos.pieces

    def named(kind: int) -> str:
        return speech.kind_name(names.by_kind[kind])

    if not (0 <= fr < g.size and 0 <= to < g.size):
        return _("a square is off the board")
    a, b = g.name(fr), g.name(to)
    tower = pos.board[fr]
    if not tower:
        return _("there is no tower on {square}").format(square=a)
    top = tower[-1]
    if top.color != pos.turn:
        said = (_("the tower on {square} is white's; it is black's move") if top.color == 0
                else _("the tower on {square} is black's; it is white's move"))
        return said.format(square=a)
    if not 1 <= count <= len(tower):
        return ngettext("the tower on {square} has {height} tavrel(s); cannot take {count}",
                        "the tower on {square} has {height} tavrel(s); cannot take {count}",
                        len(tower)).format(square=a, height=len(tower), count=count)
    if count < len(tower) and not rules.splits:
        return _("towers may not be split in this variant")
    dest = pos.board[to]
    if dest and dest[-1].kind == KING and not rules.king_capture:
        return _("nothing may be placed on a {king} ({square})").format(
            king=named(KING), square=b)
    if any(m.key == (fr, count, to) for m in rules.pseudo_moves(pos)):
        return _("it would leave the {king} attacked").format(king=named(KING))
    if pos.roll is not None:
        return _("the die shows {face}: the {piece} on {square} may not move, or cannot "
                 "reach {to}").format(face=pos.roll, piece=named(top.acting_kind),
                                      square=a, to=b)
    return _("the {piece} on {square} cannot move to {to}").format(
        piece=named(top.acting_kind), square=a, to=b)


__all__ = ["match", "resolve", "safe_text", "why_illegal"]
