"""A position written as standard FEN, the position text of chess.

FEN holds one piece a square, so only a position with no tower has one (the
variants where ``notation.san.plays_chess`` holds). Its fields are the ones
every chess program reads: the board, the side to move, the castling rights
(``KQkq``), the en passant square, the halfmove clock and the fullmove number.
As the common chess libraries write it, the en passant square is given only
when a legal en passant capture exists, and the castling rights only where the
king and that rook both stand unmoved on their set-up squares.

Reading FEN is ``notation.position_string.read_position`` (it reads both).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tavrei_lab.core.tavrel import COLOR_BIT, KIND_OF, KING, MOVED, PAWN, PROMOTED, ROOK
from tavrei_lab.errors import PositionError
from tavrei_lab.i18n import gettext as _

if TYPE_CHECKING:
    from tavrei_lab.core.position import Position

#: The set-up squares of each rule module's kings and rooks (see ``_homes``), by ``id``,
#: holding the rules themselves so that the id cannot be reused.
_HOMES: dict[int, tuple[Any, tuple[tuple[int | None, int | None],
                                   tuple[frozenset[int], frozenset[int]]]]] = {}


def plays_chess(rules: Any) -> bool:
    """Whether ``rules`` can be written in chess notation (SAN, FEN): no tower can
    form (no prisoners, no own towers, no splits) and no die is rolled."""
    return (not rules.prisoners and not rules.splits and not rules.has_chance
            and rules.options.get("own_towers") is False)


def _homes(rules: Any) -> tuple[tuple[int | None, int | None],
                                tuple[frozenset[int], frozenset[int]]]:
    """Where each side's king and rooks stand in the variant's set-up: castling is
    between those squares, so a right exists only while they are there unmoved."""
    entry = _HOMES.get(id(rules))
    if entry is not None and entry[0] is rules:
        return entry[1]
    start = rules.initial_position()
    w = start.geometry.width
    kings: list[int | None] = [None, None]
    for s, tower in enumerate(start.board):
        if tower and tower[-1].kind == KING:
            kings[tower[-1].color] = s
    rooks: list[set[int]] = [set(), set()]
    for s, tower in enumerate(start.board):
        if tower and tower[-1].kind == ROOK:
            home = kings[tower[-1].color]
            if home is not None and s // w == home // w:
                rooks[tower[-1].color].add(s)
    homes = ((kings[0], kings[1]), (frozenset(rooks[0]), frozenset(rooks[1])))
    if len(_HOMES) > 64:
        _HOMES.clear()
    _HOMES[id(rules)] = (rules, homes)
    return homes


def _unmoved(tower: tuple[int, ...], color: int, kind: int) -> bool:
    if len(tower) != 1:
        return False
    t = tower[0]
    return (t & COLOR_BIT == color and KIND_OF[t] == kind and not t & MOVED
            and not t & PROMOTED)


def castling_field(position: Position) -> str:
    """The castling rights as FEN writes them (``KQkq``, ``-`` for none)."""
    (kings, rooks) = _homes(position.rules)
    board = position.board
    out = ""
    for color, (short, long) in ((0, "KQ"), (1, "kq")):
        home = kings[color]
        if home is None or not _unmoved(board[home], color, KING):
            continue
        if any(s > home and _unmoved(board[s], color, ROOK) for s in rooks[color]):
            out += short
        if any(s < home and _unmoved(board[s], color, ROOK) for s in rooks[color]):
            out += long
    return out or "-"


def legal_ep_square(position: Position) -> int | None:
    """The en passant square if a legal en passant capture lands there, else None."""
    ep = position.ep_square
    if ep is None or position.rules.live_ep_square(position) is None:
        return None
    board = position.board
    width = position.geometry.width
    for m in position.rules.legal_moves(position):
        if (m.to_square == ep and not m.castling and board[m.from_square]
                and board[m.from_square][-1].acting_kind == PAWN
                and m.from_square % width != ep % width):
            return ep
    return None


#: FEN texts of ranks already written, by piece set (``id``, the set kept) and the rank's
#: towers: a move changes one or two ranks, so a game's positions share most of theirs.
_FEN_RANKS: dict[int, tuple[Any, dict[tuple[Any, ...], str]]] = {}
_FEN_RANKS_LIMIT = 100_000


def _fen_rank(rank: tuple[Any, ...], pieces: Any, names: tuple[str, ...]) -> str:
    row, empty = "", 0
    for i, tower in enumerate(rank):
        if not tower:
            empty += 1
            continue
        if len(tower) > 1:
            raise PositionError(_("a tower of {height} stands on {square}: FEN holds one "
                                  "piece a square (the position string holds towers)")
                                .format(height=len(tower), square=names[i]), where=names[i])
        if empty:
            row += str(empty)
            empty = 0
        t = tower[0]
        letter = pieces.letter(t.acting_kind)
        row += letter if t.color == 0 else letter.lower()
    return row + (str(empty) if empty else "")


def fen_board(position: Position) -> str:
    """The board field of FEN; a tower (two or more pieces on a square) has none."""
    g = position.geometry
    pieces = position.pieces
    entry = _FEN_RANKS.get(id(pieces))
    if entry is None or entry[0] is not pieces or len(entry[1]) >= _FEN_RANKS_LIMIT:
        entry = _FEN_RANKS[id(pieces)] = (pieces, {})
    cache = entry[1]
    board = position.board
    w = g.width
    ranks = []
    for r in range(g.height - 1, -1, -1):
        rank = board[r * w:(r + 1) * w]
        text = cache.get(rank)
        if text is None:
            text = cache[rank] = _fen_rank(rank, pieces, g.names[r * w:(r + 1) * w])
        ranks.append(text)
    return "/".join(ranks)


def write_fen(position: Position) -> str:
    """The position as standard FEN (six fields).

    >>> from tavrei_lab import Game
    >>> write_fen(Game("orthodox").position)
    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'
    """
    if not plays_chess(position.rules):
        raise PositionError(_("{variant} is no chess: its towers and tavrels have no FEN; "
                              "the position string is position.string").format(
            variant=position.rules.variant.id))
    ep = legal_ep_square(position)
    return (f"{fen_board(position)} {'wb'[position.turn]} {castling_field(position)} "
            f"{'-' if ep is None else position.geometry.name(ep)} {position.halfmove_clock} "
            f"{position.fullmove_number}")


__all__ = ["castling_field", "fen_board", "legal_ep_square", "plays_chess", "write_fen"]
