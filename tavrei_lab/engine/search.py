"""Game-tree search: plain minimax as the reference, and alpha-beta that must agree with it.

Everything is written in the *negamax* form: a node's value is always from
the point of view of the side to move there, and a child's value is negated
when the turn changes hands (a die game's skip keeps the turn, so the sign
is decided by comparing turns, never assumed).

``minimax`` looks at every node to a fixed depth. It is slow and obviously
right, which is what a reference is for: the tests check that
``Searcher.search`` returns the same value and the same *set* of best moves
on many positions, with and without its transposition table.

``Searcher`` adds what makes search practical:

- **alpha-beta pruning**: a branch is abandoned as soon as it is shown to be
  no better than something already found;
- **iterative deepening**: depth 1, then 2, ... so that a node or time limit
  still leaves the result of the last finished depth, and so that each
  iteration's best moves order the next one;
- **move ordering**: the transposition table's move first, then captures
  (the most valuable tower taken first), then the two "killer" moves that
  caused cut-offs at the same ply elsewhere, then the rest;
- a **transposition table** keyed by the Zobrist hash (``engine.zobrist``),
  updated incrementally move by move;
- **expectiminimax** at the chance nodes of die games, with *Star1* pruning
  (Ballard 1983): the value of a chance node is a probability-weighted
  average, and since every value lies in ``[-MATE, MATE]`` the faces not yet
  searched bound it; the window each face gets is derived from those bounds.
  Depth counts turns: a move, or a die face that passes the turn (a skip),
  so that skip after skip cannot make an endless path.

Three choices keep the search a faithful fixed-depth minimax, so that its
answers are reproducible and explainable in a lesson:

1. A table entry cuts the search off only if it was searched to exactly the
   depth needed now (deeper entries still order moves). Using deeper
   entries is stronger, but it makes the answer depend on search history.
2. Values that depend on the path (a draw by repetition inside the tree, or
   a position whose halfmove clock could reach the fifty-move limit within
   the remaining depth) are never stored.
3. At the root, every move whose value ties the best is found exactly (the
   root window is widened by a hair), and the *agent* breaks the tie with
   its seeded random generator. So the choice does not depend on move
   ordering or on the table, only on the seed.

Draws by repetition and by the fifty-move rule are automatic in search, as
docs/rules.md A9.4 says they are in self-play. Mates score ``MATE - ply`` so that
a quicker mate is preferred and a slower loss is fought for.
"""

from __future__ import annotations

import operator
import time
import weakref
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from itertools import compress
from typing import Any, NamedTuple

from tavrei_lab.core.move import Move, Roll
from tavrei_lab.core.position import Position
from tavrei_lab.core.tavrel import COLOR_BIT, KIND_OF, acting_kind
from tavrei_lab.engine import reference
from tavrei_lab.engine.evaluate import (
    MATE,
    VALUES,
    leaf_evaluation,
    positional_score,
    quick_outcome,
)
from tavrei_lab.engine.reference import Chance, Decision
from tavrei_lab.engine.zobrist import update_hash, zobrist_hash
from tavrei_lab.errors import TavreiError
from tavrei_lab.i18n import gettext as _
from tavrei_lab.rules.base import RuleModule

INF = float("inf")
#: Values beyond this are mates; they are stored in the table relative to the node.
MATE_BOUND = MATE - 1000
#: How much the root window is widened to find every move tying the best exactly.
TIE_EPSILON = 1e-7

_EXACT, _LOWER, _UPPER = 0, 1, 2
_VALUE_BY_KIND = [VALUES.get(k, 0.0) for k in range(8)]


def static_evaluation(position: Position, rules: RuleModule) -> float:
    """The evaluation at the search horizon, of a position that is not over.

    ``engine.evaluate.positional_score``: the search has already asked
    whether the game ended there, so the evaluation need not ask again.
    """
    return positional_score(position, rules)


class SearchLimitReached(Exception):
    """Raised inside a search when its node or time budget is spent (internal)."""


#: Upper bounds of a search's limits (a depth search is exact: past 5 or 6 plies it
#: takes minutes to hours; nodes and time bound it whatever the position).
MAX_SEARCH_DEPTH = 12
MAX_SEARCH_NODES = 1_000_000_000
MAX_SEARCH_SECONDS = 3600


