"""The tower-chess family: Tavreli, and orthodox chess when towers are off.

One module covers every game where a move takes the top *k* tavrels of a
tower (docs/rules.md Part A): Tavreli with all its options, and -- with prisoners,
own towers and splits switched off and promotion by choice -- orthodox chess,
which is how the move generator is checked against a well-known chess
library. Each rule that a lesson might flip is an ``Option``.

Positions are immutable, so a move builds a new board tuple. Legality is
"the mover's volkhv is not attacked afterwards" (A5.2); the cheap cases
(no check, no pin through the from-square, nothing enemy uncovered) skip the
full test, which keeps perft fast without a second code path for the rules.

The hot methods carry Cython declarations (``@cython.locals``: C ints for squares,
counts and packed tavrels), which the optional compiled build reads and the
interpreter ignores (docs/compiled.md): the same source is the pure Python build.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from tavrei_lab.core import cython_shim as cython
else:
    try:
        import cython
    except ImportError:   # no Cython (Pyodide, a plain install): the declarations do nothing
        from tavrei_lab.core import cython_shim as cython

from tavrei_lab.core import speech
from tavrei_lab.core.geometry import DIAGONAL, ORTHOGONAL, Geometry
from tavrei_lab.core.move import Move
from tavrei_lab.core.position import MAX_TOWER_HEIGHT, Position, check_limits
from tavrei_lab.core.tavrel import (
    ACTING,
    BISHOP,
    COLOR_BIT,
    DESTINY_BITS,
    HELGI,
    KIND_BITS,
    KIND_SHIFT,
    KING,
    KNIGHT,
    MOVED,
    PAWN,
    PROMOTED,
    QUEEN,
    ROOK,
    TAVRELS,
    WITH_MOVED,
    Color,
    Tavrel,
)
from tavrei_lab.errors import PositionError
from tavrei_lab.i18n import N_
from tavrei_lab.i18n import gettext as _
from tavrei_lab.rules.base import (
    NO_FAST_PATHS,
    FastPaths,
    Option,
    Outcome,
    RuleModuleBase,
    own_methods,
    unchanged_members,
)

if cython.compiled:   # C-API calls for the compiled build's board copy (``_replaced``)
    from cython.cimports.cpython.object import PyObject  # type: ignore[import-untyped, import-not-found, unused-ignore]
    from cython.cimports.cpython.ref import Py_XINCREF  # type: ignore[import-untyped, import-not-found, unused-ignore]
    from cython.cimports.cpython.tuple import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
        PyTuple_GET_ITEM,
        PyTuple_New,
        PyTuple_SET_ITEM,
    )
    from cython.cimports.cpython.version import PY_VERSION_HEX  # type: ignore[import-untyped, import-not-found, unused-ignore]
    _Ref = cython.typedef(cython.pointer(PyObject))   # a borrowed PyObject*

    # Position as the extension type of core/position.pxd: its fields read and written
    # as C struct members, and a new one made without the Python call of __init__.
    from cython.cimports.tavrei_lab.core.position import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
        Position as _CPosition,
    )
else:
    _CPosition = Position

if TYPE_CHECKING:
    from tavrei_lab.variant import Variant

ORTH_SLIDERS = frozenset((QUEEN, ROOK, HELGI))
DIAG_SLIDERS = frozenset((QUEEN, BISHOP, HELGI))
LEAPERS = frozenset((KNIGHT, HELGI))
# The same sets as bits (``1 << kind``), for tests the compiled build makes in C.
_ORTH_BITS = cython.declare(cython.int, (1 << QUEEN) | (1 << ROOK) | (1 << HELGI))
_DIAG_BITS = cython.declare(cython.int, (1 << QUEEN) | (1 << BISHOP) | (1 << HELGI))
_LEAP_BITS = cython.declare(cython.int, (1 << KNIGHT) | (1 << HELGI))
_SLIDE_DIRS = {QUEEN: ORTHOGONAL + DIAGONAL, HELGI: ORTHOGONAL + DIAGONAL,
               ROOK: ORTHOGONAL, BISHOP: DIAGONAL}
# The tavrel layout (``core.tavrel``, its one home), as C constants in the compiled build.
_COLOR = cython.declare(cython.int, COLOR_BIT)
_KIND_MASK = cython.declare(cython.int, KIND_BITS)
_KIND_SHIFT = cython.declare(cython.int, KIND_SHIFT)
_DESTINY_MASK = cython.declare(cython.int, DESTINY_BITS)
_KING_BITS = cython.declare(cython.int, KING << KIND_SHIFT)
# The tavrel constants again, as C ints in the compiled build (the hot methods use these).
_KING = cython.declare(cython.int, KING)
_PAWN = cython.declare(cython.int, PAWN)
_ROOK = cython.declare(cython.int, ROOK)
_BISHOP = cython.declare(cython.int, BISHOP)
_QUEEN = cython.declare(cython.int, QUEEN)
_HELGI = cython.declare(cython.int, HELGI)
_MOVED = cython.declare(cython.int, MOVED)
_PROMOTED = cython.declare(cython.int, PROMOTED)
#: Move-cache keys are ``(from * size + to) * _COUNT_SLOTS + count``.
_COUNT_SLOTS = cython.declare(cython.long, 1024)
assert MAX_TOWER_HEIGHT < _COUNT_SLOTS
_ALL_TRUE = [True] * (MAX_TOWER_HEIGHT + 2)   # every count needs the full test (index = count)
_PINNED_ONE = [False, True]       # a lone tavrel on a pin line: test count 1


def _kind(t: int) -> int:
    return (t & _KIND_MASK) >> _KIND_SHIFT


#: ``ACTING`` as a typed global of the compiled build (read without a name look-up).
_ACTING = cython.declare(tuple, ACTING)


@cython.cfunc
@cython.inline
@cython.returns(cython.bint)
@cython.locals(board=tuple, squares=tuple, by=cython.int, kinds=cython.int, sub=cython.int,
               sub_tower=tuple, s=cython.int, top=cython.int, t=tuple)
def _leaps_onto(board: tuple, squares: tuple, by: int, kinds: int, sub: int,
                sub_tower: tuple) -> bool:
    """Does a tavrel of ``by`` acting as one of ``kinds`` (a bit mask of kinds) stand
    on top on one of ``squares``? ``_attacked``'s test for the pieces that reach a
    square in one step: vsadniks (and helgis), the volkhv, the ratniks."""
    for s in squares:
        t = sub_tower if s == sub else board[s]
        if t:
            top = t[len(t) - 1]
            if top & _COLOR == by and (kinds >> _ACTING[top]) & 1:
                return True
    return False


@cython.cfunc
@cython.returns(cython.bint)
@cython.locals(board=tuple, sq=cython.int, by=cython.int, sub=cython.int,
               sub_tower=tuple, rays=tuple, knight=tuple, king=tuple, pawn_attacks=tuple,
               pass_own=cython.bint, d=cython.int, s=cython.int, top=cython.int,
               kind=cython.int, t=tuple, line=tuple)
def _attacked(board: tuple, sq: int, by: int, sub: int, sub_tower: tuple, rays: tuple,
              knight: tuple, king: tuple, pawn_attacks: tuple, pass_own: bool) -> bool:
    """Does ``by`` attack ``sq`` on ``board`` -- with the tower on ``sub`` read as
    ``sub_tower`` (``sub`` -1: none)? ``TowerChessRules.attacked_by``'s test, and the
    legal-move test's for a volkhv step, which asks it of the board the step leaves
    without copying that board (a tree asks at nearly every leaf). ``rays``,
    ``knight``, ``king``: the geometry's patterns, by square; ``pawn_attacks``: the
    squares from which a ratnik of ``by`` attacks, by square. (Typed as tuples, the
    compiled build reads every square without a look-up or a type test.)"""
    d = 0
    for line in rays[sq]:
        for s in line:
            t = sub_tower if s == sub else board[s]
            if t:
                top = t[len(t) - 1]
                if top & _COLOR == by:
                    kind = _ACTING[top]
                    if ((_ORTH_BITS if d < 4 else _DIAG_BITS) >> kind) & 1:
                        return True
                    if pass_own:
                        continue
                break
        d += 1
    return (_leaps_onto(board, knight[sq], by, _LEAP_BITS, sub, sub_tower)
            or _leaps_onto(board, king[sq], by, 1 << _KING, sub, sub_tower)
            or _leaps_onto(board, pawn_attacks[sq], by, 1 << _PAWN, sub, sub_tower))


@cython.cfunc
@cython.inline
@cython.returns(cython.bint)
@cython.locals(there=tuple, me=cython.int, capture_king=cython.bint, onto_own=cython.bint,
               onto_enemy=cython.bint, other=cython.int)
def _volkhv_lands(there: tuple, me: int, capture_king: bool, onto_own: bool,
                  onto_enemy: bool) -> bool:
    """May ``me``'s volkhv step onto the tower ``there`` (by its pattern, safety aside)?
    An empty square, an enemy volkhv only where taking the king wins, an own tower
    (``onto_own``: own towers and volkhv stacks allowed), an enemy tower (``onto_enemy``:
    it stacks, or a capture removes). One place for the rule that ``destinations`` and
    the volkhv's step test (``_volkhv_can_step``) both apply."""
    if not there:
        return True
    other = there[len(there) - 1]
    if other & _KIND_MASK == _KING_BITS:
        return capture_king and other & _COLOR != me
    if other & _COLOR == me:
        return onto_own
    return onto_enemy


