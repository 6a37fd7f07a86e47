"""The playing search's evaluation for orthodox chess: tapered square tables and
the pawn, rook, bishop and king terms every chess program has.

Tavreli's evaluation (``engine.play_eval.BoardTables``) counts towers: who holds
whom. Where a capture removes the piece and no tower can form (orthodox chess:
no prisoners, no own towers), the game is ordinary chess and its knowledge
applies: a knight on the rim is dim, a rook wants the open file and the seventh
rank, the king hides behind its pawns until the queens are off and then walks
to the centre, a passed pawn grows with every rank, a doubled or isolated one
is a weakness, two bishops outdo bishop and knight. Measured against sunfish,
the ring-only square bonuses of ``BoardTables`` lost (35 % at 0.1 s a move);
this module is the chess-specific part that replaces them there.

**Tapered by the root's phase.** Every term has a middlegame and an endgame
value; the phase (knights and bishops 1, rooks 2, queens 4: 24 at the start) is
read once at the root of each search, and the two are blended into one set of
tables for the whole search (``chess_tables_for``), so that the tower part stays
a sum over squares and the search keeps updating it incrementally on the squares
a move changes. A search does not cross many captures, so the blend at its root
is close to the blend at its leaves.

**The activity part** (lazy, at a leaf only when it could matter) adds to
``BoardTables.activity``'s mobility and king-zone attacks the terms that need
the whole board: pawn structure (doubled, isolated, passed by rank; memoised by
the two sides' pawn masks, which change rarely), rooks on open and half-open
files, the bishop pair, and the king's pawn shelter (middlegame only).

The square tables are written here from simple rules (centralisation, rank
advance, the castled corners), not taken from any other program.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tavrei_lab.core import cython_shim as cython
else:
    try:
        import cython
    except ImportError:   # no Cython (Pyodide, a plain install): the declarations do nothing
        from tavrei_lab.core import cython_shim as cython

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
from tavrei_lab.engine.play_eval import BoardTables, line_reach
from tavrei_lab.engine.weights import DEFAULT_WEIGHTS, Weights

# The tavrel layout's colour bit (``core.tavrel``), as a C constant in the compiled build.
_COLOR = cython.declare(cython.int, COLOR_BIT)
_PAWN = cython.declare(cython.int, PAWN)
_KING = cython.declare(cython.int, KING)
_KNIGHT = cython.declare(cython.int, KNIGHT)
_ROOK = cython.declare(cython.int, ROOK)
_BISHOP = cython.declare(cython.int, BISHOP)
_HELGI = cython.declare(cython.int, HELGI)

#: The phase at the start of a game: knights and bishops 1, rooks 2, queens 4.
PHASE_MAX = 24
PHASE_WEIGHT = {KNIGHT: 1, BISHOP: 1, ROOK: 2, QUEEN: 4}
#: Material, centipawns: (middlegame, endgame).
MATERIAL = {PAWN: (100, 120), KNIGHT: (320, 300), BISHOP: (330, 320), ROOK: (480, 540),
            QUEEN: (960, 980), KING: (0, 0)}
#: Pawn structure, centipawns (middlegame, endgame): per extra pawn on a file, per
#: isolated pawn, and a passed pawn by the ranks it has advanced (0..7).
DOUBLED = (-12, -22)
ISOLATED = (-12, -16)
PASSED_MG = (0, 5, 8, 14, 25, 42, 65, 0)
PASSED_EG = (0, 12, 18, 32, 55, 90, 140, 0)
#: A rook on a file without pawns, and on one without its own pawns.
ROOK_OPEN = (28, 12)
ROOK_HALF_OPEN = (13, 8)
BISHOP_PAIR = (30, 50)
#: King shelter (middlegame only): per file beside and in front of a king on its first
#: two ranks, an own pawn one rank ahead is the shield; two ranks ahead half of it;
#: none costs this much, and a file without any own pawn more (the open file).
SHELTER_MISSING = -22
SHELTER_FAR = -9
SHELTER_OPEN_FILE = -12
#: How far the activity part can move the score here: beyond this outside the window a
#: leaf is decided by the tower part alone (passed pawns and shelter reach further than
#: Tavreli's mobility terms, so the margin is wider than ``play_eval.LAZY_MARGIN``).
CHESS_LAZY_MARGIN = 220


def _square_tables(width: int, height: int) -> dict[int, tuple[list[int], list[int]]]:
    """Per kind, (middlegame, endgame) bonus by square, white's view (rank 0 = home)."""
    out: dict[int, tuple[list[int], list[int]]] = {}
    size = width * height
    top = height - 1
    right = width - 1

    def ring(f: int, r: int) -> int:           # 0 on the edge, growing to the centre
        return min(f, right - f, r, top - r)

    def cfile(f: int) -> int:                  # 0 on the a/h files, 3 on d/e
        return min(f, right - f)

    def crank(r: int) -> int:
        return min(r, top - r)

    knight_mg, knight_eg, bishop_mg, bishop_eg = [], [], [], []
    rook_mg, rook_eg, queen_mg, queen_eg = [], [], [], []
    king_mg, king_eg, pawn_mg, pawn_eg = [], [], [], []
    king_home = (18, 28, 10, -5, 0, -5, 28, 18)
    for s in range(size):
        f, r = s % width, s // width
        c = cfile(f) + crank(r)                # 0 in a corner, 6 in the centre
        knight_mg.append(9 * c - 35 + (8 if 3 <= r <= 5 and 2 <= f <= right - 2 else 0)
                         - (10 if r == 0 else 0))
        knight_eg.append(7 * c - 28)
        diagonal = f == r or f == right - r
        bishop_mg.append(4 * c - 12 + (10 if diagonal else 0) - (12 if r == 0 else 0))
        bishop_eg.append(4 * c - 12)
        rook_mg.append((22 if r == top - 1 else 0) + (6 if r == 0 and 2 <= f <= 5 else 0)
                       - (4 if f in (0, right) and r > 0 else 0))
        rook_eg.append(14 if r == top - 1 else 0)
        queen_mg.append(2 * c - 6 - (8 if r >= 5 else 0))
        queen_eg.append(5 * c - 15)
        if r == 0:
            km = king_home[f] if width == 8 else 10 - 5 * cfile(f)
        elif r == 1:
            km = -8 - 4 * cfile(f)
        else:
            km = -30 - 12 * min(r - 2, 3)
        king_mg.append(km)
        king_eg.append(10 * min(cfile(f), 3) + 10 * min(crank(r), 3) - 40
                       + (5 if ring(f, r) >= 2 else 0))
        advance = r                             # ranks from white's home edge
        central = (3 - abs(2 * f - right) // 2) if width == 8 else 0
        pm = 0
        if 1 <= advance <= top - 1:
            pm = (0, 0, 4, 8, 16, 30, 50)[min(advance, 6)]
            if central >= 2:                   # d and e files (and c, f a little)
                pm += (0, -12, 0, 18, 22, 10, 0)[min(advance, 6)] * (central - 1) // 2
            if f in (0, right):
                pm -= 6
        pawn_mg.append(pm)
        pawn_eg.append((0, 0, 6, 14, 26, 44, 70)[min(advance, 6)] if 1 <= advance < top else 0)
    out[KNIGHT] = (knight_mg, knight_eg)
    out[BISHOP] = (bishop_mg, bishop_eg)
    out[ROOK] = (rook_mg, rook_eg)
    out[QUEEN] = (queen_mg, queen_eg)
    out[KING] = (king_mg, king_eg)
    out[PAWN] = (pawn_mg, pawn_eg)
    return out


class ChessTables(BoardTables):
    """``BoardTables`` for orthodox chess at one phase: the square tables and material
    blended for it, and the pawn, rook, bishop and shelter terms at the leaves."""

    def __init__(self, geometry: Geometry, weights: Weights = DEFAULT_WEIGHTS,
                 phase: int = PHASE_MAX) -> None:
        super().__init__(geometry, weights)
        self.phase = phase = max(0, min(PHASE_MAX, phase))
        self.lazy_margin = CHESS_LAZY_MARGIN
        w, h = geometry.width, geometry.height
        self.width, self.height = w, h

        def blend(pair: tuple[int, int]) -> int:
            return (pair[0] * phase + pair[1] * (PHASE_MAX - phase)) // PHASE_MAX

        self._blend = blend
        squares = _square_tables(w, h)
        size = geometry.size
        # psq[color * 8 + kind][square]: material plus square bonus, white's view
        psq: list[list[int]] = [[0] * size for _ in range(16)]
        for kind, (mg, eg) in squares.items():
            value = blend(MATERIAL[kind])
            for s in range(size):
                mirrored = (h - 1 - s // w) * w + s % w
                psq[kind][s] = value + blend((mg[s], eg[s]))
                psq[8 + kind][s] = -(value + blend((mg[mirrored], eg[mirrored])))
        self.psq = psq
        self.doubled = blend(DOUBLED)
        self.isolated = blend(ISOLATED)
        self.passed = [blend((a, b)) for a, b in zip(PASSED_MG, PASSED_EG, strict=True)]
        self.rook_open = blend(ROOK_OPEN)
        self.rook_half_open = blend(ROOK_HALF_OPEN)
        self.bishop_pair = blend(BISHOP_PAIR)
        self.shelter_scale = phase          # of PHASE_MAX: the shelter fades with the pieces
        self.bit = [1 << s for s in range(size)]
        self.file_mask = [sum(1 << (r * w + f) for r in range(h)) for f in range(w)]
        # ahead[c][s]: the squares in front of s on its file and the two beside it, for
        # colour c (a passed pawn has no enemy pawn there)
        ahead: list[list[int]] = [[], []]
        for c, step in ((0, 1), (1, -1)):
            for s in range(size):
                f, r = s % w, s // w
                m = 0
                rr = r + step
                while 0 <= rr < h:
                    for ff in (f - 1, f, f + 1):
                        if 0 <= ff < w:
                            m |= 1 << (rr * w + ff)
                    rr += step
                ahead[c].append(m)
        self.ahead = ahead
        self._pawn_cache: dict[tuple[int, int], int] = {}
        self._shelter_cache: dict[tuple[int | None, int | None, int, int], int] = {}

    def tower_score(self, square: int, tower: tuple[int, ...]) -> int:
        """White's view of a square's piece: material and square bonus at this phase."""
        if not tower:
            return 0
        if len(tower) > 1:          # cannot happen in orthodox chess; the tower rules' value
            return super().tower_score(square, tower)
        t = tower[0]
        return self.psq[(t & _COLOR) * 8 + ACTING[t]][square]

    def board_score(self, board: tuple[tuple[int, ...], ...]) -> int:
        ts = self.tower_score
        return sum(ts(s, t) for s, t in enumerate(board) if t)

    # The count of one unit by kind (mobility, zone attacks) is BoardTables.activity's,
    # written again inside this loop on purpose: one method for a unit, called by both
    # loops, cost 14 % (Tavreli) and 25 % (orthodox) more time per activity call in the
    # pure build and 3 % more instructions in the compiled Tavreli one. The line walk,
    # the costly part, is shared (line_reach, a C call from here too).
    @cython.locals(s=cython.int, c=cython.int, kind=cython.int, top=cython.int,
                   n=cython.int, one=cython.int, size=cython.int,
                   width=cython.int, mob_w=cython.int, mob_b=cython.int, att_w=cython.int,
                   att_b=cython.int, bishops_w=cython.int, bishops_b=cython.int,
                   extra=cython.int, pass_own=cython.bint,
                   tower=tuple)
    def activity(self, board: tuple[tuple[int, ...], ...], kings: tuple[int | None, int | None],
                 pass_over_own: bool = False) -> int:
        """Mobility and king-zone attacks (as ``BoardTables.activity`` counts them), and
        the chess terms, in one pass over the board."""
        zone_of = self.zone
        zone_w = zone_of[kings[0]] if kings[0] is not None else 0
        zone_b = zone_of[kings[1]] if kings[1] is not None else 0
        knight_mask = self.knight_mask
        knight_count = self.knight_count
        king_mask = self.king_mask
        lines = self.lines
        pawn_mask_w, pawn_mask_b = self.pawn_mask
        size = self.size
        width = self.width
        pass_own = pass_over_own
        mob_w = mob_b = att_w = att_b = 0
        bishops_w = bishops_b = 0
        pawns_w = pawns_b = 0
        rooks: list[int] = []
        acting = ACTING
        bit = self.bit          # Python ints: a C shift past bit 31 would overflow
        for s in range(size):
            tower = board[s]
            if not tower:
                continue
            top = tower[-1]
            c = top & _COLOR
            kind = acting[top]
            enemy_zone = zone_b if c == 0 else zone_w
            n = 0
            hits = 0
            if kind == _PAWN:
                if c == 0:
                    pawns_w |= bit[s]
                    one = s + width
                    if enemy_zone:
                        hits = (pawn_mask_w[s] & enemy_zone).bit_count()
                else:
                    pawns_b |= bit[s]
                    one = s - width
                    if enemy_zone:
                        hits = (pawn_mask_b[s] & enemy_zone).bit_count()
                if 0 <= one < size and not board[one]:
                    n = 1
            elif kind == _KING:
                if enemy_zone:
                    hits = (king_mask[s] & enemy_zone).bit_count()
            elif kind == _KNIGHT:
                km = knight_mask[s]
                n = knight_count[s]
                if enemy_zone:
                    hits = (km & enemy_zone).bit_count()
            else:
                if kind == _ROOK:
                    rooks.append(s if c == 0 else -1 - s)
                elif kind == _BISHOP:
                    if c == 0:
                        bishops_w += 1
                    else:
                        bishops_b += 1
                elif kind == _HELGI:
                    km = knight_mask[s]
                    n = knight_count[s]
                    if enemy_zone:
                        hits = (km & enemy_zone).bit_count()
                reached = line_reach(board, lines[kind][s], c, pass_own)
                n += reached.bit_count()
                if enemy_zone and reached & enemy_zone:
                    hits += (reached & enemy_zone).bit_count()
            if c == 0:
                mob_w += n
                att_w += hits
            else:
                mob_b += n
                att_b += hits
        v = self.mobility * (mob_w - mob_b) + self.volkhv_attack * (att_w - att_b)
        key = (pawns_w, pawns_b)
        structure = self._pawn_cache.get(key)
        if structure is None:
            structure = self._pawn_structure(pawns_w, pawns_b)
            if len(self._pawn_cache) > 50_000:
                self._pawn_cache.clear()
            self._pawn_cache[key] = structure
        extra = structure
        file_mask = self.file_mask
        for s in rooks:
            if s >= 0:
                fm = file_mask[s % width]
                if not fm & pawns_w:
                    extra += self.rook_open if not fm & pawns_b else self.rook_half_open
            else:
                fm = file_mask[(-1 - s) % width]
                if not fm & pawns_b:
                    extra -= self.rook_open if not fm & pawns_w else self.rook_half_open
        if bishops_w >= 2:
            extra += self.bishop_pair
        if bishops_b >= 2:
            extra -= self.bishop_pair
        if self.shelter_scale:
            # memoised like the structure: the volkhvs and pawns seldom move in a search
            skey = (kings[0], kings[1], pawns_w, pawns_b)
            shelter = self._shelter_cache.get(skey)
            if shelter is None:
                shelter = 0
                if kings[0] is not None:
                    shelter += self._shelter(kings[0], 0, pawns_w)
                if kings[1] is not None:
                    shelter -= self._shelter(kings[1], 1, pawns_b)
                if len(self._shelter_cache) > 50_000:
                    self._shelter_cache.clear()
                self._shelter_cache[skey] = shelter
            extra += shelter * self.shelter_scale // PHASE_MAX
        v += extra
        return v if self._whole else round(v)  # type: ignore[return-value]

    def _pawn_structure(self, wp: int, bp: int) -> int:
        """Doubled, isolated and passed pawns, white's view."""
        w, h = self.width, self.height
        file_mask = self.file_mask
        ahead = self.ahead
        passed = self.passed
        v = 0
        for c, own, other in ((0, wp, bp), (1, bp, wp)):
            sign = 1 if c == 0 else -1
            files = [(own & file_mask[f]).bit_count() for f in range(w)]
            for f in range(w):
                n = files[f]
                if not n:
                    continue
                if n > 1:
                    v += sign * self.doubled * (n - 1)
                if (f == 0 or not files[f - 1]) and (f == w - 1 or not files[f + 1]):
                    v += sign * self.isolated * n
            m = own
            while m:
                low = m & -m
                s = low.bit_length() - 1
                m ^= low
                if not ahead[c][s] & other:
                    r = s // w
                    v += sign * passed[r if c == 0 else h - 1 - r]
        return v

    def _shelter(self, ks: int, c: int, own: int) -> int:
        """The pawn shield of a king on its first two ranks (own view, <= 0)."""
        w, h = self.width, self.height
        f, r = ks % w, ks // w
        rank = r if c == 0 else h - 1 - r
        if rank > 1:
            return 2 * SHELTER_MISSING
        step = w if c == 0 else -w
        v = 0
        for ff in (f - 1, f, f + 1):
            if not 0 <= ff < w:
                continue
            one = ks + step + (ff - f)
            two = one + step
            if 0 <= one < w * h and own >> one & 1:
                continue
            if 0 <= two < w * h and own >> two & 1:
                v += SHELTER_FAR
            else:
                v += SHELTER_MISSING
                if not own & self.file_mask[ff]:
                    v += SHELTER_OPEN_FILE
        return v


def game_phase(board: tuple[tuple[int, ...], ...]) -> int:
    """Knights and bishops 1, rooks 2, queens 4 (24 at the start, capped there)."""
    phase = 0
    weight = PHASE_WEIGHT
    for tower in board:
        if tower:
            phase += weight.get(ACTING[tower[-1]], 0)
    return min(phase, PHASE_MAX)


@cache
def chess_tables_for(geometry: Geometry, weights: Weights = DEFAULT_WEIGHTS,
                     phase: int = PHASE_MAX) -> ChessTables:
    """The shared chess tables of a board size, weights and phase (25 sets at most)."""
    return ChessTables(geometry, weights, phase)


def plays_as_chess(rules: Any) -> bool:
    """Rules under which no tower can form and a capture removes the piece: orthodox
    chess and its relatives, where this evaluation applies."""
    family = rules.inner or rules
    # own_towers is the stacking family's option, not a capability every module has
    return (not family.prisoners and not family.splits
            and family.options.get("own_towers", True) is False)


__all__ = ["CHESS_LAZY_MARGIN", "PHASE_MAX", "ChessTables", "chess_tables_for", "game_phase",
           "plays_as_chess"]
