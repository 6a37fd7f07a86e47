"""The playing search: as strong as possible in the time given, in pure Python.

``engine.search.Searcher`` is the *lesson* search: a faithful fixed-depth
minimax whose answers are reproducible and explainable. This module is the
*playing* search, for agents that face a class or a tournament. It gives up
exactness for depth, with the techniques every chess program uses (and that
sunfish shows pay off in Python, where avoiding work is all that helps):

- **incremental evaluation** (``engine.play_eval``): the material and square
  terms are carried down the tree and updated on the two to four squares a
  move changes; mobility and volkhv safety are counted without building moves,
  and only when the cheap part cannot already decide a cut-off (lazy);
- **quiescence search**: at the horizon, captures, promotions and the splits
  that free a prisoner are played out until the position is quiet, so that a
  leaf is never scored in the middle of an exchange (the side to move may
  "stand pat" on the evaluation instead of capturing). Nothing leaves a
  Tavreli board, so exchanges do not run out by themselves: two plies below
  the horizon only recaptures (onto the square just taken) go on;
- **null-move pruning**: if even passing keeps a position above beta, a
  shallower search of the pass is proof enough to cut;
- **late-move reductions**: quiet moves ordered late are searched one or two
  plies shallower, and again at full depth only if they surprise (at the root
  too, from depth 4: a middlegame root has up to two hundred moves). A split
  that frees a prisoner is never "quiet": it wins material like a capture;
- **principal-variation search** with **aspiration windows**: the first move
  gets the full window, the others a null window that only asks "better?";
  each iteration starts from a narrow window around the last value;
- **ordering** and **staged generation**: the table's move, captures by most
  valuable victim / least valuable attacker, promotions, prisoner-freeing
  splits, two killer moves per ply, and a history score for quiet moves that
  caused cut-offs. The stages are generated one after the other: most nodes
  are cut off by the table's move or a capture, and never pay for listing
  and sorting their quiet moves (in a tower middlegame, a hundred or more);
- a **transposition table** whose deeper entries are reused (which the
  lesson search refuses, to stay exact), kept between the moves of a game;
- a **check extension**, so that mating lines are followed to the end;
- for die games, **expectiminimax with Star2** (Ballard 1983): before
  searching the die faces fully, each face's position is *probed* with its
  first move only; those probes are lower bounds, and together with the
  faces' probabilities they often prove a cut-off at once.

Values are whole centipawns inside the search (so a null window is exactly
one unit wide) and pawns in the ``SearchResult``, as the lesson search
reports them: a mate is ``MATE - plies`` in both, so the two agree on forced
mates. Time is measured on the wall clock (or the ``clock`` given) and checked at
every 16 nodes: a time-limited search uses its whole budget (deepening until the clock
stops it; the stopped iteration's best proven root move counts) and stops within a
few nodes of it.

In the compiled build (docs/compiled.md) ``play.pxd`` makes ``PlaySearcher`` an
extension type, with C methods for the nodes and C ints for scores and bounds; the
``@cython.locals`` here type their hot locals. This file stays the one source, and
runs unchanged as pure Python.
"""

from __future__ import annotations

import gc
import math
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from tavrei_lab.core import cython_shim as cython
else:
    try:
        import cython
    except ImportError:   # no Cython (Pyodide, a plain install): the declarations do nothing
        from tavrei_lab.core import cython_shim as cython

from tavrei_lab.core.move import Move, Roll
from tavrei_lab.core.position import Position
from tavrei_lab.core.tavrel import ACTING, COLOR_BIT, KIND_BITS, KIND_SHIFT, KING, PAWN, QUEEN
from tavrei_lab.engine.chess_eval import (
    PHASE_MAX,
    chess_tables_for,
    game_phase,
    plays_as_chess,
)
from tavrei_lab.engine.evaluate import MATE, VALUES
from tavrei_lab.engine.play_eval import LAZY_MARGIN, die_faces, tables_for
from tavrei_lab.engine.search import (
    Limits,
    SearchLimitReached,
    SearchResult,
    principal_variation,
)
from tavrei_lab.engine.weights import DEFAULT_WEIGHTS, Weights
from tavrei_lab.engine.zobrist import TURN_KEY, changed_squares, update_hash, zobrist_hash
from tavrei_lab.errors import TavreiError
from tavrei_lab.i18n import gettext as _

if TYPE_CHECKING:
    from tavrei_lab.rules.base import RuleModule, TowerKernel

if cython.compiled:
    # Position as the extension type of core/position.pxd (play.pxd declares it so too)
    from cython.cimports.tavrei_lab.core.position import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
        Position as _CPosition,
    )
else:
    _CPosition = Position

#: Mate in centipawns: a mate ``ply`` plies away scores ``MATE_CP - 100 * ply``.
MATE_CP = round(MATE * 100)
#: Scores beyond this are mates (they are stored in the table relative to the node).
MATE_BOUND = MATE_CP - 100 * 1000
INF = 10 * MATE_CP
#: Die games: the bounds Star1/Star2 take for any position's value. A king taken
#: prisoner is a win worth a mate, so the bound is the mate score itself.
CHANCE_BOUND = MATE_CP
#: Half-width of the first aspiration window (centipawns).
ASPIRATION = 40
#: Plies beyond which checks are no longer extended (keeps perpetual checks finite).
MAX_EXTENSION_PLY = 40
#: Quiescence plies at most, below the horizon.
MAX_QUIESCENCE = 6
#: Quiescence plies from which only recaptures (onto the square just taken) are tried:
#: in Tavreli nothing leaves the board, so a capture on any square can go on for ever.
RECAPTURE_PLY = 2
#: Root moves searched at full depth; quiet moves after them are tried one ply
#: shallower first (a late-move reduction at the root) from depth 4 on.
ROOT_FULL_MOVES = 6
#: Futility margins by remaining depth (centipawns): a quiet move is skipped when
#: the score plus this cannot reach alpha.
FUTILITY = (0, 150, 400)
#: Late-move pruning by remaining depth: quiet moves after this many are skipped
#: at non-PV nodes near the horizon.
LATE_MOVES = (0, 8, 14, 22)

#: The endgame (``PlaySearcher.phases``): no knyaz on the board, or at most this much
#: (centipawns) in units other than volkhvs and ratniks, both sides together.
ENDGAME_MATERIAL = 2600
#: The endgame's square bonuses (centipawns): the volkhv steps up (per rank, up to 3)
#: and is fined on the edge ring; a ratnik gains more per rank advanced.
ENDGAME_VOLKHV_ADVANCE = 6.0
ENDGAME_VOLKHV_EDGE = -25.0
ENDGAME_RATNIK_ADVANCE = 10.0
#: ``PlaySearcher(contempt=...)``: the root evaluation (centipawns, a ratnik) from which
#: a side counts as standing better, so that a draw costs it the contempt.
CONTEMPT_MARGIN = 100
#: The clock is read every ``CLOCK_MASK + 1`` nodes (a CPU-time clock is a system call,
#: up to a microsecond; 16 nodes are about half a millisecond of search).
CLOCK_MASK = 15

