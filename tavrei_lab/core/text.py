"""A position written out: the board field of the position string, the whole
string, the repetition key, and the readable listing ``tavrei-lab show`` prints.

Writing needs nothing but the model (piece letters come from the variant's
``PieceSet``), so it lives here and ``Position.string`` can use it; reading a
position string back needs the rule module and lives in
``notation.position_string``, which documents the format.

>>> from tavrei_lab import Game
>>> write_position(Game().position)
'rslkvlsr/p:Rp:Sp:Lp:Kp:Hp:Lp:Sp:R/8/8/8/8/P:RP:SP:LP:KP:HP:LP:SP:R/RSLKVLSR w - 0 1'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from tavrei_lab.core.tavrel import MOVED, PROMOTED, Tavrel
from tavrei_lab.i18n import gettext as _

if TYPE_CHECKING:
    from tavrei_lab.core.geometry import Geometry
    from tavrei_lab.core.pieces import PieceSet
    from tavrei_lab.core.position import Position


def tavrel_token(t: Tavrel, pieces: PieceSet) -> str:
    """One tavrel as the position string writes it: ``P:K'`` is a white ratnik
    destined to be a knyaz that has moved; ``l*`` a black promoted luchnik."""
    letter = pieces.letter(t.kind)
    out = letter if t.color == 0 else letter.lower()
    if t.destiny:
        out += ":" + pieces.letter(t.destiny)
    if t.promoted:
        out += "*"
    if t & MOVED:
        out += "'"
    return out


#: Rank texts already written, per piece set (equal sets write equal text), by the
#: rank's towers. A move changes one or two ranks, so the positions of a game tree
#: share most of theirs: a tree writes each node's position string.
#: Keyed by ``id``, holding the set itself so that the id cannot be reused.
_RANK_TEXT: dict[int, tuple[PieceSet, dict[tuple, str]]] = {}
_RANK_TEXT_LIMIT = 200_000


def _rank_text(rank: tuple, pieces: PieceSet) -> str:
    row = []
    empty = 0
    for tower in rank:
        if not tower:
            empty += 1
            continue
        if empty:
            row.append(str(empty))
            empty = 0
        tokens = "".join(tavrel_token(t, pieces) for t in tower)
        row.append(tokens if len(tower) == 1 else f"({tokens})")
    if empty:
        row.append(str(empty))
    return "".join(row)


#: The slices that cut a board into its ranks, top rank first, by geometry.
_RANK_SLICES: dict[Geometry, tuple[slice, ...]] = {}


def write_board(position: Position) -> str:
    """The first field of the position string: ranks from the top, towers bottom to top."""
    rules = position.rules
    pieces = rules.pieces
    entry = _RANK_TEXT.get(id(pieces))
    if entry is None or entry[0] is not pieces or len(entry[1]) >= _RANK_TEXT_LIMIT:
        entry = _RANK_TEXT[id(pieces)] = (pieces, {})
    cache = entry[1]
    g = rules.geometry
    ranks = _RANK_SLICES.get(g)
    if ranks is None:
        ranks = _RANK_SLICES[g] = tuple(slice(r * g.width, (r + 1) * g.width)
                                        for r in range(g.height - 1, -1, -1))
    board = position.board
    # (map, not a loop: a tree writes the position of every node)
    texts: list[str | None] = list(map(cache.get, map(board.__getitem__, ranks)))
    if None in texts:
        for i, text in enumerate(texts):
            if text is None:
                rank = board[ranks[i]]
                texts[i] = cache[rank] = _rank_text(rank, pieces)
    return "/".join(cast("list[str]", texts))


def rank_texts(position: Position) -> list[str]:
    """The board field's ranks, top rank first (``"/".join`` of them is ``write_board``)."""
    return write_board(position).split("/")


def rank_text(position: Position, row: int) -> str:
    """The text of one rank, ``row`` counted from the top (as in ``rank_texts``).

    A tree writes every node's position string; a move changes one or two ranks,
    so a child's board field is its parent's ranks with those rewritten."""
    pieces = position.rules.pieces
    entry = _RANK_TEXT.get(id(pieces))
    if entry is None or entry[0] is not pieces or len(entry[1]) >= _RANK_TEXT_LIMIT:
        entry = _RANK_TEXT[id(pieces)] = (pieces, {})
    g = position.geometry
    r = g.height - 1 - row
    rank = position.board[r * g.width:(r + 1) * g.width]
    text = entry[1].get(rank)
    if text is None:
        text = entry[1][rank] = _rank_text(rank, pieces)
    return text