@dataclass(frozen=True)
class Limits:
    """When to stop: any of depth, nodes, seconds (at least one should be set).

    Depth counts moves only: die rolls are not plies. A node or time limit
    stops iterative deepening; the last depth that finished gives the answer
    (depth 1 always finishes, so there is always an answer).
    """

    depth: int | None = None
    nodes: int | None = None
    time: float | None = None

    def __post_init__(self) -> None:
        if self.depth is None and self.nodes is None and self.time is None:
            raise TavreiError(_("search limits: give a depth, a node count or a time"))
        # upper bounds too: an agent spec typed on the command line must not ask for a
        # search that never ends (alphabeta:50, time=1e9, nodes=10**11)
        if self.depth is not None and not 1 <= self.depth <= MAX_SEARCH_DEPTH:
            raise TavreiError(_("search limits: depth must be 1..{most}, got {depth}")
                              .format(most=MAX_SEARCH_DEPTH, depth=self.depth))
        if self.nodes is not None and not 1 <= self.nodes <= MAX_SEARCH_NODES:
            raise TavreiError(_("search limits: nodes must be 1..{most}, got {nodes}")
                              .format(most=MAX_SEARCH_NODES, nodes=self.nodes))
        if self.time is not None and not 0 < self.time <= MAX_SEARCH_SECONDS:
            raise TavreiError(_("search limits: time must be more than 0 and at most {most} "
                                "seconds, got {time}").format(most=MAX_SEARCH_SECONDS,
                                                              time=self.time))


@dataclass
class SearchResult:
    """What a search found, from the side to move's point of view.

    ``best_moves`` holds every move reaching ``value`` (in generation order);
    ``pv`` is one principal variation; ``depth`` the last finished depth.
    """

    value: float
    best_moves: list[Move]
    depth: int
    nodes: int
    seconds: float
    pv: list[Move] = field(default_factory=list)
    complete: bool = True
    tt_hits: int = 0
    #: "lesson" (this module's exact fixed-depth search) or "play" (``engine.play``)
    mode: str = "lesson"

    @property
    def best_move(self) -> Move | None:
        return self.best_moves[0] if self.best_moves else None


# ---------------------------------------------------------------------------------------------
# Shared node semantics: the end of the game, draws, the horizon.

def _sign(parent: Position, child: Position) -> float:
    return 1.0 if child.turn == parent.turn else -1.0


def _terminal_value(outcome: Any, position: Position, ply: int) -> float:
    if outcome.winner is None:
        return 0.0
    return MATE - ply if outcome.winner == position.turn else -(MATE - ply)


def _fifty_moves(rules: RuleModule, position: Position) -> bool:
    return rules.fifty_move_rule and position.halfmove_clock >= 100


def _after_roll(rules: RuleModule, child: Position, depth: int, ply: int) -> tuple[int, int]:
    """Depth and ply below a die face: a face that passes the turn uses up a turn.

    (Otherwise skip after skip would be an endless path, as in the die
    module's perft.) A face that allows a move leads to the decision, which
    counts the move.
    """
    if rules.is_chance_node(child) or not rules.legal_moves(child):
        return depth - 1, ply + 1
    return depth, ply


def _node_outcome(rules: RuleModule, position: Position, moves: list[Move]) -> Any:
    """The rules' end of the game at a decision node whose legal moves are known."""
    if not moves or not rules.fast_paths().whole_game or rules.king_capture:
        return rules.outcome(position)
    return None


#: Each game's memo of (its positions, their hashes, whether each counts), kept here
#: rather than on the game (the game is the notation layer's; the engine only reads it)
#: and gone with the game.
_HistoryMemo = tuple[list[Any], list[int], list[bool]]
_HISTORY_HASHES: weakref.WeakKeyDictionary[Any, _HistoryMemo] = weakref.WeakKeyDictionary()