_EXACT, _LOWER, _UPPER = 0, 1, 2
# The same numbers as C constants for the compiled build's hot methods (play.pxd).
_MATE_CP = cython.declare(cython.int, MATE_CP)
_MATE_BOUND = cython.declare(cython.int, MATE_BOUND)
_INF = cython.declare(cython.int, INF)
_MAX_EXTENSION_PLY = cython.declare(cython.int, MAX_EXTENSION_PLY)
_MAX_QUIESCENCE = cython.declare(cython.int, MAX_QUIESCENCE)
_CLOCK_MASK = cython.declare(cython.int, CLOCK_MASK)
# The tavrel layout (``core.tavrel``, its one home), as C constants in the compiled build.
_COLOR = cython.declare(cython.int, COLOR_BIT)
_KIND_MASK = cython.declare(cython.int, KIND_BITS)
_KIND_SHIFT = cython.declare(cython.int, KIND_SHIFT)
_PAWN = cython.declare(cython.int, PAWN)
_KING = cython.declare(cython.int, KING)
#: The die's hierarchy rank of each acting kind (King 6 ... Pawn 1, helgi as queen).
_DIE_RANK = [0, 6, 5, 4, 3, 2, 1, 5]
_VALUE_CP = [round(100 * VALUES.get(k, 0.0)) for k in range(8)]


def _first(pair: tuple[int, Move]) -> int:
    return pair[0]


def _terminal(outcome: Any, turn: int, ply: int) -> int:
    if outcome.winner is None:
        return 0
    mate = MATE_CP - 100 * ply
    return mate if outcome.winner == turn else -mate


@cython.cfunc
@cython.returns(cython.bint)
@cython.locals(me=cython.int, rest=cython.Py_ssize_t)
def _quiet_move(board: Any, m: Move, me: int) -> bool:
    """``PlaySearcher._quiet`` (the search calls this, a C function when compiled)."""
    dest = board[m.to_square]
    if dest and dest[-1] & _COLOR != me:
        return False
    tower = board[m.from_square]
    if ACTING[tower[-1]] == _PAWN:
        return False
    rest = len(tower) - m.count
    return not (rest and tower[rest - 1] & _COLOR == me and tower[rest] & _COLOR != me)


@cython.cfunc
@cython.returns(cython.longlong)
@cython.locals(s=cython.longlong, count=cython.longlong, to=cython.longlong,
               p=cython.longlong, castling=cython.longlong, size=cython.longlong)
def _move_number(s: int, count: int, to: int, p: int, castling: int, size: int) -> int:
    """A move's number, one to one: its squares, count (at most ``MAX_TOWER_HEIGHT``,
    512), promotion (a kind, below 8) and castling flag (64-bit arithmetic compiled).
    ``PlaySearcher._moves`` keeps each move by it, and the table holds it."""
    return (((s * size + to) * 1024 + count) * 8 + p) * 2 + castling


@cython.cfunc
@cython.locals(pos=_CPosition)
def _kings_of(pos: Position) -> tuple[int | None, int | None]:
    """(white's, black's) volkhv squares, as ``pos.king_square`` says them: the record the
    position keeps once they are known (a struct field compiled, no method call)."""
    kings = pos._kings
    if kings is None:
        return (pos.king_square(0), pos.king_square(1))
    return kings