def rank_cache(position: Position) -> dict[tuple, str]:
    """The rank texts already written for ``position``'s piece set, by the rank's
    towers (a tuple of ``width`` towers): what ``rank_writer`` reads first. A tree's
    compiled build looks a changed rank up here itself and calls the writer only for
    a rank it does not find -- a call a node spared."""
    pieces = position.rules.pieces
    entry = _RANK_TEXT.get(id(pieces))
    if entry is None or entry[0] is not pieces or len(entry[1]) >= _RANK_TEXT_LIMIT:
        entry = _RANK_TEXT[id(pieces)] = (pieces, {})
    return entry[1]


def rank_writer(position: Position) -> Callable[[tuple, int], str]:
    """``rank_text`` for many positions of one rule module, its look-ups done once:
    ``write(board, row)`` is the text of ``board``'s rank ``row`` (from the top). A
    tree writes one or two ranks for each of its nodes, and finding the cache and
    the geometry again each time cost as much as the look-up of the text itself."""
    pieces = position.rules.pieces
    cache = rank_cache(position)
    g = position.geometry
    width = g.width
    starts = [(g.height - 1 - row) * width for row in range(g.height)]

    def write(board: tuple, row: int) -> str:
        start = starts[row]
        rank = board[start:start + width]
        text = cache.get(rank)
        if text is None:
            if len(cache) >= _RANK_TEXT_LIMIT:   # as rank_text: bounded, then afresh
                cache.clear()
            text = cache[rank] = _rank_text(rank, pieces)
        return text

    return write


def write_position(position: Position, board: str | None = None) -> str:
    """The whole position string (see ``notation.position_string`` for the format);
    ``board``: its first field, if already written (``rank_texts`` joined)."""
    ep = "-" if position.ep_square is None else position.geometry.name(position.ep_square)
    s = (f"{write_board(position) if board is None else board} {'wb'[position.turn]} {ep} "
         f"{position.halfmove_clock} {position.fullmove_number}")
    if position.roll is not None:
        s += f" @{position.roll}"
    return s


def repetition_key(position: Position) -> str:
    """What threefold repetition compares: board, side, roll, and the en passant
    square only when the rules say a capture there is possible (``live_ep_square``)."""
    live = position.rules.live_ep_square(position)
    ep = "-" if live is None else position.geometry.name(live)
    return f"{write_board(position)} {'wb'[position.turn]} {ep} {position.roll or ''}"


def position_text(position: Position) -> str:
    """The board as text with each top piece and tower height, then every tower
    bottom to top and the single tavrels -- what ``tavrei-lab show`` prints.

    A tower is two or more tavrels; a tavrel standing alone is listed as a tavrel,
    so a teacher reading the listing aloud never calls a lone ratnik a tower."""
    g = position.geometry
    pieces = position.pieces
    lines = []
    for r in range(g.height - 1, -1, -1):
        cells = []
        for f in range(g.width):
            tower = position.board[r * g.width + f]
            if not tower:
                cells.append(" . ")
            else:
                top = tower[-1]
                letter = pieces.letter(top.acting_kind if top & PROMOTED else top.kind)
                letter = letter if top.color == 0 else letter.lower()
                h = len(tower)
                cells.append(f" {letter}{h if h > 1 else ' '}" if h < 10 else f"{letter}{h}")
        lines.append(f"{r + 1:>2} " + "".join(cells))
    lines.append("   " + "".join(f" {g.names[f][0]} " for f in range(g.width)))
    lines.append("")
    lines.append((_("white to move") if position.turn == 0 else _("black to move"))
                 + (_(", en passant on {square}").format(square=g.name(position.ep_square))
                    if position.ep_square is not None else "")
                 + (_(", die shows {face}").format(face=position.roll) if position.roll else ""))
    # a tower is two or more tavrels; a tavrel standing alone is not called one
    occupied = position.towers()
    towers = {name: t for name, t in occupied.items() if len(t) > 1}
    single = [f"{name} {tavrel_token(t[0], pieces)}" for name, t in occupied.items()
              if len(t) == 1]
    if towers:
        lines.append(_("towers, bottom -> top:"))
        for name, tower in towers.items():
            lines.append(f"  {name}: " + " ".join(tavrel_token(t, pieces) for t in tower))
    else:
        lines.append(_("towers: none"))
    if single:
        lines.append(_("single tavrels:"))
        row = ""
        for i, item in enumerate(single):
            item += "," if i < len(single) - 1 else ""
            if row and len(row) + 1 + len(item) > 76:
                lines.append("  " + row)
                row = ""
            row = f"{row} {item}" if row else item
        lines.append("  " + row)
    return "\n".join(lines)


__all__ = ["position_text", "rank_cache", "rank_text", "rank_texts", "rank_writer",
           "repetition_key", "tavrel_token", "write_board", "write_position"]