@cython.cfunc
@cython.locals(a=cython.Py_ssize_t, b=cython.Py_ssize_t, i=cython.Py_ssize_t,
               n=cython.Py_ssize_t)
@cython.boundscheck(False)
@cython.wraparound(False)
def _replaced(board: tuple, a: int, tower_a: tuple, b: int, tower_b: tuple) -> tuple:
    """``board`` with the towers on squares ``a`` and ``b`` replaced: the board a move
    makes, copied once. (Compiled: straight into a new tuple, with no list between.)"""
    if cython.compiled and type(board) is tuple:
        # Borrowed pointers, one reference taken for each item the new board holds. The
        # empty squares all hold the one empty tuple: one increment of its count per
        # square would be a chain of writes to one address, the slowest part of the
        # copy, so (before Python 3.12, where it is not immortal) it is counted once.
        item = cython.declare(_Ref)
        empty = cython.declare(_Ref, cython.cast(_Ref, ()))
        ta = cython.declare(_Ref, cython.cast(_Ref, tower_a))
        tb = cython.declare(_Ref, cython.cast(_Ref, tower_b))
        empties = cython.declare(cython.Py_ssize_t, 0)
        n = len(board)
        out = PyTuple_New(n)
        for i in range(n):
            item = ta if i == a else tb if i == b else PyTuple_GET_ITEM(board, i)
            if item == empty:
                empties += 1
            else:
                Py_XINCREF(item)
            PyTuple_SET_ITEM(out, i, cython.cast(object, item))
        if PY_VERSION_HEX < 0x030C0000:
            empty.ob_refcnt += empties
        else:
            while empties:
                Py_XINCREF(empty)
                empties -= 1
        return out
    new = list(board)
    new[a] = tower_a
    new[b] = tower_b
    return tuple(new)


@cython.cfunc
@cython.locals(position=_CPosition)
def _new_position(rules: Any, board: tuple, turn: int, ep: int | None, halfmove: int,
              fullmove: int, roll: str | None,
              kings: tuple[int | None, int | None] | None) -> Position:
    """``Position(rules, board, ...)`` as the compiled ``apply`` makes one at every move:
    the fields set straight, as ``Position.__init__`` sets them, without its Python call
    (the pure build calls ``Position`` itself)."""
    position = _CPosition.__new__(_CPosition)
    position.rules = rules
    position.board = board
    position.turn = turn
    position.ep_square = ep
    position.halfmove_clock = halfmove
    position.fullmove_number = fullmove
    position.roll = roll
    position._kings = kings
    position._key = None
    return position


