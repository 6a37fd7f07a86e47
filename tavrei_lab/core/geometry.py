"""Board geometry of any size, with the move tables every rule module needs.

Squares are integers ``rank * width + file`` (a1 = 0). The tables (rays,
leaps, steps) are computed once per board size and cached, because move
generation asks for them millions of times in a perft or a tournament.
"""

from __future__ import annotations

import re
from functools import cache

from tavrei_lab.errors import LimitError, NotationError
from tavrei_lab.i18n import gettext as _

#: Largest board a variant may ask for: files are the letters a..z.
MAX_SIDE = 26
MIN_SIDE = 2

FILES = "abcdefghijklmnopqrstuvwxyz"

#: Direction indexes used by ``Geometry.rays``: the first four are orthogonal.
ORTHOGONAL = (0, 1, 2, 3)
DIAGONAL = (4, 5, 6, 7)
_DIRECTIONS = ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1))
_KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))

_SQUARE_RE = re.compile(r"([a-z])([0-9]{1,2})\Z")


class Geometry:
    """A rectangular board: square names and precomputed move tables.

    >>> g = Geometry.of(8, 8)
    >>> g.name(g.parse("e4"))
    'e4'
    >>> [g.name(s) for s in g.knight[g.parse("a1")]]
    ['c2', 'b3']
    """

    def __init__(self, width: int, height: int) -> None:
        if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
            raise LimitError(
                _("board {width}x{height} is outside the supported range "
                  "{smallest}..{largest} files and ranks").format(
                      width=width, height=height, smallest=MIN_SIDE, largest=MAX_SIDE))
        self.width = width
        self.height = height
        self.size = width * height
        self.names: tuple[str, ...] = tuple(
            f"{FILES[s % width]}{s // width + 1}" for s in range(self.size))
        self._index = {n: i for i, n in enumerate(self.names)}
        #: square name -> number, read-only by convention: the replay's fast path looks
        #: names up here and falls back to ``parse`` (which says what is wrong) on a miss
        self.index_of: dict[str, int] = self._index
        rays: list[tuple[tuple[int, ...], ...]] = []
        knight: list[tuple[int, ...]] = []
        king: list[tuple[int, ...]] = []
        for s in range(self.size):
            f, r = s % width, s // width
            square_rays = []
            for df, dr in _DIRECTIONS:
                ray = []
                ff, rr = f + df, r + dr
                while 0 <= ff < width and 0 <= rr < height:
                    ray.append(rr * width + ff)
                    ff += df
                    rr += dr
                square_rays.append(tuple(ray))
            rays.append(tuple(square_rays))
            knight.append(tuple(
                (r + dr) * width + f + df for df, dr in _KNIGHT
                if 0 <= f + df < width and 0 <= r + dr < height))
            king.append(tuple(ray[0] for ray in square_rays if ray))
        #: ``rays[square][direction]``: squares outward from ``square``, nearest first.
        self.rays: tuple[tuple[tuple[int, ...], ...], ...] = tuple(rays)
        self.knight: tuple[tuple[int, ...], ...] = tuple(sorted(k) for k in knight)  # type: ignore[misc]
        self.knight = tuple(tuple(k) for k in self.knight)
        self.king: tuple[tuple[int, ...], ...] = tuple(king)

    @staticmethod
    @cache
    def of(width: int, height: int) -> Geometry:
        """The shared geometry of a board size (tables are built once)."""
        return Geometry(width, height)

    def file_of(self, square: int) -> int:
        return square % self.width

    def rank_of(self, square: int) -> int:
        return square // self.width

    def square(self, file: int, rank: int) -> int:
        return rank * self.width + file

    def name(self, square: int) -> str:
        return self.names[square]

    def parse(self, text: str) -> int:
        """The square called ``text`` (lower case, e.g. ``"e4"``)."""
        try:
            return self._index[text]
        except KeyError:
            pass
        m = _SQUARE_RE.match(text)
        said = (_("{text} is not a square name on a {width}x{height} board") if m is None
                else _("{text} is off the board on a {width}x{height} board"))
        raise NotationError(said.format(text=repr(text), width=self.width, height=self.height),
                            text=text)

    def is_light(self, square: int) -> bool:
        """a1 is dark, as on every chess board."""
        return (self.file_of(square) + self.rank_of(square)) % 2 == 1

    def __repr__(self) -> str:
        return f"Geometry({self.width}, {self.height})"