def game_history(game: Any) -> list[int]:
    """The Zobrist hashes repetition counts in ``game``: the start, and every
    position brought about by a move (not by a die roll), as ``Game.repetitions``."""
    positions = game.positions
    # Every agent's move asks for the whole game's hashes: without a memo a lab game of
    # 200 plies hashed 20,000 positions (a third of a level-1 game's time).
    # Positions never change, so the hashes are kept beside the very position objects
    # they are of, with whether each counts (the start, or brought about by a move): a
    # game that only grew since is checked in one pass and hashes its new positions
    # alone; a popped or replaced position makes all of them hashed afresh.
    try:
        memo: _HistoryMemo | None = _HISTORY_HASHES.get(game)
    except TypeError:            # an object that takes no weak reference: no memo
        memo = None
    if memo is not None and len(memo[0]) <= len(positions) \
            and all(map(operator.is_, memo[0], positions)):
        kept, hashes, counted = memo
    else:
        kept, hashes, counted = [], [], []
    if len(kept) < len(positions):
        actions = game.history
        new = range(len(kept), len(positions))
        hashes = hashes + [zobrist_hash(positions[i]) for i in new]
        counted = counted + [i == 0 or isinstance(actions[i - 1], Move) for i in new]
        try:
            _HISTORY_HASHES[game] = (list(positions), hashes, counted)
        except TypeError:
            pass
    return list(compress(hashes, counted))


class _Line(NamedTuple):
    """A node of the reference search: a position and how the game got there."""

    position: Position
    hash: int
    depth: int               # turns left to search
    ply: int                 # moves from the root (mates score by it)
    path: tuple[int, ...]    # hashes of the positions moves brought about since the root
    repeated: bool = False   # the third time this position stands: a draw


def minimax(rules: RuleModule, position: Position, depth: int,
            history: Iterable[int] = (),
            evaluation: Callable[[Position, Any], float] = static_evaluation
            ) -> tuple[float, list[Move]]:
    """Plain (expecti)minimax to ``depth`` moves: the value and every best move.

    The reference implementation: no pruning, no table, no ordering; the
    value is ``engine.reference.expectiminimax`` (the same function values
    the tree pictures) over the positions below this one, seen from the side
    to move here. ``history`` is the Zobrist hashes of the positions played so
    far in the game (the root's included), for draws by repetition.
    """
    if rules.is_chance_node(position):
        raise TavreiError(_("minimax starts at a decision node; roll the die first"))
    before: Counter[int] = Counter(history)
    root_hash = zobrist_hash(position)
    if not before:
        before[root_hash] += 1
    me = position.turn

    def mine(pos: Position, value: float) -> float:
        """A value from the side to move at ``pos``, seen from the side to move at the root."""
        return value if pos.turn == me else -value

    def after_move(line: _Line, move: Move) -> _Line:
        pos = line.position
        child = rules.apply(pos, move)
        h = update_hash(line.hash, pos, move, child)
        path = line.path + (h,)
        return _Line(child, h, line.depth - 1, line.ply + 1, path,
                     repeated=before[h] + path.count(h) >= 3)

    def after_roll(line: _Line, face: str) -> _Line:
        pos = line.position
        child = rules.apply_roll(pos, face)
        depth, ply = _after_roll(rules, child, line.depth, line.ply)
        # a roll brings no repetition: the path is unchanged
        return _Line(child, update_hash(line.hash, pos, Roll(face), child), depth, ply, line.path)

    def expand(line: _Line) -> float | Decision[_Line] | Chance[_Line]:
        pos, d, ply = line.position, line.depth, line.ply
        if line.repeated:
            return 0.0
        if rules.is_chance_node(pos):
            outcome = rules.outcome(pos)
            if outcome is not None:
                return mine(pos, _terminal_value(outcome, pos, ply))
            if d == 0:
                return mine(pos, evaluation(pos, rules))
            return Chance([(after_roll(line, face), p)
                           for face, p in rules.chance_outcomes(pos)])
        if d == 0:
            outcome = quick_outcome(rules, pos)
            if outcome is not None:
                return mine(pos, _terminal_value(outcome, pos, ply))
            return 0.0 if _fifty_moves(rules, pos) else mine(pos, evaluation(pos, rules))
        moves = rules.legal_moves(pos)
        outcome = _node_outcome(rules, pos, moves)
        if outcome is not None:
            return mine(pos, _terminal_value(outcome, pos, ply))
        if _fifty_moves(rules, pos):
            return 0.0
        if not moves:
            return mine(pos, evaluation(pos, rules))
        return Decision(maximizing=pos.turn == me,
                        children=[after_move(line, m) for m in moves])

    root = _Line(position, root_hash, depth, 0, ())
    moves = rules.legal_moves(position)
    if not moves:
        return reference.expectiminimax(root, expand), []
    # every move's value, so that every move tying the best is returned
    scored = [(reference.expectiminimax(after_move(root, m), expand), m) for m in moves]
    best = max(v for v, _ in scored)
    return best, [m for v, m in scored if v == best]


