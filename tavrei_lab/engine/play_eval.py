"""The playing search's evaluation: kept up to date move by move, cheap at every leaf.

The lesson evaluation (``engine.evaluate``) recomputes everything at every
leaf, including both sides' full move lists for the mobility term; that is
clear but slow. The playing search splits the same ideas in two parts:

**The tower part** -- material counted by who holds whom (as in
``engine.evaluate.material``) plus small square bonuses for the top tavrel
(a vsadnik or luchnik in the centre, a ratnik near its far rank, a volkhv at
home). It is a sum over towers, so a move changes it only on the squares the
move changes (``zobrist.changed_squares``: two, three for en passant, four
for castling). ``tower_score`` is memoised per (square, tower), so the update
is a handful of dictionary look-ups.

**The activity part** -- mobility and volkhv safety, computed at a leaf only
when the tower part alone cannot decide a cut-off (lazy evaluation).
Mobility counts the squares each top tavrel reaches by its pattern, without
building a single move. Volkhv safety counts enemy attacks on the volkhv's
square and its neighbours; an *attack table* (one bit mask per piece pattern
and square) says at once whether a piece can reach the volkhv's zone at all,
and only those few rays are walked.

Scores are whole centipawns (so that a null window is exactly one unit wide),
white's point of view for the parts, the side to move's for ``evaluate_for_side``.
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

if TYPE_CHECKING:
    from tavrei_lab.rules.base import RuleModule

from tavrei_lab.core.geometry import DIAGONAL, ORTHOGONAL, Geometry
from tavrei_lab.core.tavrel import (
    ACTING,
    BISHOP,
    COLOR_BIT,
    HELGI,
    KIND_BITS,
    KIND_SHIFT,
    KING,
    KNIGHT,
    PAWN,
    QUEEN,
    ROOK,
)
from tavrei_lab.engine.evaluate import VALUES
from tavrei_lab.engine.weights import DEFAULT_WEIGHTS, KIND_NAMES, Weights

#: Per square a unit can reach by its pattern (mobility), in centipawns (the default weight).
MOBILITY = 3
#: Per enemy attack on the volkhv's square or a square next to it, in centipawns (default).
VOLKHV_ATTACK = 10
#: The conversion gate (``hunter``), on fixed chess values of the tavrels on top of
#: their towers (centipawns; not the weights, so the fit's features see the same gate):
#: the side ahead by at least HUNT_LEAD, against at most HUNT_WEAK besides the volkhv,
#: is winning an ending and hunts the other volkhv (``Weights.hunt_edge/hunt_near``);
#: so is the side ahead by HUNT_LEAD with HUNT_RATIO times the other's tops or more
#: (two ladyas and a vsadnik against a ladya: trading down wins it, see ``hunter``).
HUNT_LEAD = 300
HUNT_WEAK = 350
HUNT_RATIO = 2
# The kinds ``activity`` tells apart, as C ints in the compiled build (compared with the
# kinds it reads as C ints; the module's Python constants would box each one).
# The tavrel layout (``core.tavrel``, its one home), as C constants in the compiled build.
_COLOR = cython.declare(cython.int, COLOR_BIT)
_KIND_MASK = cython.declare(cython.int, KIND_BITS)
_KIND_SHIFT = cython.declare(cython.int, KIND_SHIFT)
_KING = cython.declare(cython.int, KING)
_PAWN = cython.declare(cython.int, PAWN)
_KNIGHT = cython.declare(cython.int, KNIGHT)
_HELGI = cython.declare(cython.int, HELGI)
#: How far the activity part can plausibly move the score (centipawns): beyond
#: this margin outside the search window, a leaf is decided by the tower part alone.
LAZY_MARGIN = 150

_SLIDES = {QUEEN: ORTHOGONAL + DIAGONAL, HELGI: ORTHOGONAL + DIAGONAL,
           ROOK: ORTHOGONAL, BISHOP: DIAGONAL}


class BoardTables:
    """Per board size and weights: square bonuses, values and attack masks (built once,
    cached), so that the weights cost nothing at a leaf: they are folded into the tables."""

    def __init__(self, geometry: Geometry, weights: Weights = DEFAULT_WEIGHTS) -> None:
        g = geometry
        wt = weights
        self.weights = weights
        self.value_by_kind = [wt.value(k) if k in KIND_NAMES else 0.0 for k in range(8)]
        self.held_by_kind = [wt.held(k) if k in KIND_NAMES else 0.0 for k in range(8)]
        self.buried_by_kind = [wt.buried(k) if k in KIND_NAMES else 1.0 for k in range(8)]
        mob, att = wt.mobility, wt.volkhv_attack
        # whole numbers stay ints, so the default weights add up exactly (integer sums)
        self.mobility: float = int(mob) if mob.is_integer() else mob
        self.volkhv_attack: float = int(att) if att.is_integer() else att
        he, hn, hr = wt.hunt_edge, wt.hunt_near, wt.hunt_room
        hp, htr = wt.hunt_ratnik, wt.hunt_trade
        self.hunt_edge: float = int(he) if he.is_integer() else he
        self.hunt_near: float = int(hn) if hn.is_integer() else hn
        self.hunt_room: float = int(hr) if hr.is_integer() else hr
        self.hunt_ratnik: float = int(hp) if hp.is_integer() else hp
        self.hunt_trade: float = int(htr) if htr.is_integer() else htr
        self.hunting = bool(he or hn or hr or hp or htr)
        self._whole = all(x.is_integer() for x in (mob, att, he, hn, hr, hp, htr))
        w, h = g.width, g.height
        self.geometry = g
        cf = (w - 1) / 2
        # centrality: 0 on the edge ring, growing toward the centre
        centre = [min(f, w - 1 - f, r, h - 1 - r) for r in range(h) for f in range(w)]
        self.centre = centre
        self.max_ring = max(centre)
        # files plus ranks from the middle of the board: 0 on the central squares
        self.from_centre = [abs(2 * f - (w - 1)) // 2 + abs(2 * r - (h - 1)) // 2
                            for r in range(h) for f in range(w)]
        self.longest_way = (w - 1) + (h - 1) + max(w, h) - 1
        self.full = (1 << g.size) - 1
        self.not_left = _mask(s for s in range(g.size) if s % w)           # not file a
        self.not_right = _mask(s for s in range(g.size) if s % w != w - 1)  # not the last
        self.size = g.size
        bonus: dict[tuple[int, int, int], int] = {}
        for s in range(g.size):
            f, r = s % w, s // w
            c = centre[s]
            for color in (0, 1):
                advance = r if color == 0 else h - 1 - r        # ranks from its own edge
                bonus[(color, KNIGHT, s)] = round(wt.centre_vsadnik * c)
                bonus[(color, BISHOP, s)] = round(wt.centre_luchnik * c)
                bonus[(color, HELGI, s)] = round(wt.centre_volkhvica * c)
                bonus[(color, QUEEN, s)] = round(wt.centre_knyaz * c)
                bonus[(color, ROOK, s)] = 0
                central_file = 1.0 - abs(f - cf) / max(cf, 1)
                bonus[(color, PAWN, s)] = round(wt.ratnik_advance * advance + wt.ratnik_central
                                                * central_file * min(advance, 3))
                # the volkhv is safer at home: a penalty per rank it has left
                bonus[(color, KING, s)] = round(wt.volkhv_advance * min(advance, 3)
                                                + (wt.volkhv_edge if c == 0 else 0))
        self.bonus = bonus
        # zone[s]: the volkhv's square and its neighbours, as a bit mask
        self.zone = [1 << s | _mask(g.king[s]) for s in range(g.size)]
        self.knight_mask = [_mask(g.knight[s]) for s in range(g.size)]
        self.king_mask = [_mask(g.king[s]) for s in range(g.size)]
        self.ray_mask = [[_mask(ray) for ray in g.rays[s]] for s in range(g.size)]
        #: lines[kind][s]: the lines a line mover of that kind follows from s (``line_reach``)
        self.lines = [[_lines(g.rays[s], _SLIDES.get(k, ())) for s in range(g.size)]
                      for k in range(8)]
        #: knight_count[s]: the squares a vsadnik's leap reaches from s (its mobility)
        self.knight_count = [m.bit_count() for m in self.knight_mask]
        pawn_attacks: list[list[tuple[int, ...]]] = [[], []]
        for color, dr in ((0, 1), (1, -1)):
            for s in range(g.size):
                f, r = s % w, s // w
                pawn_attacks[color].append(tuple(
                    (r + dr) * w + f + df for df in (-1, 1)
                    if 0 <= f + df < w and 0 <= r + dr < h))
        self.pawn_attacks = pawn_attacks
        self.pawn_mask = [[_mask(a) for a in pawn_attacks[c]] for c in (0, 1)]
        # reach[kind][s]: every square the kind's pattern could ever reach from s on an
        # empty board (an attack table: ``reach & targets == 0`` rules a unit out at once)
        lines = [[m for m in masks] for masks in self.ray_mask]
        orth = [lines[s][0] | lines[s][1] | lines[s][2] | lines[s][3] for s in range(g.size)]
        diag = [lines[s][4] | lines[s][5] | lines[s][6] | lines[s][7] for s in range(g.size)]
        self.reach: dict[int, list[int]] = {
            KING: self.king_mask, KNIGHT: self.knight_mask, ROOK: orth, BISHOP: diag,
            QUEEN: [orth[s] | diag[s] for s in range(g.size)],
            HELGI: [orth[s] | diag[s] | self.knight_mask[s] for s in range(g.size)],
            PAWN: [self.pawn_mask[0][s] | self.pawn_mask[1][s] for s in range(g.size)]}
        self.rank_mask = [_mask(range(r * w, (r + 1) * w)) for r in range(h)]
        # near_far[c]: the squares within two ranks of colour c's far rank, where a
        # ratnik may be about to promote (white's far rank is the last, black's the first)
        self.near_far = [_mask(s for s in range(g.size) if s // w >= h - 3),
                         _mask(s for s in range(g.size) if s // w <= 2)]
        self.forward = (w, -w)
        self._tower_cache: dict[tuple[int, tuple[int, ...]], int] = {}

    def converting(self, board: tuple[tuple[int, ...], ...]) -> int | None:
        """The side converting a won ending here (``hunter``), if these weights hunt."""
        if not self.hunting:
            return None
        tops = [0, 0]
        fixed = GATE_CP
        for tower in board:
            if tower:
                tops[tower[-1] & _COLOR] += fixed[ACTING[tower[-1]]]
        return hunter(tops)

    # -- the tower part ------------------------------------------------------------------
    def tower_score(self, square: int, tower: tuple[int, ...]) -> int:
        """White's view of one tower: who holds whom, plus the top's square bonus."""
        key = (square, tower)
        cache_ = self._tower_cache
        v = cache_.get(key)
        if v is not None:
            return v
        if not tower:
            return 0
        top = tower[-1]
        owner = top & _COLOR
        score = 0.0
        values = self.value_by_kind
        held = self.held_by_kind
        buried = self.buried_by_kind
        n = len(tower)
        for i, t in enumerate(tower):
            k = ACTING[t] if i == n - 1 else (t & _KIND_MASK) >> _KIND_SHIFT
            value = values[k]
            sign = 1.0 if t & _COLOR == 0 else -1.0
            if t & _COLOR == owner:
                score += sign * value if i == n - 1 else sign * value * buried[k]
            else:
                score += sign * value * held[k]
        kind = ACTING[top]
        b = self.bonus.get((owner, kind, square), 0)
        v = round(100 * score) + (b if owner == 0 else -b)
        if len(cache_) > 300_000:
            cache_.clear()
        cache_[key] = v
        return v

    def board_score(self, board: tuple[tuple[int, ...], ...]) -> int:
        """The tower part of a whole board, from scratch (white's view)."""
        ts = self.tower_score
        return sum(ts(s, t) for s, t in enumerate(board) if t)

    # -- the activity part ---------------------------------------------------------------
    # Compiled, the counts are C ints (one per colour, not a list's entries) and the
    # tavrels, kinds and squares too; the masks stay Python ints (a board may have up to
    # 26x26 squares). The sums are the pure build's, term for term.
    @cython.locals(s=cython.Py_ssize_t, n=cython.Py_ssize_t, one=cython.Py_ssize_t,
                   size=cython.Py_ssize_t, top=cython.int, c=cython.int, kind=cython.int,
                   pass_own=cython.bint, mobility_w=cython.long, mobility_b=cython.long,
                   attacks_w=cython.long, attacks_b=cython.long, tops_w=cython.long,
                   tops_b=cython.long, gained=cython.long, hit=cython.long, acting=tuple,
                   fixed=list, knight_count=list, tower=tuple, zoned_w=cython.bint,
                   zoned_b=cython.bint, zoned=cython.bint)
    def activity(self, board: tuple[tuple[int, ...], ...], kings: tuple[int | None, int | None],
                 pass_over_own: bool = False) -> int:
        """Mobility and volkhv safety, white's view, counted without building moves."""
        zone_of = self.zone
        zone_w = zone_of[kings[0]] if kings[0] is not None else 0
        zone_b = zone_of[kings[1]] if kings[1] is not None else 0
        zoned_w = bool(zone_w)
        zoned_b = bool(zone_b)
        knight_mask = self.knight_mask
        knight_count = self.knight_count
        king_mask = self.king_mask
        lines = self.lines
        pawn_mask = self.pawn_mask
        forward = self.forward
        size = self.size
        pass_own = bool(pass_over_own)
        acting = ACTING
        fixed = GATE_CP
        mobility_w = mobility_b = 0
        attacks_w = attacks_b = 0    # attacks_w: white's attacks on black's volkhv's zone
        tops_w = tops_b = 0          # fixed chess values of the tops but the volkhvs (gate)
        n = len(board)
        for s in range(n):
            tower = board[s]
            if not tower:
                continue
            top = tower[-1]
            c = top & _COLOR
            kind = acting[top]
            enemy_zone = zone_b if c == 0 else zone_w
            zoned = zoned_b if c == 0 else zoned_w
            gained = 0      # this top's mobility and its attacks on the enemy volkhv's zone
            hit = 0
            if c == 0:
                tops_w += fixed[kind]
            else:
                tops_b += fixed[kind]
            if kind == _PAWN:
                one = s + forward[c]
                if 0 <= one < size and not board[one]:
                    gained = 1
                if zoned:
                    hits = pawn_mask[c][s] & enemy_zone
                    if hits:
                        hit = hits.bit_count()
            elif kind == _KING:
                if zoned:
                    hits = king_mask[s] & enemy_zone
                    if hits:
                        hit = hits.bit_count()
            else:
                if kind == _KNIGHT or kind == _HELGI:
                    gained = knight_count[s]
                    if zoned:
                        hits = knight_mask[s] & enemy_zone
                        if hits:
                            hit = hits.bit_count()
                if kind != _KNIGHT:
                    reached = line_reach(board, lines[kind][s], c, pass_own)
                    gained += reached.bit_count()
                    if zoned:
                        hits = reached & enemy_zone
                        if hits:
                            hit += hits.bit_count()
            if c == 0:
                mobility_w += gained
                attacks_w += hit
            else:
                mobility_b += gained
                attacks_b += hit
        v = (self.mobility * (mobility_w - mobility_b)
             + self.volkhv_attack * (attacks_w - attacks_b))
        white_king, black_king = kings
        if self.hunting and white_king is not None and black_king is not None:
            tops = [tops_w, tops_b]
            strong = hunter(tops)
            if strong is not None:
                edge, near = self.hunt_terms(strong, white_king, black_king)
                v += self.hunt_edge * edge + self.hunt_near * near
                if self.hunt_room:
                    v += self.hunt_room * self.room_lost(
                        board, strong, black_king if strong == 0 else white_king,
                        pass_over_own)
                # the hunting volkhv's home bonus (stay back, on the edge) is what keeps
                # it from coming to help: in a won ending it is left out
                ks = white_king if strong == 0 else black_king
                if board[ks] and board[ks][-1] & _COLOR == strong and ACTING[board[ks][-1]] == KING:
                    home = self.bonus[(strong, KING, ks)]
                    v -= home if strong == 0 else -home
                if self.hunt_ratnik or self.hunt_trade:
                    march, left = self.hunt_material(board, strong, tops[1 - strong])
                    v += self.hunt_ratnik * march + self.hunt_trade * left
        return v if self._whole else round(v)  # type: ignore[return-value]

    @cython.locals(h=cython.Py_ssize_t, w=cython.Py_ssize_t, s=cython.Py_ssize_t,
                   n=cython.Py_ssize_t, r=cython.Py_ssize_t, march=cython.long,
                   st=cython.int, top=cython.int, acting=tuple, tower=tuple)
    def hunt_material(self, board: tuple[tuple[int, ...], ...], strong: int,
                      weak_tops: int) -> tuple[int, int]:
        """The conversion's material amounts (white's view) when ``strong`` is winning:
        the ranks its top ratniks have advanced (``hunt_ratnik``: a ratnik that
        promotes is a new knyaz, and a search of a few hundred nodes sees the march,
        not the knyaz twelve plies away), and minus the other side's tops in ratniks
        by the gate's fixed values (``hunt_trade``: each tavrel of the weaker side
        taken off the top of its tower, even for one of the stronger side's, brings
        the mate closer; without it a ladya for a ladya is nothing to the side ahead)."""
        h = self.geometry.height
        w = self.geometry.width
        st = strong
        acting = ACTING
        march = 0
        n = len(board)
        for s in range(n):
            tower = board[s]
            if not tower:
                continue
            top = tower[-1]
            if top & _COLOR == st and acting[top] == _PAWN:
                r = s // w
                march += r if st == 0 else h - 1 - r
        left = -(weak_tops // 100)
        return (march, left) if strong == 0 else (-march, -left)

    @cython.locals(n=cython.Py_ssize_t, lost=cython.Py_ssize_t, w=cython.int,
                   start64=cython.ulonglong, free64=cython.ulonglong,
                   left64=cython.ulonglong, right64=cython.ulonglong)
    def room_lost(self, board: tuple[tuple[int, ...], ...], strong: int, hunted: int,
                  pass_over_own: bool = False) -> int:
        """The conversion's third amount (white's view): how many squares of the board
        the lone volkhv on ``hunted`` cannot reach by volkhv steps without crossing a
        square ``strong`` attacks. A mate is a room of one square, attacked; a room
        shrinking move by move is progress a search of a few hundred nodes can see, where
        the mate itself lies beyond it. A room of one square *not* attacked is a
        stalemate in the making, and counts as no room lost at all."""
        attacked = self.attacks(board, strong, hunted, pass_over_own)
        free = self.full & ~attacked | 1 << hunted
        start = 1 << hunted
        w = self.geometry.width
        if self.size <= 64:     # the compiled build grows it in C 64-bit ints
            start64, free64 = start, free
            left64, right64 = self.not_left, self.not_right
            room = _room(start64, free64, left64, right64, w)
        else:
            room = _room(start, free, self.not_left, self.not_right, w)
        n = room.bit_count()
        lost = 0 if n == 1 and not attacked >> hunted & 1 else self.size - n
        return lost if strong == 0 else -lost

    @cython.locals(s=cython.Py_ssize_t, n=cython.Py_ssize_t, top=cython.int,
                   c=cython.int, kind=cython.int, pass_own=cython.bint, acting=tuple,
                   tower=tuple)
    def attacks(self, board: tuple[tuple[int, ...], ...], color: int, through: int,
                pass_over_own: bool = False) -> int:
        """The squares ``color``'s tops attack, as a bit mask; lines go on through the
        square ``through`` (the hunted volkhv: stepping back along a line stays in it)."""
        c = color
        pass_own = bool(pass_over_own)
        acting = ACTING
        lines = self.lines
        mask = 0
        n = len(board)
        for s in range(n):
            tower = board[s]
            if not tower:
                continue
            top = tower[-1]
            if top & _COLOR != c:
                continue
            kind = acting[top]
            if kind == _PAWN:
                mask |= self.pawn_mask[c][s]
                continue
            if kind == _KING:
                mask |= self.king_mask[s]
                continue
            if kind == _KNIGHT or kind == _HELGI:
                mask |= self.knight_mask[s]
                if kind == _KNIGHT:
                    continue
            mask |= line_reach(board, lines[kind][s], c, pass_own, through)
        return mask

    def hunt_terms(self, strong: int, white_king: int, black_king: int) -> tuple[int, int]:
        """The conversion terms' amounts (white's view) when ``strong`` is winning (see
        ``hunter``): how far the other volkhv stands from the centre (files plus ranks:
        0 in the middle, most in a corner, where mates are), and how close the two
        volkhvs are (the board's longest way minus theirs, as volkhv steps plus files and
        ranks: the steps alone do not tell the square in front of the other volkhv, where
        mates are, from one beside it; a lone volkhv is mated only with the other's help)."""
        w = self.geometry.width
        hunted = black_king if strong == 0 else white_king
        edge = self.from_centre[hunted]
        df, dr = abs(white_king % w - black_king % w), abs(white_king // w - black_king // w)
        near = self.longest_way - (df + dr + max(df, dr))
        return (edge, near) if strong == 0 else (-edge, -near)


    # -- the die's threats (die games only) ---------------------------------------------
    def die_threats(self, board: tuple[tuple[int, ...], ...],
                    kings: tuple[int | None, int | None], turn: int,
                    faces: tuple[tuple[int, float], ...],
                    pass_over_own: bool = False) -> tuple[float, float, float, float]:
        """What each side's next roll would let it take, weighed by the die's faces.

        ``faces``: (hierarchy rank, probability) of each piece face (skip faces left
        out: they take nothing). A face of rank r allows every unit of rank r or lower,
        so a volkhv attacked only by the enemy's rook is taken on the K, Q and R faces.
        Returns, for the side to roll (``turn``) and then for the other side: the
        probability that its roll allows taking the enemy volkhv, and the gain of the
        best capture its roll allows (centipawns by the default values, the faces that
        take the volkhv left out), expected over the faces. The die search reaches a
        ply or two at 300 nodes and has no quiescence, so without these a leaf scores
        a volkhv or a tower en prise as safe.
        """
        out: list[float] = []
        plain = tables_for(self.geometry)
        gain_of = plain.tower_score
        for c in (turn, 1 - turn):
            target = kings[1 - c]
            hit_rank = 7
            best = [0] * 8
            sign = 1 if c == 0 else -1
            for s, victim, rank, frm in self._captures(board, c, pass_over_own):
                if s == target:
                    hit_rank = min(hit_rank, rank)
                    continue
                # the top steps from its tower onto the victim's (what is under it stays)
                tower = board[frm]
                gain = sign * (gain_of(s, victim + (tower[-1],)) - gain_of(s, victim)
                               + gain_of(frm, tower[:-1]) - gain_of(frm, tower))
                if gain > best[rank]:
                    best[rank] = gain
            for r in range(2, 7):
                if best[r - 1] > best[r]:
                    best[r] = best[r - 1]
            hit = 0.0
            threat = 0.0
            for r, p in faces:
                if r >= hit_rank:
                    hit += p
                else:
                    threat += p * best[r]
            out += (hit, threat)
        return out[0], out[1], out[2], out[3]

    def die_score(self, board: tuple[tuple[int, ...], ...],
                  kings: tuple[int | None, int | None], turn: int,
                  faces: tuple[tuple[int, float], ...], pass_over_own: bool = False) -> int:
        """The die terms of the weights (white's view, whole centipawns)."""
        wt = self.weights
        hit, threat, hit_w, threat_w = self.die_threats(board, kings, turn, faces,
                                                        pass_over_own)
        mine = (wt.die_hit_volkhv * hit + wt.die_threat * threat
                - wt.die_hit_volkhv_waiting * hit_w - wt.die_threat_waiting * threat_w)
        return round(mine if turn == 0 else -mine)

    def _captures(self, board: tuple[tuple[int, ...], ...], c: int,
                  pass_over_own: bool) -> list[tuple[int, tuple[int, ...], int, int]]:
        """Colour ``c``'s captures by its towers' tops: (square, tower taken, the
        attacker's die rank, the attacker's square)."""
        g = self.geometry
        rays = g.rays
        found: list[tuple[int, tuple[int, ...], int, int]] = []
        for s, tower in enumerate(board):
            if not tower:
                continue
            top = tower[-1]
            if top & _COLOR != c:
                continue
            kind = ACTING[top]
            rank = _DIE_RANK[kind]
            jumps: Any = ()
            if kind == PAWN:
                jumps = self.pawn_attacks[c][s]
            elif kind == KNIGHT or kind == HELGI:
                jumps = g.knight[s]
            elif kind == KING:
                jumps = g.king[s]
            for t in jumps:
                there = board[t]
                if there and there[-1] & _COLOR != c:
                    found.append((t, there, rank, s))
            for d in _SLIDES.get(kind, ()):
                for t in rays[s][d]:
                    there = board[t]
                    if there:
                        if there[-1] & _COLOR != c:
                            found.append((t, there, rank, s))
                        elif pass_over_own:
                            continue
                        break
        return found


#: the gate's values by kind: chess's, the volkhv none (a tower counts by its top only:
#: buried tavrels and prisoners do not move)
GATE_CP = [0 if k == KING else round(100 * VALUES.get(k, 0.0)) for k in range(8)]


@cython.ccall
def hunter(tops: list[int]) -> int | None:
    """The side that is converting a won ending, or None: ``tops`` are both sides'
    tops but the volkhvs, in fixed centipawns. Ahead by ``HUNT_LEAD`` or more, the
    other side having at most ``HUNT_WEAK`` (a lone volkhv, a minor tavrel or a few
    ratniks), or ``HUNT_RATIO`` times as much as the other side or more (then trading
    down reaches such an ending): what wins is a mate, and the conversion terms push
    for one. Without the ratio, of the games stopped at the ply cap most had the
    losing side with a ladya or more left, where none of the terms acted."""
    white, black = tops
    if white - black >= HUNT_LEAD and (black <= HUNT_WEAK or white >= HUNT_RATIO * black):
        return 0
    if black - white >= HUNT_LEAD and (white <= HUNT_WEAK or black >= HUNT_RATIO * white):
        return 1
    return None


#: The die's hierarchy rank of each acting kind (King 6 ... Pawn 1, a helgi as a queen).
_DIE_RANK = [0, 6, 5, 4, 3, 2, 1, 5]


def die_faces(rules: RuleModule) -> tuple[tuple[int, float], ...] | None:
    """A die game's piece faces as (hierarchy rank, probability), for ``die_threats``;
    None for a game without the Gavrilov die (``FastPaths.die``: its faces and their
    ranks are the Gavrilov die's own data)."""
    die = rules.fast_paths().die
    if not rules.has_chance or die is None:
        return None
    rank = die.face_rank
    return tuple((rank(f), float(p)) for f, p in zip(die.faces, die.probabilities,
                                                      strict=True)
                 if rank(f) > 0)


@cython.ccall
@cython.locals(lines=tuple, c=cython.int, pass_own=cython.bint, through=cython.Py_ssize_t,
               i=cython.Py_ssize_t, last=cython.Py_ssize_t, t=cython.Py_ssize_t, line=tuple,
               ray=tuple, reach=tuple, there=tuple)
def line_reach(board: Any, lines: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...],
               c: int, pass_own: bool, through: int = -1) -> int:
    """The squares a line mover of colour ``c`` reaches along ``lines`` (from
    ``BoardTables.lines``), as a bit mask: each line up to its first tower, that
    tower's square included, or over own towers with ``pass_own`` (the rules'
    pass_over_own), and on through the square ``through`` (the hunted volkhv's, for
    ``BoardTables.attacks``: stepping back along a line stays in it; -1, no square).
    Its mobility is the mask's size and its attacks on a volkhv's zone the zone's part
    of it (both evaluations count them so), and a line's reach is one of its few
    prefixes, so only the walk to the first tower is done square by square."""
    reached = 0
    for line in lines:
        ray = line[0]
        reach = line[1]
        last = len(ray) - 1
        i = 0
        while i < last:
            t = ray[i]
            there = board[t]
            if there and t != through and not (pass_own and there[-1] & _COLOR == c):
                break
            i += 1
        reached |= reach[i]
    return reached


#: A flood fill's bit masks (``_room``): C 64-bit unsigned ints on a board of at most
#: 64 squares, Python ints on a larger one; the caller's types pick the compiled copy.
_Mask = cython.fused_type(cython.ulonglong, object)


@cython.cfunc
@cython.returns(_Mask)
@cython.locals(room=_Mask, free=_Mask, left=_Mask, right=_Mask, w=cython.int, h=_Mask,
               grown=_Mask)
def _room(room: int, free: int, left: int, right: int, w: int) -> int:
    """The squares of ``free`` a volkhv on ``room`` reaches by its steps (a flood fill
    of bit masks; ``BoardTables.room_lost``). In C 64-bit ints a bit shifted past the
    64th is one ``free`` never has: the same room as the Python ints'."""
    while True:
        h = room | (room & right) << 1 | (room & left) >> 1
        grown = (h | h << w | h >> w) & free
        if grown == room:
            return room
        room = grown


def _lines(rays: Any, directions: Any) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """The non-empty rays of ``directions`` from one square, each with the masks of
    its first 1, 2, ... squares (``line_reach``)."""
    out = []
    for d in directions:
        ray = tuple(rays[d])
        if ray:
            out.append((ray, tuple(_mask(ray[:i + 1]) for i in range(len(ray)))))
    return tuple(out)


def _mask(squares: Any) -> int:
    m = 0
    for s in squares:
        m |= 1 << s
    return m


@cache
def tables_for(geometry: Geometry, weights: Weights = DEFAULT_WEIGHTS) -> BoardTables:
    """The shared tables of a board size and a set of weights."""
    return BoardTables(geometry, weights)


def evaluate_for_side(position: Any, weights: Weights = DEFAULT_WEIGHTS) -> int:
    """The playing evaluation of ``position`` in centipawns, side to move's view (from scratch).

    >>> from tavrei_lab import Game
    >>> evaluate_for_side(Game().position)   # the start is symmetric
    0
    """
    t = tables_for(position.geometry, weights)
    kings = (position.king_square(0), position.king_square(1))
    rules = position.rules
    pass_own = rules.pass_over_own
    white = t.board_score(position.board) + t.activity(position.board, kings, pass_own)
    if weights.die_terms:
        faces = die_faces(rules)
        if faces:
            white += t.die_score(position.board, kings, position.turn, faces, pass_own)
    return white if position.turn == 0 else -white


__all__ = ["GATE_CP", "HUNT_LEAD", "HUNT_RATIO", "HUNT_WEAK", "LAZY_MARGIN", "MOBILITY",
           "VOLKHV_ATTACK", "BoardTables",
           "die_faces", "evaluate_for_side", "hunter", "line_reach",
           "tables_for"]