class TowerChessRules(RuleModuleBase):
    """Rules of the tower-chess family; options default to docs/rules.md Part A."""

    name: ClassVar[str] = "tower-chess"
    OPTIONS: tuple[Option, ...] = (
        Option("prisoners", bool, True,
               N_("A captured tower stays under its captor as prisoners "
                  "(off: a capture removes it).")),
        Option("own_towers", bool, True,
               N_("A unit may move onto an own-topped tower, forming a tower.")),
        Option("splits", bool, True,
               N_("A move may take only the top k tavrels of a tower (off: towers move whole).")),
        Option("volkhv_stacks", bool, True,
               N_("The volkhv may step onto towers (off: it may not stand on a tower).")),
        Option("ratnik_onto_own", bool, True,
               N_("A ratnik may step forward onto an own-topped tower.")),
        Option("pass_over_own", bool, False,
               N_("Line pieces may pass over own-topped towers (they still stop at enemies).")),
        Option("double_step", bool, True,
               N_("A ratnik that never left its first square may step two squares forward.")),
        Option("en_passant", bool, True,
               N_("A ratnik may take a just-double-stepped enemy ratnik en passant (A7).")),
        Option("castling", bool, True,
               N_("The volkhv may castle with an unmoved ratoborets (A6).")),
        Option("promotion", str, "destiny",
               N_("What a ratnik becomes on its far rank: its destiny, a piece of the mover's "
                  "choice (written e7-e8=Q), or always a queen-like knyaz."),
               ("destiny", "choice", "queen")),
        Option("promotion_choices", str, "queen,rook,bishop,knight",
               N_("With promotion = \"choice\": the roles a ratnik may become, comma-separated.")),
        Option("promote_uncovered_enemy", bool, True,
               N_("An enemy ratnik uncovered on its far rank by your split is promoted "
                  "too (A8.1).")),
        Option("demote_by", str, "any",
               N_("Who demotes a promoted ratnik by placing a unit on it: anyone, "
                  "or only the enemy."),
               ("any", "enemy")),
        Option("fifty_move_rule", bool, True,
               N_("A draw after 50 moves each with no ratnik move and no capture (A9.3).")),
        Option("repetition_draw", bool, True,
               N_("A draw when the same position occurs for the third time (A9.2).")),
        Option("win", str, "mate",
               N_("How a game is won: checkmate, or taking the enemy king prisoner "
                  "(then a move may leave one's own king attacked)."),
               ("mate", "king-capture")),
    )

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A subclass that changes ``legal_moves`` (a plugin filtering moves, as in
        docs/rule-modules.md) and not ``has_legal_move`` gets the contract's plain
        ``has_legal_move`` -- ``bool(self.legal_moves(position))`` -- so the end of
        the game follows its moves; the family's fast first-move search would not."""
        super().__init_subclass__(**kwargs)
        if "legal_moves" in cls.__dict__ and "has_legal_move" not in cls.__dict__:
            cls.has_legal_move = RuleModuleBase.has_legal_move  # type: ignore[method-assign]

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.geometry: Geometry = Geometry.of(variant.width, variant.height)
        self.pieces = variant.pieces
        self.options: dict[str, Any] = variant.resolved_options(self.OPTIONS)
        o = self.options
        self.own_towers: bool = o["own_towers"]
        self.splits: bool = o["splits"]
        self.volkhv_stacks: bool = o["volkhv_stacks"]
        self.ratnik_onto_own: bool = o["ratnik_onto_own"] and o["own_towers"]
        self.pass_over_own: bool = o["pass_over_own"]
        self.double_step: bool = o["double_step"]
        self.en_passant: bool = o["en_passant"]
        self.castling: bool = o["castling"]
        self.promotion: str = o["promotion"]
        self.promote_uncovered_enemy: bool = o["promote_uncovered_enemy"]
        self.demote_by: str = o["demote_by"]
        self.king_capture: bool = o["win"] == "king-capture"
        self.prisoners = o["prisoners"]
        self.fifty_move_rule: bool = o["fifty_move_rule"]
        from tavrei_lab.core.pieces import ROLE_BY_NAME
        choices = []
        for role in o["promotion_choices"].split(","):
            role = role.strip()
            if role not in ROLE_BY_NAME or ROLE_BY_NAME[role] in (KING, PAWN):
                from tavrei_lab.errors import VariantError
                raise VariantError(
                    _("{file}: option promotion_choices: {role} is not a role a ratnik may "
                      "become (queen, rook, bishop, knight, helgi)").format(
                        file=variant.source, role=repr(role)),
                    file=variant.source, key="options.promotion_choices")
            choices.append(ROLE_BY_NAME[role])
        self.promotion_kinds: tuple[int, ...] = tuple(choices)
        g = self.geometry
        w = g.width
        # Pawn tables per colour: forward step, and the two attacked squares.
        self._forward = (w, -w)
        #: The rank where each colour's ratniks promote.
        self.far_rank = (g.height - 1, 0)
        # What ``apply`` reads at every move, read there in one lookup (set once: the
        # options of a rule module do not change after it is made).
        self._apply_reads = (w, self._forward, self.far_rank, bool(o["prisoners"]),
                             o["demote_by"] == "any", bool(o["promote_uncovered_enemy"]))
        attacks: list[list[tuple[int, ...]]] = [[], []]
        for color, dr in ((0, 1), (1, -1)):
            for s in range(g.size):
                f, r = s % w, s // w
                attacks[color].append(tuple(
                    (r + dr) * w + f + df for df in (-1, 1)
                    if 0 <= f + df < w and 0 <= r + dr < g.height))
        self._pawn_attacks = (tuple(attacks[0]), tuple(attacks[1]))
        #: What a volkhv's safety test reads (``_volkhv_can_step``), in one attribute:
        #: the geometry's rays, knight and king patterns, and the ratnik attacks of each
        #: colour (``_attacked``'s tables).
        self._attack_tables = (g.rays, g.knight, g.king, self._pawn_attacks[0],
                               self._pawn_attacks[1])
        #: And what it reads of the options, in one attribute too: may the volkhv take a
        #: volkhv, step onto an own tower, onto an enemy tower (``destinations``' rule);
        #: may a slider pass over own towers; may a tower split; and is ``destinations``
        #: this class's (a subclass's own is asked instead).
        self._volkhv_reads = (
            self.king_capture, self.own_towers and self.volkhv_stacks,
            self.volkhv_stacks or not self.prisoners, self.pass_over_own, self.splits,
            type(self).destinations is TowerChessRules.destinations)
        # Bit masks of the same patterns, for ``attacked_count``.
        def mask(squares: Any) -> int:
            m = 0
            for sq in squares:
                m |= 1 << sq
            return m
        self._attack_masks = (
            [mask(g.knight[s]) for s in range(g.size)],
            [mask(g.king[s]) for s in range(g.size)],
            [[mask(ray) for ray in g.rays[s]] for s in range(g.size)],
            [[mask(a) for a in attacks[c]] for c in (0, 1)],
            [1 << s | mask(g.king[s]) for s in range(g.size)])     # a volkhv's zone
        self._size = g.size
        self._move_cache: dict[int, Move] = {}
        #: The last position ``legal_moves`` answered, and its moves (see there).
        self._legal_memo: tuple[Position, tuple[Move, ...]] | None = None
        self._read_homes(variant)
        # For pin tests: the direction from one square to another, if on a line.
        self._line_dir: dict[tuple[int, int], int] = {}
        for s in range(g.size):
            for d, ray in enumerate(g.rays[s]):
                for t in ray:
                    self._line_dir[(s, t)] = d

    def _read_homes(self, variant: Variant) -> None:
        """The home squares of the set-up: a ratnik double-steps only from the square
        the set-up gives a ratnik of its colour (A4.5: "never left its original
        square"), and castling is between the set-up's volkhv square and its
        ratoborets squares on that rank (A6: the squares are fixed). A typed position
        with an unmarked ratnik on e4, or an unmarked volkhv on c1, is read as the rules
        say: that ratnik has no double step, that volkhv no castling."""
        from tavrei_lab.notation.position_string import read_position
        start = read_position(variant.setup, self, validate=False)
        w = self.geometry.width
        pawn_home = [[False] * self._size, [False] * self._size]
        king_home: list[int | None] = [None, None]
        rook_homes: list[set[int]] = [set(), set()]
        for s, tower in enumerate(start.board):
            for t in tower:
                if t.kind == PAWN:
                    pawn_home[t.color][s] = True
                elif t.kind == KING:
                    king_home[t.color] = s
        for s, tower in enumerate(start.board):
            for t in tower:
                home = king_home[t.color]
                if t.kind == ROOK and home is not None and s // w == home // w:
                    rook_homes[t.color].add(s)
        self._destinies = {}
        for s, tower in enumerate(start.board):
            for t in tower:
                if t.kind == PAWN and t.destiny:
                    self._destinies.setdefault((t.color, s % w), t.destiny)
        self._pawn_home = (tuple(pawn_home[0]), tuple(pawn_home[1]))
        self._king_home = (king_home[0], king_home[1])
        self._rook_homes = (frozenset(rook_homes[0]), frozenset(rook_homes[1]))

    # -- set-up ------------------------------------------------------------------
    def validate(self, position: Position) -> None:
        """Refuse set-ups the rules can never reach or cannot play (with the reason)."""
        check_limits(position)        # what every reader refuses, refused here too
        names = self.geometry.names
        king = speech.kind_name(self.pieces.by_kind[KING])
        kings = [0, 0]
        for s, tower in enumerate(position.board):
            for i, t in enumerate(tower):
                if t.kind == KING:
                    kings[t.color] += 1
                    if i != len(tower) - 1 and not self.king_capture:
                        raise PositionError(
                            _("a tavrel stands on the {king} on {square}: nothing may be "
                              "placed on it").format(king=king, square=names[s]),
                            where=names[s])
                if t.promoted and (t.kind != PAWN or not t.destiny):
                    raise PositionError(
                        _("only a ratnik with a destiny can be promoted ({square})").format(
                            square=names[s]), where=names[s])
                if t.kind == PAWN and self.promotion == "destiny" and not t.destiny:
                    pawn = self.pieces.by_kind[PAWN]
                    raise PositionError(
                        _("the {piece} on {square} has no destiny").format(
                            piece=speech.kind_name(pawn), square=names[s]),
                        where=names[s])
        for color in (0, 1):
            if kings[color] > 1:
                raise PositionError(
                    (_("white has {count} {king}s; at most one is allowed") if color == 0
                     else _("black has {count} {king}s; at most one is allowed")).format(
                        count=kings[color], king=king))
            if not kings[color] and not self.king_capture:
                # a game won by mate needs a king on each side: a side without one can
                # never be mated, so nothing could end the game. (Where taking the king
                # wins, a side without one is a study position: it may only pass or lose.)
                raise PositionError(
                    (_("white has no {king}: a game won by mate needs one on each side")
                     if color == 0 else
                     _("black has no {king}: a game won by mate needs one on each side")
                     ).format(king=king))
        if not self.king_capture:
            other = position.king_square(1 - position.turn)
            if other is not None and self.attacked_by(position.board, other, position.turn):
                raise PositionError(
                    _("the side not to move (white) is in check: that position cannot arise")
                    if position.turn == 1 else
                    _("the side not to move (black) is in check: that position cannot arise"))
        ep = position.ep_square
        if ep is not None:
            victim = ep - self._forward[position.turn]
            vt = position.board[victim] if 0 <= victim < self.geometry.size else ()
            if (position.board[ep] or not vt or vt[-1].color == position.turn
                    or vt[-1].kind != PAWN):
                raise PositionError(
                    _("en passant square {square} does not follow a double step").format(
                        square=names[ep]), where=names[ep])

    # -- attack ------------------------------------------------------------------
    def is_attacked(self, position: Position, square: int, by: int) -> bool:
        return self.attacked_by(position.board, square, by)

    def attacked_by(self, board: tuple | list, sq: int, by: int) -> bool:
        """``is_attacked`` on a bare board: the family's own fast test, which the
        engine's fast path over this family calls without building a position."""
        g = self.geometry
        return _attacked(board if type(board) is tuple else tuple(board), sq, by, -1, (),
                         g.rays, g.knight, g.king, self._pawn_attacks[1 - by],
                         self.pass_over_own)

    def live_ep_square(self, position: Position) -> int | None:
        """The en passant square if a ratnik of the side to move stands to take there.

        An en passant square nobody can use does not make a position different:
        the repetition key (``Position.key``) and the Zobrist hash both ask here.
        """
        ep = position.ep_square
        if ep is None:
            return None
        me = position.turn
        board = position.board
        for s in self._pawn_attacks[1 - me][ep]:
            t = board[s]
            if t and t[-1] & _COLOR == me and ACTING[t[-1]] == PAWN:
                return ep
        return None

    def attackers(self, position: Position, square: int, by: int) -> list[int]:
        """Squares of ``by``'s towers whose top attacks ``square`` (for teaching views)."""
        found = []
        for s, t in enumerate(position.board):
            if t and t[-1] & _COLOR == by and square in self._attack_set(position.board, s, t[-1]):
                found.append(s)
        return found

    def _attack_set(self, board: tuple | list, s: int, top: int) -> set[int]:
        kind = ACTING[top]
        g = self.geometry
        out: set[int] = set()
        if kind == PAWN:
            return set(self._pawn_attacks[top & _COLOR][s])
        if kind in LEAPERS:
            out.update(g.knight[s])
        if kind == KING:
            out.update(g.king[s])
        for d in _SLIDE_DIRS.get(kind, ()):
            for t in g.rays[s][d]:
                out.add(t)
                if board[t]:
                    if self.pass_over_own and board[t][-1] & _COLOR == top & _COLOR:
                        continue
                    break
        return out

    def is_check(self, position: Position) -> bool:
        k = position.king_square(position.turn)
        return k is not None and self.attacked_by(position.board, k, 1 - position.turn)

    # -- move generation ---------------------------------------------------------
    def _can_land(self, board: tuple, to: int, me: int, kind: int) -> bool:
        """May a unit topped by ``kind`` be put on ``to`` (A3.5, options)?"""
        t = board[to]
        if not t:
            return True
        top = t[-1]
        if _kind(top) == KING:
            return self.king_capture and top & _COLOR != me
        if top & _COLOR == me:
            if not self.own_towers:
                return False
            return kind != KING or self.volkhv_stacks
        return kind != KING or self.volkhv_stacks or not self.prisoners

    @cython.locals(s=cython.int, top=cython.int, me=cython.int, kind=cython.int,
                   fwd=cython.int, one=cython.int, steps=cython.int, size=cython.int, a=cython.int,
                   t=cython.int, other=cython.int, d=cython.int, lo=cython.int, hi=cython.int,
                   epi=cython.int, own_ok=cython.bint, pass_own=cython.bint,
                   capture_king=cython.bint, onto_own=cython.bint, king_onto_own=cython.bint,
                   king_onto_enemy=cython.bint)
    def destinations(self, board: tuple, s: int, top: int, me: int,
                     ep: int | None) -> list[int]:
        """Squares the unit topped by ``top`` on ``s`` may reach by its pattern.

        The landing rules of ``_can_land`` are inlined, for this is the hottest
        loop of every search.
        """
        kind = ACTING[top]
        g = self.geometry
        out: list[int] = []
        capture_king = self.king_capture
        if kind == _PAWN:
            size = g.size
            onto_own = self.ratnik_onto_own
            fwd = self._forward[me]
            # forward: one step, or two from its home square over an empty one; it may
            # stop on an own tower (not a volkhv), never go on past a tower
            steps = 2 if self.double_step and not top & _MOVED and self._pawn_home[me][s] else 1
            one = s
            while steps:
                steps -= 1
                one += fwd
                if not 0 <= one < size:
                    break
                there = board[one]
                if not there:
                    out.append(one)
                    continue
                other = there[-1]
                if onto_own and other & _COLOR == me and other & _KIND_MASK != _KING_BITS:
                    out.append(one)
                break
            epi = -1 if ep is None or not self.en_passant else ep
            for a in self._pawn_attacks[me][s]:
                there = board[a]
                if there:
                    other = there[-1]
                    # onto an enemy: a volkhv only where taking the king wins
                    if other & _COLOR != me and (capture_king or other & _KIND_MASK != _KING_BITS):
                        out.append(a)
                elif a == epi:
                    out.append(a)
            return out
        own_ok = self.own_towers
        if kind == _KING:
            king_onto_own = own_ok and self.volkhv_stacks
            king_onto_enemy = self.volkhv_stacks or not self.prisoners
            for t in g.king[s]:
                if _volkhv_lands(board[t], me, capture_king, king_onto_own, king_onto_enemy):
                    out.append(t)
            return out
        if (_LEAP_BITS >> kind) & 1:
            for t in g.knight[s]:
                there = board[t]
                if not there:
                    out.append(t)
                    continue
                other = there[-1]
                if other & _KIND_MASK == _KING_BITS:
                    if capture_king and other & _COLOR != me:
                        out.append(t)
                elif other & _COLOR != me or own_ok:
                    out.append(t)
        if kind == _ROOK:
            lo, hi = 0, 4
        elif kind == _BISHOP:
            lo, hi = 4, 8
        elif kind == _QUEEN or kind == _HELGI:
            lo, hi = 0, 8
        else:
            return out
        pass_own = self.pass_over_own
        rays = g.rays[s]
        for d in range(lo, hi):
            for t in rays[d]:
                tower = board[t]
                if not tower:
                    out.append(t)
                    continue
                other = tower[-1]
                if other & _KIND_MASK == _KING_BITS:
                    if capture_king and other & _COLOR != me:
                        out.append(t)
                    break
                if other & _COLOR == me:
                    if own_ok:
                        out.append(t)
                    if pass_own:
                        continue
                    break
                out.append(t)
                break
        return out

    def pseudo_moves(self, position: Position) -> list[Move]:
        """Moves by the movement rules alone, before the volkhv-safety test."""
        return self._generate(position, legal_only=False)

    def pseudo_move_count(self, position: Position, color: int | None = None) -> int:
        """``len(self.pseudo_moves(position))``, counted without building a move.

        The lesson evaluation's mobility term needs only this number, for both
        sides at every leaf of a search: walking the patterns and adding up the
        landings costs a fraction of listing the moves. Every move of a tower
        to one destination counts: one per split count (the whole tower alone
        when splits are off), times the promotion choices where a ratnik
        promotes by choice; castlings are added as listed.

        ``color``: count for that side instead, as if it were its turn with no
        en passant square (the side not to move has none to use).
        """
        me = position.turn if color is None else color
        ep = position.ep_square if me == position.turn else None
        total = self._pattern_count(position.board, me, ep)
        if self.castling:
            paths = self._castling_paths(position, me)
            if paths:
                hit = self._attack_mask(position.board, paths[0] | paths[-1], 1 - me)
                total += sum(1 for path in paths if not path & hit)
        return total

    def activity(self, position: Position) -> tuple[int, int, int, int]:
        """What the lesson evaluation counts at a leaf, for the side to move and the other:
        ``(my moves, their moves, attacked squares around my volkhv, around theirs)``.

        The moves are ``pseudo_move_count`` for each side; the attacked squares are
        ``attacked_count`` of the volkhv's square and its neighbours, by the enemy.
        One pass over each side's units counts its moves and marks what it attacks
        around the enemy volkhv and on the enemy's castling paths.
        """
        board = position.board
        me = position.turn
        zones = self._attack_masks[4]
        zone = [0, 0]
        paths: list[list[int]] = [[], []]
        watch = [0, 0]
        for c in (0, 1):
            ks = position.king_square(c)
            if ks is not None:
                zone[c] = zones[ks]
            if self.castling:
                paths[c] = self._castling_paths(position, c)
            w = zone[c]
            for path in paths[c]:
                w |= path
            watch[c] = w
        count = [0, 0]
        hit_by = [0, 0]
        for c in (0, 1):
            count[c], hit_by[c] = self._scan(board, c, position.ep_square if c == me else None,
                                             watch[1 - c])
        for c in (0, 1):
            count[c] += sum(1 for path in paths[c] if not path & hit_by[1 - c])
        enemy = 1 - me
        return (count[me], count[enemy], (hit_by[enemy] & zone[me]).bit_count(),
                (hit_by[me] & zone[enemy]).bit_count())

    def _pattern_count(self, board: tuple, me: int, ep: int | None) -> int:
        """The moves of ``me``'s units by their patterns (castling aside), counted."""
        return self._scan(board, me, ep, 0)[0]

    def _scan(self, board: tuple, me: int, ep: int | None, zone: int) -> tuple[int, int]:
        """One pass over ``me``'s units: their moves by pattern (castling aside),
        counted as ``destinations`` lists them, and the squares of ``zone`` (a bit
        mask) they attack, as ``_attack_mask`` marks them."""
        g = self.geometry
        rays = g.rays
        knight = g.knight
        king = g.king
        size = g.size
        splits = self.splits
        choosing = self.promotion == "choice"
        choices = len(self.promotion_kinds)
        w = g.width
        far = self.far_rank[me]
        own_ok = self.own_towers
        pass_own = self.pass_over_own
        capture_king = self.king_capture
        volkhv_onto_own = own_ok and self.volkhv_stacks
        volkhv_onto_enemy = self.volkhv_stacks or not self.prisoners
        can_land = self._can_land
        fwd = self._forward[me]
        onto_own = self.ratnik_onto_own
        double_step = self.double_step
        pawn_home = self._pawn_home[me]
        pawn_attacks = self._pawn_attacks[me]
        en_passant = self.en_passant
        knight_mask, king_mask, ray_mask, pawn_mask, _ = self._attack_masks
        pawn_hits = pawn_mask[me]
        total = 0
        hit = 0
        for s, tower in enumerate(board):
            if not tower:
                continue
            top = tower[-1]
            if top & _COLOR != me:
                continue
            per = len(tower) if splits else 1       # moves per destination
            kind = ACTING[top]
            n = 0
            if kind == PAWN:
                if zone:
                    hit |= pawn_hits[s] & zone
                if choosing:
                    dests = self.destinations(board, s, top, me, ep)
                    total += per * sum(choices if to // w == far else 1 for to in dests)
                    continue
                # ``destinations``' ratnik steps, counted
                one = s + fwd
                if 0 <= one < size:
                    t1 = board[one]
                    if not t1 or (onto_own and t1[-1] & _COLOR == me
                                  and t1[-1] & _KIND_MASK != _KING_BITS):
                        n += 1
                    if not t1 and double_step and not top & MOVED and pawn_home[s]:
                        two = one + fwd
                        if 0 <= two < size:
                            t2 = board[two]
                            if not t2 or (onto_own and t2[-1] & _COLOR == me
                                          and t2[-1] & _KIND_MASK != _KING_BITS):
                                n += 1
                for a in pawn_attacks[s]:
                    t = board[a]
                    if t:
                        if t[-1] & _COLOR != me and can_land(board, a, me, PAWN):
                            n += 1
                    elif a == ep and en_passant:
                        n += 1
                total += per * n
                continue
            if kind == KING:
                if zone:
                    hit |= king_mask[s] & zone
                # ``_can_land`` for a volkhv, inlined
                for t in king[s]:
                    there = board[t]
                    if not there:
                        n += 1
                        continue
                    other = there[-1]
                    if other & _KIND_MASK == _KING_BITS:
                        if capture_king and other & _COLOR != me:
                            n += 1
                    elif other & _COLOR == me:
                        if volkhv_onto_own:
                            n += 1
                    elif volkhv_onto_enemy:
                        n += 1
                total += per * n
                continue
            if kind == KNIGHT or kind == HELGI:
                if zone:
                    hit |= knight_mask[s] & zone
                # ``_can_land`` for a leaper that is no volkhv, inlined
                for t in knight[s]:
                    there = board[t]
                    if not there:
                        n += 1
                        continue
                    other = there[-1]
                    if other & _KIND_MASK == _KING_BITS:
                        if capture_king and other & _COLOR != me:
                            n += 1
                    elif other & _COLOR != me or own_ok:
                        n += 1
            square_rays = rays[s]
            square_masks = ray_mask[s]
            for d in _SLIDE_DIRS.get(kind, ()):
                ray = square_rays[d]
                for t in ray:
                    there = board[t]
                    if not there:
                        n += 1
                        continue
                    other = there[-1]
                    if other & _KIND_MASK == _KING_BITS:
                        if capture_king and other & _COLOR != me:
                            n += 1
                        break
                    if other & _COLOR == me:
                        if own_ok:
                            n += 1
                        if pass_own:
                            continue
                        break
                    n += 1
                    break
                if zone and square_masks[d] & zone:
                    # the attack walk: as the moves' walk, but an own volkhv is passed
                    # over like any own tower where line pieces pass over their own
                    for t in ray:
                        hit |= (1 << t) & zone
                        there = board[t]
                        if there and not (pass_own and there[-1] & _COLOR == me):
                            break
            total += per * n
        return total, hit

    def _castling_paths(self, position: Position, me: int) -> list[int]:
        """The castlings ``_castlings`` would list for ``me`` before testing their paths
        for attacks: each path (volkhv's square and the two it crosses) as a bit mask."""
        board = position.board
        ks = position.king_square(me)
        if ks is None or ks != self._king_home[me]:
            return []
        tower = board[ks]
        king = tower[-1]
        if len(tower) != 1 or king & MOVED or king & PROMOTED:
            return []
        paths = []
        rays = self.geometry.rays[ks]
        for d in (2, 3):  # east (+file), west (-file) rays, as in ``_castlings``
            ray = rays[d]
            for i, s in enumerate(ray):
                t = board[s]
                if not t:
                    continue
                r = t[-1]
                if (i >= 2 and len(t) == 1 and r & _COLOR == me and _kind(r) == ROOK
                        and not r & MOVED and not r & PROMOTED and s in self._rook_homes[me]):
                    paths.append(1 << ks | 1 << ray[0] | 1 << ray[1])
                break
        return paths

    def attacked_count(self, board: tuple | list, squares: Any, by: int) -> int:
        """How many of ``squares`` ``by`` attacks: ``attacked_by`` summed, in one pass."""
        zone = 0
        for s in squares:
            zone |= 1 << s
        return self._attack_mask(board, zone, by).bit_count()

    def _attack_mask(self, board: tuple | list, zone: int, by: int) -> int:
        """The squares of ``zone`` (a bit mask) that ``by`` attacks, as a bit mask.

        Walked from the attackers' side: each of ``by``'s units marks the
        squares it attacks in the zone, and a line piece walks only the rays
        that reach it -- the same squares ``attacked_by`` finds walking out
        from each square of the zone.
        """
        knight_mask, king_mask, ray_mask, pawn_mask, _ = self._attack_masks
        pawn_hits = pawn_mask[by]
        rays = self.geometry.rays
        pass_own = self.pass_over_own
        hit = 0
        for s, tower in enumerate(board):
            if not tower:
                continue
            top = tower[-1]
            if top & _COLOR != by:
                continue
            kind = ACTING[top]
            if kind == PAWN:
                hit |= pawn_hits[s] & zone
                continue
            if kind == KING:
                hit |= king_mask[s] & zone
                continue
            if kind == KNIGHT or kind == HELGI:
                hit |= knight_mask[s] & zone
            square_masks = ray_mask[s]
            for d in _SLIDE_DIRS.get(kind, ()):
                if not square_masks[d] & zone:
                    continue
                for t in rays[s][d]:
                    hit |= (1 << t) & zone
                    there = board[t]
                    if there and not (pass_own and there[-1] & _COLOR == by):
                        break
        return hit

    def _move(self, s: int, k: int, to: int) -> Move:
        """The shared ``Move`` object for (s, k, to): moves are built once per board."""
        key = ((s * self._size) + to) * _COUNT_SLOTS + k
        m = self._move_cache.get(key)
        if m is None:
            m = self._move_cache[key] = Move(s, k, to)
        return m

    @cython.locals(me=cython.int, enemy=cython.int, epi=cython.int, ksq=cython.int,
                   legal=cython.bint, everything=cython.bint, splits=cython.bint,
                   choosing=cython.bint, w=cython.int, far=cython.int, size=cython.int,
                   skipped=cython.int, first=cython.int, last=cython.int, s=cython.int,
                   top=cython.int, h=cython.int, k=cython.int, to=cython.int, pawn=cython.bint,
                   ep_move=cython.bint, base=cython.long, key=cython.long)
    def _generate(self, position: Position, legal_only: bool,
                  first_only: bool = False, skip: int | None = None,
                  only: int | None = None, only_to: int | None = None) -> list[Move]:
        """Pseudo-legal moves, or (``legal_only``) those that keep the volkhv safe.

        The full make-and-test is needed only where a move can expose the
        volkhv: in check, volkhv moves, en passant, a split that uncovers an
        enemy tavrel, or emptying a square on a line to the volkhv (a pin).
        ``first_only`` stops at the first move; nothing moves from ``skip``;
        ``only`` (a square) generates the moves from that square alone, and
        ``only_to`` those of them that land there.
        """
        board = position.board
        me = position.turn
        enemy = 1 - me
        ep = position.ep_square
        epi = -1 if ep is None else ep
        moves: list[Move] = []
        ks = position.king_square(me) if legal_only else None
        legal = ks is not None
        ksq = -1 if ks is None else ks
        everything = legal and (self.pass_over_own or self.attacked_by(board, ksq, enemy))
        if not legal or everything:
            pinned: Any = ()
        elif only is not None:  # one square: is it pinned, not which squares are
            pinned = (only,) if self._maybe_pinned(board, ksq, only, enemy) else ()
        else:
            pinned = self._pinned(board, ksq, enemy)
        splits = self.splits
        choosing = self.promotion == "choice"
        w = self.geometry.width
        far = self.far_rank[me]
        cache = self._move_cache
        size = self._size
        skipped = -1 if skip is None else skip
        first, last = (0, size) if only is None else (only, only + 1)
        for s in range(first, last):
            tower = board[s]
            if not tower:
                continue
            top = tower[-1]
            if top & _COLOR != me or s == skipped:
                continue
            dests = self.destinations(board, s, top, me, ep)
            if only_to is not None:
                dests = [only_to] if only_to in dests else []
            if not dests:
                continue
            h = len(tower)
            pawn = ACTING[top] == _PAWN
            # ``full[k]``: moving k tavrels from s needs the make-and-test
            if not legal:
                full = None
            elif everything or s == ksq:
                full = _ALL_TRUE
            elif h == 1:
                full = _PINNED_ONE if s in pinned else None
            else:   # a split that uncovers an enemy tavrel; the whole tower if pinned
                full = [False] * (h + 1)
                for k in range(1, h):
                    if tower[h - k - 1] & _COLOR == enemy:
                        full[k] = True
                if s in pinned:
                    full[h] = True
            base = s * size
            if h == 1 or not splits:
                # one count per destination: the whole tower
                for to in dests:
                    if choosing and pawn and to // w == far:
                        self._promotion_moves(position, s, h, to, full, moves)
                        continue
                    key = (base + to) * _COUNT_SLOTS + h
                    m = cache.get(key)
                    if m is None:
                        m = cache[key] = Move(s, h, to)
                    if legal and ((full is not None and full[h])
                                  or (pawn and to == epi and not board[to])) \
                            and not self._safe_after(position, m):
                        continue
                    moves.append(m)
                    if first_only:
                        return moves
                continue
            for to in dests:
                if choosing and pawn and to // w == far:
                    for k in range(1, h + 1):
                        self._promotion_moves(position, s, k, to, full, moves)
                    continue
                ep_move = pawn and to == epi and not board[to]
                key = (base + to) * _COUNT_SLOTS
                for k in range(1, h + 1):
                    m = cache.get(key + k)
                    if m is None:
                        m = cache[key + k] = Move(s, k, to)
                    if legal and ((full is not None and full[k]) or ep_move) \
                            and not self._safe_after(position, m):
                        continue
                    moves.append(m)
                    if first_only:
                        return moves
        if self.castling and (only is None or only == position.king_square(me)):
            moves.extend(m for m in self._castlings(position)
                         if only_to is None or m.to_square == only_to)
        return moves

    def _castlings(self, position: Position, color: int | None = None) -> list[Move]:
        """Castlings of the side to move (or of ``color``, as if it were its turn)."""
        board = position.board
        me = position.turn if color is None else color
        ks = position.king_square(me)
        if ks is None or ks != self._king_home[me]:
            return []
        tower = board[ks]
        king = tower[-1]
        if len(tower) != 1 or king & MOVED or king & PROMOTED:
            return []
        enemy = 1 - me
        out = []
        g = self.geometry
        for d in (2, 3):  # east (+file), west (-file) rays
            ray = g.rays[ks][d]
            for i, s in enumerate(ray):
                t = board[s]
                if not t:
                    continue
                r = t[-1]
                if (i >= 2 and len(t) == 1 and r & _COLOR == me and _kind(r) == ROOK
                        and not r & MOVED and not r & PROMOTED and s in self._rook_homes[me]):
                    path = (ks, ray[0], ray[1])
                    if not any(self.attacked_by(board, p, enemy) for p in path):
                        out.append(Move(ks, 1, ray[1], 0, True))
                break
        return out

    def legal_moves(self, position: Position) -> list[Move]:
        """The legal moves (a new list each call, the caller's to change).

        A game asks for the same position's moves several times a ply: the game
        loop, the agent, the search's root and ``push`` each ask, and building
        the list afresh each time is a lab game's cost. The last position answered is kept with its
        moves: a position never changes, and the memo holds it, so no other
        position can take its identity. Only positions of these very rules are
        kept and read -- a copy of the rules (``engine.perft.metered`` counts its
        moves) shares the memo but never reads it.
        """
        mine = position.rules is self
        memo = self._legal_memo
        if mine and memo is not None and memo[0] is position:
            return list(memo[1])
        if self.king_capture:
            moves = self._king_capture_legal(position)
        else:
            moves = self._generate(position, legal_only=True)
        if mine:
            self._legal_memo = (position, tuple(moves))
        return moves

    def legal_moves_from(self, position: Position, square: int,
                         to: int | None = None) -> list[Move]:
        """The legal moves from ``square`` (landing on ``to`` if given): ``legal_moves``
        filtered, in its order.

        A record names the squares of its move, so reading one needs only the
        moves between them (a replay built the whole list each ply and tested
        about 29 moves that were not played). A subclass that changes
        ``legal_moves`` (or one set on the instance) is answered by filtering its
        list, so it stays the truth.
        """
        own = getattr(self.legal_moves, "__func__", None) is TowerChessRules.legal_moves
        if self.king_capture or not own or not 0 <= square < self._size:
            return super().legal_moves_from(position, square, to)
        return self._generate(position, legal_only=True, only=square, only_to=to)

    def has_legal_move(self, position: Position) -> bool:
        """Whether any legal move exists: ``bool(legal_moves(position))``, found faster.

        It is asked at every leaf of a tree and of a search (is the game over
        there?), so it stops at the first legal move, and it tries the volkhv's
        own steps first with a test that builds no position (``_volkhv_can_step``):
        a side reduced to its volkhv -- a common leaf -- is answered by one or two
        attack tests. The other units follow, first move first.
        """
        if self.king_capture:
            return bool(self.legal_moves(position))
        ks = position.king_square(position.turn)
        if ks is None:
            return bool(self._generate(position, legal_only=True, first_only=True))
        if _volkhv_can_step(self, position, ks):
            return True
        return bool(self._generate(position, legal_only=True, first_only=True, skip=ks))

    def _promotion_moves(self, position: Position, s: int, k: int, to: int,
                         full: Any, out: list[Move]) -> None:
        """One move per promotion choice (promotion = "choice")."""
        for p in self.promotion_kinds:
            m = Move(s, k, to, p)
            if full is None or not full[k] or self._safe_after(position, m):
                out.append(m)

    @cython.locals(ks=cython.int, enemy=cython.int, d=cython.int, t=cython.int, first=cython.int,
                   top=cython.int, sliders=cython.int)
    def _pinned(self, board: tuple, ks: int, enemy: int) -> set[int]:
        """Squares whose emptying opens a line from an enemy slider to the volkhv."""
        pinned = set()
        rays = self.geometry.rays[ks]
        for d in range(8):
            sliders = _ORTH_BITS if d < 4 else _DIAG_BITS
            first = -1
            for t in rays[d]:
                tower = board[t]
                if not tower:
                    continue
                top = tower[-1]
                if first < 0:
                    if top & _COLOR == enemy:
                        break
                    first = t
                    continue
                if top & _COLOR == enemy and (sliders >> ACTING[top]) & 1:
                    pinned.add(first)
                break
        return pinned

    def _maybe_pinned(self, board: tuple, ks: int, s: int, enemy: int) -> bool:
        """Could emptying ``s`` open a line from an enemy slider to the volkhv?"""
        d = self._line_dir.get((ks, s))
        if d is None:
            return False
        sliders = ORTH_SLIDERS if d < 4 else DIAG_SLIDERS
        seen = False
        for t in self.geometry.rays[ks][d]:
            if t == s:
                seen = True
                continue
            tower = board[t]
            if tower:
                if not seen:
                    return False
                top = tower[-1]
                return top & _COLOR == enemy and ACTING[top] in sliders
        return False

    def _safe_after(self, position: Position, move: Move) -> bool:
        after = self.apply(position, move)
        ks = after.king_square(position.turn)
        return ks is None or not self.attacked_by(after.board, ks, 1 - position.turn)

    def _king_capture_legal(self, position: Position) -> list[Move]:
        """B6 default: any move may leave the king attacked, but the king may step
        onto its own pieces only where they are not attacked (B5.3)."""
        me = position.turn
        board = position.board
        out = []
        for m in self.pseudo_moves(position):
            top = board[m.from_square][-1]
            dest = board[m.to_square]
            if (_kind(top) == KING and dest and dest[-1] & _COLOR == me
                    and self.attacked_by(board, m.to_square, 1 - me)):
                continue
            out.append(m)
        return out

    # -- making a move -----------------------------------------------------------
    def promotions(self, ratnik: Tavrel) -> tuple[int, ...]:
        """What ``_promoted`` can make of ``ratnik``: its destiny, the choices, or the knyaz."""
        if self.promotion == "destiny" and ratnik.destiny:
            return (ratnik.destiny,)
        return self.promotion_kinds if self.promotion == "choice" else (QUEEN,)

    def _promoted(self, t: int, choice: int = 0) -> Tavrel:
        if self.promotion == "destiny" and t & _DESTINY_MASK:
            return TAVRELS[t | PROMOTED]
        kind = choice or QUEEN
        return TAVRELS[(t & ~0b1110000) | (kind << 4) | PROMOTED]

    @cython.locals(me=cython.int, w=cython.int, fr=cython.int, k=cython.int, to=cython.int,
                   promotion=cython.int, castling=cython.bint, halfmove=cython.int,
                   step=cython.int, rook_sq=cython.int, h=cython.int, top=cython.int,
                   dtop=cython.int, rtop=cython.int, owner=cython.int, victim_sq=cython.int,
                   pawn_move=cython.bint, capture=cython.bint, prisoners=cython.bint,
                   demote_any=cython.bint, promote_enemy=cython.bint, pos=_CPosition,
                   tower=tuple, rest=tuple, unit=tuple, dest=tuple, with_moved=tuple,
                   acting=tuple)
    def apply(self, position: Position, move: Move) -> Position:
        pos = position
        old = pos.board
        me = pos.turn
        w, forward, far_rank, prisoners, demote_any, promote_enemy = self._apply_reads
        fr, k, to, promotion, castling = move
        with_moved = WITH_MOVED
        acting = ACTING
        halfmove = pos.halfmove_clock + 1
        ep = None
        kings = pos._kings
        if castling:
            board = list(old)
            step = 1 if to > fr else -1
            rook_sq = to + step
            while not board[rook_sq]:
                rook_sq += step
            king, rook = board[fr][-1], board[rook_sq][-1]
            board[fr] = ()
            board[rook_sq] = ()
            board[to] = (WITH_MOVED[king],)
            board[fr + step] = (WITH_MOVED[rook],)
            kings = self._volkhv_moved(kings, me, fr, to)
            after = tuple(board)
        else:
            tower = old[fr]
            h = len(tower)
            if k == 1:
                rest = tower[:-1]
                unit: tuple[Tavrel, ...] = (with_moved[tower[-1]],)
            else:
                rest = tower[:h - k]
                unit = tuple([with_moved[t] for t in tower[h - k:]])
            top = unit[-1]
            pawn_move = acting[top] == _PAWN
            if top & _KIND_MASK == _KING_BITS:
                kings = self._volkhv_moved(kings, me, fr, to)
            dest = old[to]
            capture = False
            victim_sq = -1
            passed = pos.ep_square
            if (pawn_move and passed is not None and to == passed and not dest
                    and (to - fr) % w != 0):
                victim_sq = to - forward[me]
                victim = old[victim_sq]
                dest = (victim[-1],) if prisoners else ()
                capture = True
            elif dest:
                dtop = dest[-1]
                capture = dtop & _COLOR != me
                if dtop & _KIND_MASK == _KING_BITS:
                    kings = None
                if capture and not prisoners:
                    dest = ()
                elif dtop & _PROMOTED and (capture or demote_any):
                    dest = dest[:-1] + (TAVRELS[dtop & ~_PROMOTED],)
            if pawn_move and to // w == far_rank[me]:
                unit = unit[:-1] + (self._promoted(top, promotion),)
            if rest:   # ``_left_behind``, inlined: an uncovered ratnik on its far rank
                rtop = rest[-1]
                owner = rtop & _COLOR
                if (acting[rtop] == _PAWN and fr // w == far_rank[owner]
                        and (owner == me or promote_enemy)):
                    rest = rest[:-1] + (self._promoted(rtop),)
            landed = dest + unit if dest else unit
            if victim_sq >= 0:
                board = list(old)
                board[victim_sq] = old[victim_sq][:-1]
                board[to] = landed
                board[fr] = rest
                after = tuple(board)
            else:
                after = _replaced(old, to, landed, fr, rest)
            if pawn_move and (to - fr == 2 * w or fr - to == 2 * w):
                ep = fr + forward[me]
            if pawn_move or capture:
                halfmove = 0
        # The volkhv record is unchanged unless a volkhv moved or was landed on.
        if cython.compiled:
            return _new_position(self, after, 1 - me, ep, halfmove, pos.fullmove_number + me,
                                 pos.roll, kings)
        return Position(self, after, 1 - me, ep,  # type: ignore[arg-type]
                        halfmove, pos.fullmove_number + me, pos.roll, volkhv_squares=kings)

    @cython.locals(fr=cython.int, me=cython.int, rtop=cython.int, owner=cython.int)
    def _left_behind(self, rest: tuple[Tavrel, ...], fr: int, me: int) -> tuple[Tavrel, ...]:
        """The tower a move leaves on ``fr``: a ratnik it uncovers on its owner's far
        rank is promoted (A8.1; an enemy one only with ``promote_uncovered_enemy``)."""
        if not rest:
            return rest
        rtop = rest[-1]
        owner = rtop & _COLOR
        if (ACTING[rtop] == _PAWN and fr // self.geometry.width == self.far_rank[owner]
                and (owner == me or self.promote_uncovered_enemy)):
            return rest[:-1] + (self._promoted(rtop),)
        return rest

    def _volkhv_moved(self, kings: tuple[int | None, int | None] | None, me: int,
                      fr: int, to: int) -> tuple[int | None, int | None] | None:
        """Where the volkhvs stand after the mover's volkhv went from ``fr`` to ``to``.

        A side has one volkhv (``validate``), always on top, so it now stands on ``to``
        and the other is where it was: recording that spares the next ``king_square``
        a scan of the whole board -- a tree or a search asks after every volkhv step.
        None (scan again) when nothing was recorded, and under king capture, where a
        volkhv can be buried and a split can uncover it again.
        """
        if kings is None or kings[me] != fr or self.king_capture:
            return None
        return (to, kings[1]) if me == 0 else (kings[0], to)

    # -- the end -----------------------------------------------------------------
    def buried_king(self, position: Position) -> Color | None:
        """The colour whose king has been taken prisoner, if any (king-capture win)."""
        for tower in position.board:
            for t in tower[:-1]:
                if _kind(t) == KING:
                    return t & _COLOR
        return None

    def outcome(self, position: Position, repetitions: int = 1,
                claim_draw: bool = False) -> Outcome | None:
        if self.king_capture:
            loser = self.buried_king(position)
            if loser is not None:
                return Outcome("king-capture", 1 - loser)  # type: ignore[arg-type]
        if not self.has_legal_move(position):
            if self.is_check(position):
                return Outcome("checkmate", 1 - position.turn)  # type: ignore[arg-type]
            return Outcome("stalemate")
        return self.claimable_draw(position, repetitions) if claim_draw else None

    def claimable_draw(self, position: Position, repetitions: int) -> Outcome | None:
        """The draw a player may claim here (A9.2, A9.3), if the options allow it."""
        if self.options["fifty_move_rule"] and position.halfmove_clock >= 100:
            return Outcome("fifty-move-rule")
        if self.options["repetition_draw"] and repetitions >= 3:
            return Outcome("threefold-repetition")
        return None

    # -- what the engine may shortcut ---------------------------------------------
    #: (set by the first ``fast_paths``: a class's answer never changes)
    _fast_paths: FastPaths | None = None

    def fast_paths(self) -> FastPaths:
        """This module as the engine's tower kernel, while its class keeps every member
        the kernel's answers reproduce (``MOVEMENT_MEMBERS``; ``GAME_MEMBERS`` too for
        ``whole_game``). A plugin subclass that changes nothing keeps every fast path;
        one that changes its move generation or its end of the game is played through
        its own members, which the kernel would bypass."""
        paths = self._fast_paths
        if paths is None:
            cls = type(self)
            if unchanged_members(cls, TowerChessRules, MOVEMENT_MEMBERS):
                paths = FastPaths(tower=self, whole_game=unchanged_members(
                    cls, TowerChessRules, GAME_MEMBERS))
            else:
                paths = NO_FAST_PATHS
            self._fast_paths = paths
        return paths

    # -- chance: none in this family (RuleModuleBase's answers) ------------------


#: Members that only read the variant, or answer what the engine never shortcuts: a
#: subclass may change them and keep the fast paths (those read what they set).
READS_VARIANT = frozenset({"__init__", "__init_subclass__", "_read_homes", "validate",
                           "initial_position", "default_destinies", "claimable_draw",
                           "fast_paths"})
#: What decides legality and the end of the game beyond the movement rules: the
#: engine's ``whole_game`` shortcuts (generating and testing moves on the kernel,
#: "is there a legal move?" for the end) reproduce these. The chance members are
#: ``RuleModuleBase``'s: a subclass that adds a die changes the game too.
GAME_MEMBERS = frozenset({"legal_moves", "legal_moves_from", "has_legal_move", "is_check",
                          "outcome", "promotions", "buried_king", "_pinned", "_maybe_pinned",
                          "_safe_after", "_king_capture_legal", "is_chance_node",
                          "chance_outcomes", "apply_roll", "pending_roll"})
#: Every other method of the family: its movement rules, attacks and ``apply``, which
#: the kernel's board-level answers (``TowerKernel``) and the incremental evaluation
#: reproduce. New methods count here unless listed above: a shortcut is kept only
#: where it is known to be the module's own answer.
MOVEMENT_MEMBERS = own_methods(TowerChessRules, READS_VARIANT | GAME_MEMBERS)


@cython.cfunc
@cython.returns(cython.bint)
@cython.locals(position=_CPosition, ks=cython.int, me=cython.int, enemy=cython.int,
               h=cython.int, k=cython.int, to=cython.int, pass_own=cython.bint, board=tuple,
               tower=tuple, rest=tuple, tables=tuple, reads=tuple, dests=list,
               capture_king=cython.bint, onto_own=cython.bint, onto_enemy=cython.bint)
def _volkhv_can_step(rules: TowerChessRules, position: Position, ks: int) -> bool:
    """Has the volkhv on ``ks`` a step (castling aside) after which it is not attacked?

    The same test ``_generate`` makes for a volkhv move -- play it, then ask
    whether the volkhv's new square is attacked -- without building the
    position: only the square the volkhv leaves differs (it keeps what the
    move leaves behind, ``_left_behind``), and the attack test never looks at
    the square it tests, so the attack test reads the board as it is, that one
    square as the move leaves it (``_attacked``: no board copied). (A function,
    not a method: a tree asks at nearly every leaf, and the compiled build calls it
    in C.)
    """
    board = position.board
    me = position.turn
    tower = board[ks]
    h = len(tower)
    tables = rules._attack_tables
    reads = rules._volkhv_reads
    if reads[5]:   # ``destinations``' volkhv squares, found here with no method call
        capture_king, onto_own, onto_enemy = reads[0], reads[1], reads[2]
        dests = [to for to in tables[2][ks]
                 if _volkhv_lands(board[to], me, capture_king, onto_own, onto_enemy)]
    else:
        dests = rules.destinations(board, ks, tower[h - 1], me, position.ep_square)
    if not dests:
        return False
    enemy = 1 - me
    pawn_attacks = tables[3 + me]
    pass_own = reads[3]
    k = 1 if reads[4] else h
    while k <= h:
        rest = tower[:h - k] if k < h else ()
        left = rules._left_behind(rest, ks, me) if rest else rest
        for to in dests:
            if not _attacked(board, to, enemy, ks, left, tables[0], tables[1], tables[2],
                             pawn_attacks, pass_own):
                return True
        k += 1
    return False