# ---------------------------------------------------------------------------------------------

def principal_variation(rules: RuleModule, table: Mapping[int, tuple[Any, ...]],
                        position: Position, h: int, first: Move, length: int,
                        moves: Mapping[int, Move] | None = None) -> list[Move]:
    """The principal variation: ``first``, then the best move the table holds for each
    position after it, while that move is legal there; at most ``length`` moves.

    Both searches (lesson and playing) store ``(depth, flag, value, best move)``
    per Zobrist hash, so one walk serves both. The line stops at a chance node,
    at a position the table does not know, and before a position would repeat
    (stored moves can form a cycle). ``moves``: the move of each number, for a
    table that holds its moves as numbers (the playing search's).
    """
    line = [first]
    pos = rules.apply(position, first)
    h = update_hash(h, position, first, pos)
    seen = {h}
    while len(line) < length:
        entry = table.get(h)
        if entry is None or rules.is_chance_node(pos):
            break
        m = entry[3] if moves is None else moves.get(entry[3])
        if m is None:
            break
        if m not in rules.legal_moves(pos):
            break
        nxt = rules.apply(pos, m)
        h = update_hash(h, pos, m, nxt)
        if h in seen:
            break
        seen.add(h)
        line.append(m)
        pos = nxt
    return line


class Searcher:
    """Alpha-beta (expecti)minimax with iterative deepening, ordering and a table.

    One searcher belongs to one agent and keeps its table between moves
    (``max_table`` entries; the table is cleared when full). ``use_table``
    and ``ordering`` switch the table and the ordering off, for the tests
    and for lessons that show what each buys; ``chance_pruning`` switches
    Star1 off (plain expectimax at chance nodes).
    """

    def __init__(self, rules: RuleModule, *, use_table: bool = True, ordering: bool = True,
                 chance_pruning: bool = True, max_table: int = 200_000,
                 evaluation: Callable[[Position, Any], float] = static_evaluation,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.rules = rules
        #: the clock time limits are measured with (``time.process_time`` in benchmarks)
        self.clock = clock
        self.use_table = use_table
        self.ordering = ordering
        self.chance_pruning = chance_pruning
        self.max_table = max_table
        self.evaluation = evaluation
        self.table: dict[int, tuple[int, int, float, Move | None]] = {}
        self.nodes = 0
        self.tt_hits = 0
        self._seen: Counter[int] = Counter()
        self._killers: list[list[Move]] = []
        self._path_dependent = 0
        self._deadline: float | None = None
        self._node_limit: int | None = None
        self._check_limits = False

    # -- public --------------------------------------------------------------------------
    def search(self, position: Position, limits: Limits,
               history: Iterable[int] = ()) -> SearchResult:
        """Search ``position`` (a decision node) within ``limits``.

        ``history``: Zobrist hashes of the positions played in the game so
        far, the current one included, so that repetitions count.
        """
        rules = self.rules
        if rules.is_chance_node(position):
            raise TavreiError(_("search starts at a decision node; roll the die first"))
        started = self.clock()
        self.nodes = 0
        self.tt_hits = 0
        self._seen = Counter(history)
        root_hash = zobrist_hash(position)
        if not self._seen:
            self._seen[root_hash] = 1
        self._deadline = None if limits.time is None else started + limits.time
        self._node_limit = limits.nodes
        moves = rules.legal_moves(position)
        if not moves:
            outcome = rules.outcome(position)
            v = _terminal_value(outcome, position, 0) if outcome else 0.0
            return SearchResult(v, [], 0, 1, self.clock() - started)
        max_depth = limits.depth if limits.depth is not None else 64
        result: SearchResult | None = None
        order = list(moves)
        rank = {m: i for i, m in enumerate(moves)}
        for depth in range(1, max_depth + 1):
            # Depth 1 always finishes, so there is always an answer.
            self._check_limits = depth > 1
            try:
                value, best, scores = self._root(position, root_hash, order, depth)
                best.sort(key=rank.__getitem__)
            except SearchLimitReached:
                if result is not None:
                    result.complete = limits.depth is None
                break
            result = SearchResult(value, best, depth, self.nodes, 0.0,
                                  pv=principal_variation(self.rules, self.table, position,
                                                           root_hash, best[0], depth))
            # Next iteration: best moves first, then by this iteration's scores.
            order = sorted(moves, key=lambda m: (-scores[m], rank[m]))
            if abs(value) > MATE_BOUND:
                break    # a forced mate was found: deeper search cannot change that
            if self._deadline is not None and self.clock() > self._deadline:
                break
        assert result is not None
        result.nodes = self.nodes
        result.tt_hits = self.tt_hits
        result.seconds = self.clock() - started
        return result

    # -- the root: exact values for every move that may tie the best --------------------------
    def _root(self, position: Position, h: int, moves: list[Move],
              depth: int) -> tuple[float, list[Move], dict[Move, float]]:
        rules = self.rules
        self._killers = [[] for _ in range(depth + 2)]
        best = -INF
        scores: dict[Move, float] = {}
        exact: dict[Move, float] = {}
        for m in moves:
            child = rules.apply(position, m)
            alpha = best - TIE_EPSILON if best > -INF else -INF
            sign = _sign(position, child)
            v = sign * self._child(position, h, m, child, depth - 1, 1,
                                   *((-INF, -alpha) if sign < 0 else (alpha, INF)))
            scores[m] = v
            if v > alpha:        # inside the window: an exact value
                exact[m] = v
                best = max(best, v)
        best_moves = [m for m in moves if exact.get(m) == best]
        return best, best_moves, scores

    # -- interior nodes -----------------------------------------------------------------------
    def _tick(self) -> None:
        self.nodes += 1
        if not self._check_limits:
            return
        if self._node_limit is not None and self.nodes >= self._node_limit:
            raise SearchLimitReached
        if (self._deadline is not None and self.nodes & 255 == 0
                and self.clock() > self._deadline):
            raise SearchLimitReached

    def _child(self, parent: Position, h: int, action: Any, child: Position, depth: int,
               ply: int, alpha: float, beta: float) -> float:
        """Value of ``child`` (from its own side to move's view), with repetition counted.

        Only positions brought about by moves count toward repetition (as in
        ``Game.repetitions``): a die face, even one that passes the turn, does not.
        """
        if isinstance(action, str):
            ch = update_hash(h, parent, Roll(action), child)
            if self.rules.is_chance_node(child):
                return self._chance(child, ch, depth, ply, alpha, beta)
            return self._negamax(child, ch, depth, ply, alpha, beta)
        ch = update_hash(h, parent, action, child)
        seen = self._seen
        seen[ch] += 1
        try:
            if seen[ch] >= 3:
                self._path_dependent += 1
                return 0.0
            if self.rules.is_chance_node(child):
                return self._chance(child, ch, depth, ply, alpha, beta)
            return self._negamax(child, ch, depth, ply, alpha, beta)
        finally:
            seen[ch] -= 1

    def _negamax(self, pos: Position, h: int, depth: int, ply: int,
                 alpha: float, beta: float) -> float:
        self._tick()
        rules = self.rules
        if depth == 0:
            if self.evaluation is static_evaluation:
                outcome, score = leaf_evaluation(pos, rules)
            else:
                outcome = quick_outcome(rules, pos)
                score = None
            if outcome is not None:
                return _terminal_value(outcome, pos, ply)
            if _fifty_moves(rules, pos):
                return 0.0
            return self.evaluation(pos, rules) if score is None else score
        moves = rules.legal_moves(pos)
        outcome = _node_outcome(rules, pos, moves)
        if outcome is not None:
            return _terminal_value(outcome, pos, ply)
        if _fifty_moves(rules, pos):
            return 0.0
        if not moves:
            return self.evaluation(pos, rules)
        clock_matters = rules.fifty_move_rule and pos.halfmove_clock + depth >= 100
        storable = self.use_table and not clock_matters
        tt_move = None
        if self.use_table:
            entry = self.table.get(h)
            if entry is not None:
                e_depth, flag, value, tt_move = entry
                if storable and e_depth == depth:
                    if value > MATE_BOUND:
                        value -= ply
                    elif value < -MATE_BOUND:
                        value += ply
                    if flag == _EXACT:
                        self.tt_hits += 1
                        return value
                    if flag == _LOWER and value >= beta:
                        self.tt_hits += 1
                        return value
                    if flag == _UPPER and value <= alpha:
                        self.tt_hits += 1
                        return value
        if self.ordering:
            moves = self._order(pos, moves, tt_move, ply)
        alpha0 = alpha
        marker = self._path_dependent
        best = -INF
        best_move: Move | None = None
        for m in moves:
            child = rules.apply(pos, m)
            if child.turn == pos.turn:
                v = self._child(pos, h, m, child, depth - 1, ply + 1, alpha, beta)
            else:
                v = -self._child(pos, h, m, child, depth - 1, ply + 1, -beta, -alpha)
            if v > best:
                best, best_move = v, m
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        if self.ordering:
                            self._remember_killer(pos, m, ply)
                        break
        if storable and self._path_dependent == marker:
            flag = _UPPER if best <= alpha0 else _LOWER if best >= beta else _EXACT
            stored = best + ply if best > MATE_BOUND else best - ply if best < -MATE_BOUND \
                else best
            if len(self.table) >= self.max_table:
                self.table.clear()
            self.table[h] = (depth, flag, stored, best_move)
        return best

    def _chance(self, pos: Position, h: int, depth: int, ply: int,
                alpha: float, beta: float) -> float:
        """Expectation over the die faces, with Star1 bounds when pruning is on."""
        self._tick()
        rules = self.rules
        outcome = rules.outcome(pos)
        if outcome is not None:
            return _terminal_value(outcome, pos, ply)
        if depth == 0:
            return self.evaluation(pos, rules)
        faces = rules.chance_outcomes(pos)
        lo, hi = -MATE, MATE
        done = 0.0             # sum of p * value over the faces searched
        remaining = 1.0        # probability of the faces not yet searched
        for face, p in faces:
            remaining -= p
            child = rules.apply_roll(pos, face)
            sign = _sign(pos, child)
            cd, cp = _after_roll(rules, child, depth, ply)
            if not self.chance_pruning or p <= 0:
                a, b = -INF, INF
            else:
                a = max((alpha - done - remaining * hi) / p, lo)
                b = min((beta - done - remaining * lo) / p, hi)
            if sign > 0:
                v = self._child(pos, h, face, child, cd, cp, a, b)
            else:
                v = -self._child(pos, h, face, child, cd, cp, -b, -a)
            if self.chance_pruning and p > 0:
                if v <= a and a > lo:
                    return done + p * v + remaining * hi     # an upper bound <= alpha
                if v >= b and b < hi:
                    return done + p * v + remaining * lo     # a lower bound >= beta
            done += p * v
        return done

    # -- ordering -----------------------------------------------------------------------------
    def _order(self, pos: Position, moves: list[Move], tt_move: Move | None,
               ply: int) -> list[Move]:
        board = pos.board
        me = pos.turn
        killers = self._killers[ply] if ply < len(self._killers) else []
        values = _VALUE_BY_KIND

        def key(m: Move) -> float:
            if m == tt_move:
                return -1e9
            dest = board[m.to_square]
            if dest and dest[-1] & COLOR_BIT != me:
                # Most valuable victims first, cheapest attacker first.
                taken = sum(values[KIND_OF[t]] for t in dest if t & COLOR_BIT != me)
                return -1e6 - 100 * taken + values[acting_kind(board[m.from_square][-1])]
            if m in killers:
                return -1e3
            return 0.0

        return sorted(moves, key=key)

    def _remember_killer(self, pos: Position, move: Move, ply: int) -> None:
        dest = pos.board[move.to_square]
        if dest and dest[-1] & COLOR_BIT != pos.turn:
            return   # captures are ordered first anyway
        if ply >= len(self._killers):
            return
        slot = self._killers[ply]
        if move not in slot:
            slot.insert(0, move)
            del slot[2:]


__all__ = ["INF", "Limits", "SearchResult", "Searcher", "game_history", "minimax",
           "principal_variation", "static_evaluation"]
