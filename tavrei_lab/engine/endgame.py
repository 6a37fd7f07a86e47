"""Finishing a won ending: what a teacher would tell a pupil, as evaluation terms.

The playing evaluation (``engine.play_eval``) turns these on only where its conversion
gate (``play_eval.hunter``) says one side is winning an ending -- ahead by three
ratniks or more against little -- so a middlegame scores exactly as without them.
There the conversion terms already drive the other volkhv toward the edge, bring the
stronger volkhv near and shrink the squares it can reach; a search of a few thousand
nodes still misses three things a teacher names at once:

- **the luchnik and vsadnik mate** happens only in a corner of the luchnik's colour:
  driven into the other corner, the lone volkhv is safe, so with a luchnik (all the
  stronger side's luchniks on one colour), no ladya, knyaz or helgi and no ratnik to
  promote, the hunted volkhv is scored by how far it stands from the nearer corner of
  that colour (``CORNER`` a step; ``corner_distance``);
- **the pieces come near**: a vsadnik or luchnik far from the lone volkhv takes no
  part in the mate, so each counts ``MINOR_NEAR`` a volkhv step closer
  (``minor_near``);
- **progress before the fifty-move rule**: the side ahead loses ``CLOCK_STEP`` a
  half-move of the fifty-move clock past ``CLOCK_FREE`` (``clock_penalty``), so a
  search that can reset it (a ratnik's step, a capture) does so while there is time,
  and the playing search counts a position met once already in the game as a draw
  (``PlaySearcher``), so the side ahead does not walk back and forth.

Scores are whole centipawns, white's point of view (``terms``) or the side to move's
(``clock_penalty``), as the playing evaluation's parts are.
"""

from __future__ import annotations

from functools import cache

from tavrei_lab.core.geometry import Geometry
from tavrei_lab.core.tavrel import (
    ACTING,
    BISHOP,
    COLOR_BIT,
    HELGI,
    KING,
    KNIGHT,
    PAWN,
    QUEEN,
    ROOK,
)

#: Per volkhv step the hunted volkhv stands nearer the luchnik's corner (centipawns).
CORNER = 20
#: Per volkhv step a top vsadnik or luchnik of the side ahead stands nearer the hunted
#: volkhv (centipawns).
MINOR_NEAR = 3
#: The fifty-move clock (half-moves) up to which the side ahead is not hurried, and the
#: centipawns it loses per half-move past it.
CLOCK_FREE = 40
CLOCK_STEP = 2

_HEAVY = (ROOK, QUEEN, HELGI)


class EndgameTables:
    """Per board size: each square's distance to the corners of each colour."""

    def __init__(self, geometry: Geometry) -> None:
        w, h = geometry.width, geometry.height
        self.width = w
        corners = [(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)]
        #: corner[c][s]: volkhv steps from s to the nearer corner whose colour is c
        #: (c = (file + rank) % 2: 0 is a1's colour); None where no corner has colour c
        self.corner: list[list[int] | None] = []
        for c in (0, 1):
            mine = [(f, r) for f, r in corners if (f + r) % 2 == c]
            if not mine:
                self.corner.append(None)
                continue
            self.corner.append([min(max(abs(s % w - f), abs(s // w - r)) for f, r in mine)
                                for s in range(w * h)])
        self.farthest = max(w, h) - 1

    def steps(self, a: int, b: int) -> int:
        """Volkhv steps between two squares."""
        w = self.width
        return max(abs(a % w - b % w), abs(a // w - b // w))

    def corner_distance(self, square: int, colour: int) -> int | None:
        """Volkhv steps from ``square`` to the nearer corner of square colour ``colour``."""
        table = self.corner[colour]
        return None if table is None else table[square]

    def terms(self, board: tuple[tuple[int, ...], ...], strong: int, hunted: int) -> int:
        """The endgame terms (white's view) when ``strong`` is winning and the other
        volkhv stands on ``hunted``: the luchnik's corner, and the minor tops near."""
        w = self.width
        colours = 0          # bit c: a luchnik of the side ahead on a square of colour c
        heavy = ratnik = False
        near = 0
        farthest = self.farthest
        for s, tower in enumerate(board):
            if not tower:
                continue
            top = tower[-1]
            if top & COLOR_BIT != strong:
                continue
            kind = ACTING[top]
            if kind == KING:
                continue
            if kind == PAWN:
                ratnik = True
            elif kind in _HEAVY:
                heavy = True
            elif kind == BISHOP or kind == KNIGHT:
                near += farthest - self.steps(s, hunted)
                if kind == BISHOP:
                    colours |= 1 << ((s % w + s // w) % 2)
        score = MINOR_NEAR * near
        if not heavy and not ratnik and colours in (1, 2):
            distance = self.corner_distance(hunted, colours >> 1)
            if distance is not None:
                score += CORNER * (farthest - distance)
        return score if strong == 0 else -score


@cache
def endgame_tables(geometry: Geometry) -> EndgameTables:
    """The shared endgame tables of a board size."""
    return EndgameTables(geometry)


def clock_penalty(halfmove_clock: int) -> int:
    """Centipawns the side ahead in a won ending loses at this fifty-move clock."""
    return CLOCK_STEP * (halfmove_clock - CLOCK_FREE) if halfmove_clock > CLOCK_FREE else 0


__all__ = ["CLOCK_FREE", "CLOCK_STEP", "CORNER", "MINOR_NEAR", "EndgameTables",
           "clock_penalty", "endgame_tables"]