class PlaySearcher:
    """The playing search (see the module notes). One per agent and rule module.

    ``quiescence``, ``null_move`` and ``reductions`` switch techniques off (for
    the benchmarks that show what each buys); ``noise`` (centipawns) blurs the
    evaluation for the beginner levels, deterministically per position and
    ``seed``; ``star2`` switches probing off at die chance nodes (Star1 only).
    """

    def __init__(self, rules: RuleModule, *, quiescence: bool = True, null_move: bool = True,
                 reductions: bool = True, star2: bool = True, noise: int = 0,
                 seed: int | None = None, max_table: int = 400_000,
                 clock: Callable[[], float] = time.perf_counter,
                 weights: Weights | None = None, contempt: int = 0) -> None:
        if isinstance(contempt, bool) or not isinstance(contempt, int) \
                or not 0 <= contempt <= 1000:
            raise TavreiError(_("play search: contempt must be 0..1000 centipawns, got "
                                "{contempt!r}").format(contempt=contempt))
        self.rules = rules
        #: centipawns a draw by repetition, the fifty-move rule or stalemate costs the
        #: side that stands better at the root (``CONTEMPT_MARGIN`` or more on the
        #: evaluation), and gains the side that stands worse: the one ahead plays on
        #: rather than take a draw it rates little below its winning line, the one
        #: behind takes it. 0: every draw is 0.
        self.contempt = contempt
        self._draw = [0, 0]
        #: what time budgets are measured with: the wall clock (an agent's answer
        #: time), or ``time.process_time`` for CPU-time benchmarks on a busy machine
        self.clock = clock
        # What the module offers beyond the contract (``RuleModule.fast_paths``): never
        # which class it is, so a plugin subclass that changes nothing searches as its
        # parent does, and one that changes a rule the shortcuts reproduce, through its
        # own members.
        paths = rules.fast_paths()
        tower_rules = paths.tower
        #: the tower kernel decides the whole game, with checkmate: every fast path applies
        self.fast = tower_rules is not None and paths.whole_game and not rules.king_capture
        self.has_chance = rules.has_chance
        #: the Gavrilov die game, whose faces allow nested sets of moves (see _die_chance)
        self.die = paths.die if (paths.die is not None and paths.die.no_move_passes
                                 and star2) else None
        #: a move changes only the squares ``changed_squares`` names, as the kernel's apply
        self.incremental = tower_rules is not None
        # the kernel's board-level helpers (attacked_by, destinations, far_rank) are
        # called only on the fast paths (``self.fast``), where it is there
        self.tower_rules: TowerKernel = cast("TowerKernel", tower_rules)
        self.pass_over_own = rules.pass_over_own
        self.fifty = rules.fifty_move_rule
        #: the evaluation's terms (``engine.weights``): folded into the shared tables
        self.weights = weights if weights is not None else DEFAULT_WEIGHTS
        self.tables = tables_for(rules.geometry, self.weights)
        #: die games with weights that count the die's threats: the faces' ranks and
        #: probabilities (``play_eval.BoardTables.die_threats``); None otherwise, so the
        #: default weights pay nothing for die terms they do not use
        self.die_faces = die_faces(rules) if self.weights.die_terms else None
        #: Where captures leave the board (orthodox chess), the endgame comes: then
        #: the volkhv belongs in the centre and the ratniks' march is worth more. The
        #: phase is read at the root of each search (``ENDGAME_MATERIAL``) and the
        #: square bonuses swapped for the whole search, which keeps the evaluation
        #: incremental. Tavreli keeps its one set (nothing leaves its board).
        self._middle_tables = self.tables
        self._end_tables: Any = None
        self.phases = self.fast and not self.tower_rules.prisoners
        #: no tower can form (orthodox chess): the chess evaluation (``engine.chess_eval``),
        #: its square tables tapered by the phase read at each root
        self.chess = self.phases and plays_as_chess(rules)
        if self.chess:
            self.tables = self._middle_tables = chess_tables_for(rules.geometry, self.weights,
                                                                 PHASE_MAX)
        self._lazy = getattr(self.tables, "lazy_margin", LAZY_MARGIN)
        #: per kind, centipawns: pruning and ordering use the same values the leaves do
        self._value_cp = [round(100 * v) for v in self.tables.value_by_kind]
        self.quiescence = quiescence and self.fast
        #: quiescence plies from which only recaptures are tried: where captured
        #: tavrels stay as prisoners, exchanges never run out; where a capture removes
        #: them (orthodox chess), they do, and every capture is played out
        self.recapture_ply = (RECAPTURE_PLY if not self.fast or self.tower_rules.prisoners
                              else MAX_QUIESCENCE)
        self.null_move = null_move and self.fast
        self.reductions = reductions
        self.star2 = star2
        self.noise = noise
        self.noise_key = random.Random(seed).getrandbits(64) if noise else 0
        self.max_table = max_table
        # The table's entries hold their best move as a number (``_move_number``), -1
        # for none, and ``_moves`` the move of each number: an entry is then a tuple
        # of ints, which the cyclic collector stops tracking. With the ``Move`` in it
        # every entry stayed tracked, and the full collection after a search (the
        # collector is paused during it) walked them all: at 200,000-350,000 entries it
        # took a 1 s move 140 ms past its budget in the sunfish match.
        self.table: dict[int, tuple[int, int, int, int]] = {}
        self.history: dict[tuple[int, int], int] = {}
        self.killers: list[list[Move | None]] = []
        #: the moves ``_tactical_moves`` makes, each made once (``_move``), and the
        #: table's moves, by their numbers (``_move_number``)
        self._moves: dict[int, Move] = {}
        self._size = rules.geometry.size
        self.nodes = 0
        self._deadline: float | None = None
        self._node_limit: int | None = None
        self._path: Counter[int] = Counter()
        self._game: Counter[int] = Counter()
        if self.fast:
            choices = self.tower_rules.promotion_kinds
            self._promotion = (0 if self.tower_rules.promotion != "choice"
                               else QUEEN if QUEEN in choices else choices[0])

    # == public ================================================================================
    def search(self, position: Position, limits: Limits,
               history: Iterable[int] = ()) -> SearchResult:
        """Search ``position`` (a decision node) within ``limits``; see ``Searcher.search``.

        The cyclic garbage collector is paused while it runs: the search makes no
        cycles, and a full collection walking the transposition table (hundreds of
        thousands of entries) cost a timed move up to 50 ms past its budget."""
        paused = gc.isenabled()
        if paused:
            gc.disable()
        try:
            return self._search(position, limits, history)
        finally:
            if paused:
                gc.enable()

    def _search(self, position: Position, limits: Limits,
                history: Iterable[int]) -> SearchResult:
        rules = self.rules
        if rules.is_chance_node(position):
            raise TavreiError(_("search starts at a decision node; roll the die first"))
        started = self.clock()
        if self.phases:
            self._set_phase(position)
        self.nodes = 0
        self._deadline = None if limits.time is None else started + limits.time
        self._node_limit = limits.nodes
        self._game = Counter(history)
        root_hash = zobrist_hash(position)
        if not self._game:
            self._game[root_hash] = 1
        self._path = Counter()
        if len(self.table) >= self.max_table // 2:
            # Emptied here, inside this move's budget (the deadline counts from
            # ``started``), not when a store finds it full mid-search: freeing 400,000
            # entries took a 1 s move 83 ms past its budget (measured in a match against sunfish).
            self.table.clear()
        self.history = {k: v // 4 for k, v in self.history.items() if v >= 4}
        moves = rules.legal_moves(position)
        if not moves:
            outcome = rules.outcome(position)
            v = _terminal(outcome, position.turn, 0) if outcome else 0
            return SearchResult(v / 100, [], 0, 1, self.clock() - started, mode="play")
        score = self._score(position)
        # In a won ending the conversion terms (``play_eval.hunter``) move the activity
        # part by hundreds of centipawns, far past the lazy margin: cut-offs on the tower
        # part alone then mixed two scales (seen: a ladya and volkhv against a lone
        # volkhv scored 5.05 by the search and 7.4 by the evaluation, and never mated).
        # (The chess evaluation has no conversion terms: orthodox play keeps its margin.)
        lazy = getattr(self.tables, "lazy_margin", LAZY_MARGIN)
        self._lazy = lazy if self.chess or self.tables.converting(position.board) is None \
            else INF
        self._set_contempt(position, score, root_hash)
        max_depth = limits.depth if limits.depth is not None else 64
        best_move = moves[0]
        best_value: int | None = None
        done_depth = 0
        complete = True
        order = self._order(position, moves, None, 0)
        best_move = order[0]      # the answer if even depth 1 cannot finish in time
        for depth in range(1, max_depth + 1):
            self.killers = [[None, None] for _ in range(depth + MAX_EXTENSION_PLY + 8)]
            try:
                if best_value is None or depth < 4 or abs(best_value) > MATE_BOUND:
                    value, move, order = self._root(position, root_hash, score, order, depth,
                                                    -INF, INF)
                else:
                    lo, hi = best_value - ASPIRATION, best_value + ASPIRATION
                    widen = ASPIRATION
                    failed = 0          # the side the last search failed on: -1 low, 1 high
                    while True:
                        value, move, order = self._root(position, root_hash, score, order,
                                                        depth, lo, hi)
                        side = -1 if value <= lo else 1 if value >= hi else 0
                        if not side:
                            break
                        widen *= 4
                        if side == -failed or widen >= 2000:
                            # failing both ways: the value is unstable, so search it whole
                            lo, hi = -INF, INF
                        elif side < 0:
                            lo = max(-INF, value - widen)
                        else:
                            hi = min(INF, value + widen)
                        failed = side
            except SearchLimitReached as stop:
                partial = stop.args[0] if stop.args else None
                if partial is not None:            # a better move proven before the stop
                    best_move, best_value = partial
                complete = limits.depth is None and limits.nodes is None and done_depth > 0
                break
            best_move, best_value, done_depth = move, value, depth
            if abs(value) > MATE_BOUND and depth >= (MATE_CP - abs(value)) // 100:
                break       # a forced mate, searched at least as deep as it is long
            # No "would the next depth finish?" guess: an iteration stopped by the clock
            # still answers (the best root move it has proven, else the last depth's),
            # so the whole budget goes into search (a guess stopped at 45 % of it and
            # used 73 % of each second).
        if best_value is None:
            best_value = 0
        # the table reuses deeper entries, so the line may go on past the depth searched
        pv = principal_variation(rules, self.table, position, root_hash, best_move,
                                 max(done_depth, 1) + 9, self._moves)
        return SearchResult(best_value / 100, [best_move], done_depth, self.nodes,
                            self.clock() - started, pv=pv, complete=complete,
                            mode="play")

    def _set_contempt(self, position: Position, score: int, h: int) -> None:
        """What a draw is worth to each colour in this search (``contempt``), from the
        root's evaluation: below 0 for the side standing better, above for the other."""
        d = 0
        if self.contempt:
            side = self._evaluate(position, score, -INF, INF, h)
            if side >= CONTEMPT_MARGIN:
                d = -self.contempt
            elif side <= -CONTEMPT_MARGIN:
                d = self.contempt
        me = position.turn
        self._draw = [d if c == me else -d for c in (0, 1)]

    def _set_phase(self, position: Position) -> None:
        """Middlegame or endgame square bonuses for this search (see ``phases``); the
        table is cleared when they change, as its values were scored by the other set."""
        if self.chess:
            # the blend moves a little with each capture: the table's values, scored a
            # phase step away, stay good enough to keep (clearing it would cost more)
            self.tables = chess_tables_for(self.rules.geometry, self.weights,
                                           game_phase(position.board))
            return
        values = self._value_cp
        pieces = 0
        queens = False
        for tower in position.board:
            if tower:
                kind = ACTING[tower[-1]]
                if kind != PAWN and kind != KING:
                    pieces += values[kind]
                    queens = queens or kind == QUEEN
        if not queens or pieces <= ENDGAME_MATERIAL:
            if self._end_tables is None:
                self._end_tables = tables_for(self.rules.geometry, replace(
                    self.weights, volkhv_advance=ENDGAME_VOLKHV_ADVANCE,
                    volkhv_edge=ENDGAME_VOLKHV_EDGE,
                    ratnik_advance=ENDGAME_RATNIK_ADVANCE))
            tables = self._end_tables
        else:
            tables = self._middle_tables
        if tables is not self.tables:
            self.tables = tables
            self.table.clear()

    # == the root ==============================================================================
    def _root(self, position: Position, h: int, score: int, moves: list[Move], depth: int,
              alpha: int, beta: int) -> tuple[int, Move, list[Move]]:
        """One iteration at the root: principal-variation search over ``moves`` in order.

        Returns the value, the best move, and the moves reordered for the next
        iteration (the best first). A stop inside carries the best move and its
        value once one is proven (above ``alpha``) and the next move was begun;
        else nothing, and the last finished depth answers. While every move fails
        low, the best move stays the first.
        """
        rules = self.rules
        best = -INF
        best_move = moves[0]
        scores: dict[Move, int] = {}
        board = position.board
        me = position.turn
        self._path[h] += 1
        try:
            for i, m in enumerate(moves):
                child = rules.apply(position, m)
                ch = update_hash(h, position, m, child)
                cscore = self._score_after(score, position, m, child)
                same = child.turn == position.turn
                a = max(alpha, best)
                try:
                    if i == 0:
                        v = self._child(child, ch, cscore, depth - 1, 1, alpha, beta, same)
                    else:
                        r = 0
                        if (self.reductions and depth >= 4 and i >= ROOT_FULL_MOVES
                                and self._quiet(board, m, me)):
                            r = 1
                        v = self._child(child, ch, cscore, depth - 1 - r, 1, a, a + 1, same)
                        if v > a and r:
                            v = self._child(child, ch, cscore, depth - 1, 1, a, a + 1, same)
                        if a < v < beta:
                            v = self._child(child, ch, cscore, depth - 1, 1, a, beta, same)
                except SearchLimitReached:
                    proven = i > 0 and best > alpha
                    raise SearchLimitReached((best_move, best) if proven else None) from None
                scores[m] = v
                # Only a value above ``a`` is proven: at or below it a fail-soft value is
                # an upper bound, and the largest of several upper bounds says nothing of
                # which move is best. (When the first move failed low, such a bound had
                # made a move the best, and a stop then played it: game 94 of the 1-s
                # sunfish match, Nxe4?? into a mate in one.) The bounds still raise
                # ``best``, the iteration's fail-soft value, which sets the next window.
                if i == 0 or v > a:
                    best_move = m
                if v > best:
                    best = v
                    if v >= beta:
                        break
        finally:
            self._path[h] -= 1
        if best > alpha and best < beta:
            self._store(h, depth, _EXACT, best, best_move, 0)
        rest = sorted((m for m in moves if m != best_move),
                      key=lambda m: -scores.get(m, -INF))
        return best, best_move, [best_move, *rest]

    def _child(self, child: Position, h: int, score: int, depth: int, ply: int,
               alpha: int, beta: int, same_turn: bool) -> int:
        """A child's value from its parent's view, repetition counted."""
        if self._repeated(h):
            # a draw, worth what it is to the parent's side (contempt)
            return self._draw[child.turn if same_turn else 1 - child.turn]
        path = self._path
        # ``get``, not ``+= 1``: a Counter's missing key is a Python-level ``__missing__``
        # call, and a child is seldom on the path already (the same count either way)
        path[h] = path.get(h, 0) + 1
        try:
            if same_turn:
                return self._node(child, h, score, depth, ply, alpha, beta, True)
            return -self._node(child, h, score, depth, ply, -beta, -alpha, True)
        finally:
            path[h] -= 1

    def _repeated(self, h: int) -> bool:
        """A draw by repetition in search: a position met again on the path, or for
        the third time counting the game played so far."""
        # ``get``, not ``[h]``: a Counter's missing key is a Python-level ``__missing__``
        # call, and most positions are on neither (2 calls of 3 a node).
        return self._path.get(h, 0) > 0 or self._game.get(h, 0) >= 2

    # == interior nodes ========================================================================
    def _tick(self) -> None:
        self.nodes += 1
        if self._node_limit is not None and self.nodes >= self._node_limit:
            raise SearchLimitReached
        if self._deadline is not None and not self.nodes & _CLOCK_MASK \
                and self.clock() > self._deadline:
            raise SearchLimitReached

    @cython.locals(me=cython.int, in_check=cython.bint, pv_node=cython.bint,
                   e_depth=cython.int, flag=cython.int, value=cython.int, side=cython.int,
                   r=cython.int, v=cython.int, alpha0=cython.int, best=cython.int,
                   futile=cython.bint, late=cython.int, enemy=cython.int,
                   searched=cython.int, quiet=cython.bint, i=cython.int,
                   cscore=cython.int, same=cython.bint, child=_CPosition,
                   killers=list)
    def _node(self, pos: Position, h: int, score: int, depth: int, ply: int,
              alpha: int, beta: int, null_ok: bool) -> int:
        """Negamax value of ``pos`` from its side to move's view (fail-soft)."""
        rules = self.rules
        if self.die is not None and pos.roll is None:
            outcome = rules.outcome(pos)
            if outcome is not None:
                self.nodes += 1
                return _terminal(outcome, pos.turn, ply)
            return self._die_chance(pos, h, score, depth, ply, alpha, beta)
        if not self.fast:
            if self.has_chance and rules.is_chance_node(pos):
                return self._chance(pos, h, score, depth, ply, alpha, beta)
            outcome = rules.outcome(pos)
            if outcome is not None:
                self.nodes += 1
                return _terminal(outcome, pos.turn, ply)
        if self.fifty and pos.halfmove_clock >= 100:
            return self._draw[pos.turn]
        me = pos.turn
        in_check = False
        if self.fast:
            ks = _kings_of(pos)[me]
            in_check = ks is not None and self.tower_rules.attacked_by(pos.board, ks, 1 - me)
            if in_check and ply < _MAX_EXTENSION_PLY:
                depth += 1
        if depth <= 0:
            if self.quiescence:
                return self._quiesce(pos, score, ply, alpha, beta, in_check, 0, h)
            self._tick()
            return self._evaluate(pos, score, alpha, beta, h)
        self._tick()
        pv_node = beta - alpha > 1
        entry = self.table.get(h)
        tt_move = None
        if entry is not None:
            e_depth, flag, value, code = entry
            tt_move = self._moves.get(code)
            if e_depth >= depth and not pv_node:
                if value > _MATE_BOUND:
                    value -= 100 * ply
                elif value < -_MATE_BOUND:
                    value += 100 * ply
                if flag == _EXACT or (flag == _LOWER and value >= beta) \
                        or (flag == _UPPER and value <= alpha):
                    return value
        if (self.null_move and null_ok and not pv_node and not in_check and depth >= 3
                and beta < _MATE_BOUND and self._has_pieces(pos, me)):
            side = score if me == 0 else -score
            if side >= beta:
                r = 3 if depth >= 6 else 2
                passed = Position(rules, pos.board, 1 - me, None,  # type: ignore[arg-type]
                                  pos.halfmove_clock + 1, pos.fullmove_number + me, pos.roll,
                                  volkhv_squares=pos.known_volkhv_squares)
                ph = h ^ TURN_KEY ^ self._ep_key(pos)
                v = -self._node(passed, ph, score, depth - 1 - r, ply + 1, -beta, -beta + 1,
                                False)
                if v >= beta:
                    return beta if v > _MATE_BOUND else v
        moves: Iterable[Move]
        if self.fast and not in_check:
            # Staged: the table's move and the captures first, the quiet moves
            # generated only if those bring no cut-off. Legality (the volkhv not
            # attacked afterwards) is tested lazily, on the moves actually searched:
            # a cut-off or a pruned late move never pays for it, and a move is made
            # once, not once for the test and once for the search.
            moves = self._staged_moves(pos, tt_move, ply)
        elif self.fast:
            moves = self._order(pos, self._evasion_candidates(
                pos, self.tower_rules.pseudo_moves(pos)), tt_move, ply)
        else:
            moves = rules.legal_moves(pos)
            if not moves:
                return self._evaluate(pos, score, alpha, beta, h)
            moves = self._order(pos, moves, tt_move, ply)
        alpha0 = alpha
        best = -_INF
        best_move = None
        board = pos.board
        killers: list[Move | None] = (self.killers[ply] if ply < len(self.killers)
                                      else [None, None])
        # futility: near the horizon, quiet moves cannot lift a hopeless score to alpha
        futile = False
        # (not in a won ending: there the margins do not cover the conversion terms, and
        # the futile "quiet" moves are the mating ones)
        if not pv_node and not in_check and depth <= 2 and abs(alpha) < _MATE_BOUND \
                and self._lazy < _INF:
            side = score if me == 0 else -score
            futile = side + FUTILITY[depth] <= alpha
        late = LATE_MOVES[depth] if not pv_node and not in_check and depth < len(LATE_MOVES) \
            else 1 << 30
        attacked = self.tower_rules.attacked_by if self.fast else None
        enemy = 1 - me
        searched = 0
        # orthodox chess: a quiet move that gives check is neither pruned nor reduced
        # (mates are found through such moves); the attack table rules most moves out
        # before the check is tested on the board
        their_king = _kings_of(pos)[enemy] if self.chess else None
        reach = self.tables.reach
        for m in moves:
            quiet = _quiet_move(board, m, me)
            i = searched
            child = None
            if quiet and their_king is not None and i > 0 and \
                    reach[ACTING[board[m.from_square][-1]]][m.to_square] >> their_king & 1:
                child = rules.apply(pos, m)
                if attacked is not None and attacked(child.board, their_king, me):
                    quiet = False
            if quiet and i > 0 and best > -_MATE_BOUND and (futile or i >= late):
                if m != killers[0] and m != killers[1]:
                    continue
            if child is None:
                child = rules.apply(pos, m)
            if attacked is not None:
                ks = _kings_of(child)[me]
                if ks is not None and attacked(child.board, ks, enemy):
                    continue
            searched += 1
            ch = update_hash(h, pos, m, child)
            cscore = self._score_after(score, pos, m, child)
            same = child.turn == me
            if i == 0:
                v = self._child(child, ch, cscore, depth - 1, ply + 1, alpha, beta, same)
            else:
                r = 0
                if (self.reductions and depth >= 3 and i >= 3 and quiet and not in_check
                        and m != killers[0] and m != killers[1]):
                    r = 1 if i < 6 else 2 if i < 16 or depth < 6 else 3
                    r = min(r, depth - 2)
                v = self._child(child, ch, cscore, depth - 1 - r, ply + 1, alpha, alpha + 1,
                                same)
                if v > alpha and r:
                    v = self._child(child, ch, cscore, depth - 1, ply + 1, alpha, alpha + 1,
                                    same)
                if alpha < v < beta:
                    v = self._child(child, ch, cscore, depth - 1, ply + 1, alpha, beta, same)
            if v > best:
                best, best_move = v, m
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        if quiet:
                            if killers[0] != m:
                                killers[1] = killers[0]
                                killers[0] = m
                            key = (m.from_square, m.to_square)
                            self.history[key] = self.history.get(key, 0) + depth * depth
                        break
        if searched == 0:       # no legal move: mated, or stalemated
            return -(_MATE_CP - 100 * ply) if in_check else self._draw[me]
        flag = _UPPER if best <= alpha0 else _LOWER if best >= beta else _EXACT
        self._store(h, depth, flag, best, best_move, ply)
        return best

    @staticmethod
    def _quiet(board: tuple, m: Move, me: int) -> bool:
        """A move that reductions and pruning may treat as probably harmless: it
        captures nothing, is not a ratnik's (a step toward promotion), and does not
        free a prisoner (a split that leaves an own tavrel on top where an enemy
        one stood above it: as much material as a capture)."""
        return _quiet_move(board, m, me)

    def _store(self, h: int, depth: int, flag: int, value: int, move: Move | None,
               ply: int) -> None:
        if value > _MATE_BOUND:
            value += 100 * ply
        elif value < -_MATE_BOUND:
            value -= 100 * ply
        table = self.table
        if len(table) >= self.max_table:
            table.clear()
        old = table.get(h)
        if old is None or depth >= old[0] or flag == _EXACT:
            code = -1
            if move is not None:
                code = _move_number(move[0], move[1], move[2], move[3],
                                    1 if move[4] else 0, self._size)
                if code not in self._moves:
                    self._moves[code] = move
            table[h] = (depth, flag, value, code)

    @cython.locals(top=cython.int, kind=cython.int)
    def _has_pieces(self, pos: Position, me: int) -> bool:
        """Any own top besides volkhv and ratniks? (Without, zugzwang makes a pass unsound.)"""
        for tower in pos.board:
            if tower:
                top = tower[-1]
                if top & _COLOR == me:
                    kind = ACTING[top]
                    if kind != _PAWN and kind != _KING:
                        return True
        return False

    def _ep_key(self, pos: Position) -> int:
        """The en passant part of ``pos``'s hash (a pass removes it)."""
        from tavrei_lab.engine.zobrist import ep_key, live_ep_square
        ep = live_ep_square(pos)
        return 0 if ep is None else ep_key(ep)

    # == quiescence ============================================================================
    @cython.locals(me=cython.int, enemy=cython.int, evading=cython.bint, stand=cython.int,
                   best=cython.int, gain=cython.int, v=cython.int, cscore=cython.int,
                   gives_check=cython.bint, moves=list, child=_CPosition, values=list)
    def _quiesce(self, pos: Position, score: int, ply: int, alpha: int, beta: int,
                 in_check: bool, qply: int, h: int, last: int = -1) -> int:
        """Play out captures, promotions and prisoner-freeing splits until quiet."""
        self._tick()
        rules = self.tower_rules
        me = pos.turn
        # in check: every evasion, or mate (a check at the horizon is never stood pat on)
        evading = in_check and qply < _MAX_QUIESCENCE
        stand = 0
        if evading:
            moves = self._evasion_candidates(pos, rules.pseudo_moves(pos))
            best = -_MATE_CP + 100 * ply      # mated, unless a legal evasion turns up
        else:
            stand = self._evaluate(pos, score, alpha, beta, h)
            if stand >= beta or qply >= _MAX_QUIESCENCE:
                return stand
            if stand > alpha:
                alpha = stand
            best = stand
            moves = self._quiescence_moves(pos, qply, last)
            if not moves:
                return stand
        board = pos.board
        enemy = 1 - me
        attacked = rules.attacked_by
        values = self._value_cp
        for m in moves:
            if not evading:
                gain = self._gain(board, m, me)
                if stand + gain + 200 <= alpha:
                    continue        # delta pruning: even winning it all cannot reach alpha
                # Nothing leaves the board, so exchanges never run out by themselves: a
                # capture that gives a more valuable unit for a lesser one, onto a square
                # the enemy guards, is left out (a cheap stand-in for exchange evaluation).
                if gain - 100 < values[ACTING[board[m.from_square][-1]]] and \
                        attacked(board, m.to_square, enemy):
                    continue
            child = rules.apply(pos, m)
            kings = _kings_of(child)
            ks = kings[me]
            if ks is not None and attacked(child.board, ks, enemy):
                continue        # not legal: the volkhv would stand attacked
            cscore = self._score_after(score, pos, m, child)
            ks = kings[enemy]
            gives_check = ks is not None and attacked(child.board, ks, me)
            ch = h
            if gives_check or in_check:
                ch = update_hash(h, pos, m, child)   # mates need the hash for the table only
            v = -self._quiesce(child, cscore, ply + 1, -beta, -alpha, gives_check, qply + 1, ch,
                               m.to_square)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        return best

    def _staged_moves(self, pos: Position, tt_move: Move | None,
                      ply: int) -> Iterator[Move]:
        """The moves of a position not in check, best first, generated in stages.

        Most nodes of a search end at their first or second move, usually the
        table's move or a capture (a refutation). So the table's move is tried
        before any move is generated, then the captures, promotions and
        prisoner-freeing splits (found with the attack tables, without the
        quiet moves), then the killers; only a node that none of these cuts off
        pays for generating and ordering all its quiet moves.
        """
        tried: set[Move] = set()
        if tt_move is not None and self._pseudo_legal(pos, tt_move):
            tried.add(tt_move)
            yield tt_move
        for m in self._tactical_moves(pos, free=True, every_count=True):
            if m not in tried:
                tried.add(m)
                yield m
        killers = self.killers[ply] if ply < len(self.killers) else (None, None)
        for k in killers:
            if k is not None and k not in tried and self._pseudo_legal(pos, k):
                tried.add(k)
                yield k
        history = self.history
        quiet = [m for m in self.tower_rules.pseudo_moves(pos) if m not in tried]
        quiet.sort(key=lambda m: history.get((m.from_square, m.to_square), 0), reverse=True)
        yield from quiet

    def _pseudo_legal(self, pos: Position, m: Move) -> bool:
        """Is ``m`` (the table's move, a killer) a move by the movement rules here?

        A castling is left to the full generation (it has its own conditions).
        """
        if m.castling:
            return False
        board = pos.board
        tower = board[m.from_square]
        if not tower:
            return False
        top = tower[-1]
        me = pos.turn
        if top & _COLOR != me:
            return False
        rules = self.tower_rules
        h = len(tower)
        if not 1 <= m.count <= h or (m.count != h and not rules.splits):
            return False
        if m.to_square not in rules.destinations(board, m.from_square, top, me, pos.ep_square):
            return False
        if ACTING[top] == PAWN and m.to_square // rules.geometry.width == rules.far_rank[me]:
            return (m.promotion in rules.promotion_kinds if rules.promotion == "choice"
                    else m.promotion == 0)
        return m.promotion == 0

    def _quiescence_moves(self, pos: Position, qply: int, last: int) -> list[Move]:
        """What quiescence tries ``qply`` plies below the horizon, the last move having
        landed on ``last``: captures and promotions; splits that free a prisoner
        only at the horizon itself; from ``RECAPTURE_PLY`` on only recaptures."""
        moves = self._tactical_moves(pos, free=qply == 0)
        if qply >= self.recapture_ply and last >= 0:
            return [m for m in moves if m.to_square == last]
        return moves

    def _evasion_candidates(self, pos: Position, moves: list[Move]) -> list[Move]:
        """The moves that may answer a check: the volkhv's own, and those landing on a
        checking tower or between a checking line piece and the volkhv (en passant too).

        A move changes only the squares it leaves and lands on, and leaving a square
        can never shield the volkhv; so no other move can be legal. The rest are
        still made and tested.
        """
        rules = self.tower_rules
        me = pos.turn
        ks = _kings_of(pos)[me]
        if ks is None:
            return moves
        board = pos.board
        targets: set[int] = set()
        rays = rules.geometry.rays[ks]
        for checker in rules.attackers(pos, ks, 1 - me):
            targets.add(checker)
            for ray in rays:
                if checker in ray:
                    targets.update(ray[:ray.index(checker)])
                    break
        ep = pos.ep_square
        return [m for m in moves if m.from_square == ks or m.to_square in targets
                or (m.to_square == ep and not board[ep])]

    @cython.locals(gain=cython.int, t=cython.int, values=list)
    def _gain(self, board: tuple, m: Move, me: int) -> int:
        """Material a capture takes prisoner (centipawns), for delta pruning."""
        gain = 100
        values = self._value_cp
        for t in board[m.to_square]:
            if t & _COLOR != me:
                gain += values[(t & _KIND_MASK) >> _KIND_SHIFT]
        return gain

    @cython.locals(me=cython.int, s=cython.int, top=cython.int, h=cython.int,
                   kind=cython.int, pawn=cython.bint, frees=cython.bint, splits=cython.bint,
                   w=cython.int, far=cython.int, promotion=cython.int, attacker=cython.int,
                   to=cython.int, victim=cython.int, t=cython.int, key=cython.int,
                   p=cython.int, k=cython.int, first=cython.int, step=cython.int,
                   count=cython.int, values=list,
                   scored=list, own=list)
    def _tactical_moves(self, pos: Position, free: bool = True,
                        every_count: bool = False) -> list[Move]:
        """Captures, promotions and (``free``) splits that free a prisoner, best first.

        Pseudo-legal; built from the rules' own destination patterns, without
        listing the quiet moves. In quiescence a capture by a tall tower is
        tried with the top tavrel and the whole tower, not with every count;
        the main search asks for ``every_count``, as no move may go missing there.
        """
        rules = self.tower_rules
        board = pos.board
        me = pos.turn
        ep = pos.ep_square
        splits = rules.splits
        # one pass: the enemy-topped squares as a bit mask (a unit whose attack table
        # reaches none of them has no capture to offer), and the own towers
        enemy_mask = 0      # a Python int: a board may have more than 64 squares
        own = []
        for square, tower in enumerate(board):
            if tower:
                if tower[-1] & _COLOR == me:
                    own.append(square)
                else:
                    enemy_mask |= 1 << square
        w = rules.geometry.width
        far = rules.far_rank[me]
        promotion = self._promotion
        destinations = rules.destinations
        tables = self.tables
        reach = tables.reach
        pawn_mask = tables.pawn_mask[me]
        near_far = tables.near_far[me]
        values = self._value_cp
        scored: list[tuple[int, Move]] = []
        for s in own:
            tower = board[s]
            top = tower[-1]
            h = len(tower)
            kind = ACTING[top]
            pawn = kind == PAWN
            frees = free and h > 1 and splits    # a split of this tower may free a prisoner
            if not frees:
                if pawn:
                    if not (pawn_mask[s] & enemy_mask or ep is not None
                            or near_far >> s & 1):
                        continue
                elif not reach[kind][s] & enemy_mask:
                    continue
            dests = destinations(board, s, top, me, ep)
            if not dests:
                continue
            attacker = values[kind]
            # the counts moved, from ``first`` up to h by ``step``: the whole tower only
            # (no splits, or one tavrel), every count, or the top tavrel and the whole tower
            if h == 1 or not splits:
                first, step = h, 1
            elif every_count:
                first, step = 1, 1
            else:
                first, step = 1, h - 1
            freeing = ([h - 1 - i for i in range(h - 1)
                        if tower[i] & _COLOR == me and tower[i + 1] & _COLOR != me]
                       if frees else ())
            for to in dests:
                if enemy_mask >> to & 1:
                    victim = 0
                    for t in board[to]:
                        if t & _COLOR != me:
                            victim += values[(t & _KIND_MASK) >> _KIND_SHIFT]
                    key = 10 * victim - attacker
                elif pawn and (to == ep or to // w == far):
                    key = 1000 - attacker
                elif freeing:
                    for k in freeing:
                        scored.append((50, self._move(s, k, to, 0)))
                    continue
                else:
                    continue
                p = 0
                if pawn and to // w == far:
                    key += 800
                    p = promotion
                count = first
                while count <= h:
                    scored.append((key, self._move(s, count, to, p)))
                    count += step
        scored.sort(key=_first, reverse=True)
        return [m for _, m in scored]

    @cython.locals(s=cython.int, count=cython.int, to=cython.int, p=cython.int,
                   key=cython.longlong)
    def _move(self, s: int, count: int, to: int, p: int) -> Move:
        """``Move(s, count, to, p)``, made once per searcher and then shared (a ``Move``
        is a NamedTuple, whose construction is a Python call)."""
        key = _move_number(s, count, to, p, 0, self._size)
        m = self._moves.get(key)
        if m is None:
            m = self._moves[key] = Move(s, count, to, p)
        return m

    # == chance nodes (die games): expectiminimax with Star2 ====================================
    def _chance(self, pos: Position, h: int, score: int, depth: int, ply: int,
                alpha: int, beta: int) -> int:
        """Expected value over the die faces (side to roll's view), with Star2 probing."""
        self._tick()
        rules = self.rules
        if depth <= 0:
            return self._evaluate(pos, score, alpha, beta, h)
        lo_all, hi_all = -CHANCE_BOUND, CHANCE_BOUND
        # per face: [probability, child, hash, same side, depth, lower bound, upper bound]
        children: list[list[Any]] = []
        for face, p in rules.chance_outcomes(pos):
            child = rules.apply_roll(pos, face)
            ch = update_hash(h, pos, Roll(face), child)
            same = child.turn == pos.turn
            # a face that passes the turn uses up a turn (as the lesson search counts)
            passes = not same or rules.is_chance_node(child)
            children.append([p, child, ch, same, depth - 1 if passes else depth, lo_all, hi_all])
        if self.star2 and beta < hi_all:
            # Star2 probing: each face's first move alone is a lower bound on that face.
            # A null-window probe asks only "does this face reach the value that, with
            # the other faces' bounds, proves the cut-off?"
            for c in children:
                p, child, ch, same, cd, lo, hi = c
                if not same or p <= 0 or cd <= 0 or rules.is_chance_node(child):
                    continue
                others = sum(o[0] * o[5] for o in children if o is not c)
                need = math.ceil((beta - others) / p)   # this face's value that proves a cut
                if need > hi:
                    continue
                v = self._probe(child, ch, score, cd, ply, need - 1, need)
                if v is not None and v >= need:
                    c[5] = v
                    return round(sum(o[0] * o[5] for o in children))
        done = 0.0
        rest_lo = sum(c[0] * c[5] for c in children)
        rest_hi = sum(c[0] * c[6] for c in children)
        for p, child, ch, same, cd, lo, hi in children:
            rest_lo -= p * lo
            rest_hi -= p * hi
            if p <= 0:
                continue
            a = max((alpha - done - rest_hi) / p, lo)
            b = min((beta - done - rest_lo) / p, hi)
            ia, ib = int(a) - 1 if a > lo else lo, int(b) + 1 if b < hi else hi
            if same:
                v = self._node(child, ch, score, cd, ply, ia, ib, True)
            else:
                v = -self._node(child, ch, score, cd, ply + 1, -ib, -ia, True)
            if v <= ia and ia > lo:
                return round(done + p * v + rest_hi)        # an upper bound <= alpha
            if v >= ib and ib < hi:
                return round(done + p * v + rest_lo)        # a lower bound >= beta
            done += p * v
        return round(done)

    def _die_chance(self, pos: Position, h: int, score: int, depth: int, ply: int,
                    alpha: int, beta: int) -> int:
        """A die game's chance node, with the die's own Star2 bounds.

        A face allows the units of its type *and every type below it*, so the
        moves a face allows include those of every lower face: a face's value is
        at least the value of any lower face. Searching the faces from the pawn
        up, each face's value is a lower bound on all higher faces (the probes
        of Star2 come for free), and a face needs searching only over the moves
        its own type adds, with the lower face's value as alpha. The faces that
        pass the turn (skip marks, or no move allowed) share one position.
        """
        self._tick()
        die = self.die
        assert die is not None
        rules = self.rules
        if depth <= 0:
            return self._evaluate(pos, score, alpha, beta, h)
        entry = self.table.get(h)
        tt_move = None
        if entry is not None:
            e_depth, flag, value, code = entry
            tt_move = self._moves.get(code)
            if e_depth >= depth and abs(value) < MATE_BOUND:
                if flag == _EXACT or (flag == _LOWER and value >= beta) \
                        or (flag == _UPPER and value <= alpha):
                    return value
        moves = die.all_moves(pos)
        board = pos.board
        rank_of = _DIE_RANK
        by_rank: dict[int, list[Move]] = {}
        for m in moves:
            by_rank.setdefault(rank_of[ACTING[board[m.from_square][-1]]], []).append(m)
        # groups: (probability, rank or 0 for "passes", the moves that rank adds)
        pass_p = 0.0
        faces: list[tuple[int, float]] = []
        for face, p in zip(die.faces, die.probabilities, strict=True):
            r = die.face_rank(face)
            if r == 0 or not any(k <= r for k in by_rank):
                pass_p += p
            else:
                faces.append((r, p))
        faces.sort()
        groups: list[tuple[float, int, list[Move]]] = []
        if pass_p > 0:
            groups.append((pass_p, 0, []))
        covered = 0
        for r, p in faces:
            added = [m for k in range(covered + 1, r + 1) for m in by_rank.get(k, ())]
            covered = max(covered, r)
            groups.append((p, r, added))
        lo_all, hi_all = -CHANCE_BOUND, CHANCE_BOUND
        alpha0, beta0 = alpha, beta
        done = 0.0
        floor: int | None = None          # value of the last face searched: bounds the rest
        best_move = None
        me = pos.turn
        for i, (p, r, added) in enumerate(groups):
            later = groups[i + 1:]
            lo_later = lo_all if floor is None else max(lo_all, floor)
            rest_lo = sum(q * (lo_later if rr else lo_all) for q, rr, _ in later)
            rest_hi = sum(q for q, _, _ in later) * hi_all
            lo = lo_all if (r == 0 or floor is None) else max(lo_all, floor)
            a = max((alpha - done - rest_hi) / p, lo)
            b = min((beta - done - rest_lo) / p, hi_all)
            ia = math.floor(a) - 1 if a > lo else lo
            ib = math.ceil(b) + 1 if b < hi_all else hi_all
            if r == 0:
                passed = Position(rules, board, 1 - me, None,  # type: ignore[arg-type]
                                  pos.halfmove_clock + 1, pos.fullmove_number + me, None,
                                  volkhv_squares=pos.known_volkhv_squares)
                ph = h ^ TURN_KEY ^ self._ep_key(pos)
                v = self._child(passed, ph, score, depth - 1, ply + 1, ia, ib, False)
            else:
                v = floor if floor is not None else -INF
                if v < ib:
                    for m in self._order(pos, added, tt_move, ply):
                        child = rules.apply(pos, m)
                        ch = update_hash(h, pos, m, child)
                        cscore = self._score_after(score, pos, m, child)
                        w = self._child(child, ch, cscore, depth - 1, ply + 1, max(ia, v), ib,
                                        child.turn == me)
                        if w > v:
                            v = w
                            best_move = m
                            if v >= ib:
                                break
                floor = v
            if v <= ia and ia > lo:
                bound = round(done + p * v + rest_hi)           # an upper bound <= alpha
                self._store(h, depth, _UPPER, bound, best_move, ply)
                return bound
            if v >= ib and ib < hi_all:
                bound = round(done + p * v + rest_lo)           # a lower bound >= beta
                self._store(h, depth, _LOWER, bound, best_move, ply)
                return bound
            done += p * v
        value = round(done)
        flag = _UPPER if value <= alpha0 else _LOWER if value >= beta0 else _EXACT
        self._store(h, depth, flag, value, best_move, ply)
        return value

    def _probe(self, child: Position, h: int, score: int, depth: int, ply: int,
               alpha: int, beta: int) -> int | None:
        """A lower bound on a face's value: its best-ordered first move alone."""
        rules = self.rules
        if rules.outcome(child) is not None:
            return None
        moves = rules.legal_moves(child)
        if not moves:
            return None
        entry = self.table.get(h)
        m = self._order(child, moves, self._moves.get(entry[3]) if entry else None,
                        ply)[0]
        grand = rules.apply(child, m)
        gh = update_hash(h, child, m, grand)
        gscore = self._score_after(score, child, m, grand)
        v = self._child(grand, gh, gscore, depth - 1, ply + 1, alpha, beta,
                        grand.turn == child.turn)
        return v if v > alpha else None

    # == evaluation and ordering ===============================================================
    def _score(self, pos: Position) -> int:
        return self.tables.board_score(pos.board)

    @cython.locals(s=cython.int)
    def _score_after(self, score: int, before: Position, move: Move, after: Position) -> int:
        """The tower part after ``move``, from the part before and the changed squares."""
        if not self.incremental:
            return self.tables.board_score(after.board)
        old, new = before.board, after.board
        for s in changed_squares(before, move):
            a, b = old[s], new[s]
            if a is not b:
                score += self.tables.tower_score(s, b) - self.tables.tower_score(s, a)
        return score

    @cython.locals(me=cython.int, side=cython.int, d=cython.int, lazy=cython.int,
                   act=cython.int)
    def _evaluate(self, pos: Position, score: int, alpha: int, beta: int, h: int) -> int:
        """Side to move's view: the tower part, plus activity when it could matter."""
        me = pos.turn
        side = score if me == 0 else -score
        if self.noise:
            side += ((h ^ self.noise_key) * 0x9E3779B97F4A7C15 >> 40) % (2 * self.noise + 1) \
                - self.noise
        if self.die_faces is not None:
            kings = _kings_of(pos)
            d = self.tables.die_score(pos.board, kings, me, self.die_faces, self.pass_over_own)
            side += d if me == 0 else -d
        lazy = self._lazy
        if side - lazy >= beta or side + lazy <= alpha:
            return side
        act = self.tables.activity(pos.board, _kings_of(pos), self.pass_over_own)
        return side + (act if me == 0 else -act)

    def _order(self, pos: Position, moves: list[Move], tt_move: Move | None,
               ply: int) -> list[Move]:
        board = pos.board
        me = pos.turn
        killers = self.killers[ply] if ply < len(self.killers) else (None, None)
        k0, k1 = killers[0], killers[1]
        history = self.history
        values = self._value_cp

        def key(m: Move) -> int:
            if m == tt_move:
                return 1 << 40
            dest = board[m.to_square]
            if dest and dest[-1] & _COLOR != me:
                victim = 0
                for t in dest:
                    if t & _COLOR != me:
                        victim += values[(t & _KIND_MASK) >> _KIND_SHIFT]
                return (1 << 30) + 10 * victim - values[ACTING[board[m.from_square][-1]]]
            if m.promotion or m == k0:
                return 1 << 29
            if m == k1:
                return (1 << 29) - 1
            return history.get((m.from_square, m.to_square), 0)

        return sorted(moves, key=key, reverse=True)


__all__ = ["MATE_CP", "PlaySearcher"]
