"""Growing a game tree as a ``networkx.DiGraph``.

A tree is the picture a teacher draws on the board to explain a move: the
position, the moves worth looking at, what each leads to. ``build`` grows it
breadth first from a game or a position, ply by ply.

**Nodes** are integers (the root is ``0``; ids follow breadth-first order)
and carry only what a reader needs, because a Tavreli tree grows fast:

- ``position`` -- the position string (``tavrei_lab.notation.position_string``);
- ``turn`` -- ``"white"`` or ``"black"``, the side to move (at a chance node: the side about
  to roll);
- ``type`` -- ``"decision"`` (a side picks a move), ``"chance"`` (a die is rolled) or
  ``"terminal"`` (the game is over);
- ``outcome`` -- ``"1-0"``, ``"0-1"``, ``"1/2-1/2"`` at terminal nodes, else None;
  ``termination`` (``"checkmate"`` ...) is added at terminal nodes only;
- ``depth`` -- plies (turns) played from the root. A die roll is not a ply: the decision
  node it leads to has the chance node's depth. A roll that passes the turn (a skip face,
  or a face that allows no move) is a turn, as the die game's perft counts it;
- ``cut`` -- present (True) only on nodes whose children were not grown because the
  tree reached ``max_nodes``.

**Edges** carry ``move`` (canonical move text, ``write_move``) at decision
nodes, or ``face`` and ``probability`` at chance nodes. Both kinds also get
``label`` (the move text, or ``@F``), which drawings and exports use.

The graph itself carries ``variant``, ``root_position``, ``depth``,
``nodes_per_depth`` (the nodes at each ply, depth 0 first, counted as
``tavrei_lab.engine.perft.perft`` counts leaves, so that on an unfiltered
tree they equal perft at each depth: in the die game, the positions where a
turn starts; without a module perft, every node but the chance nodes), ``truncated``, the move
filter's name, and, once values are computed (``tavrei_lab.tree.values``),
``value`` and ``principal_variation``; ``variant_data`` holds the variant's whole
definition as JSON text, from which ``position_at`` rebuilds the rules (once: they
are cached beside the graph). Everything in the graph is a plain number or text
with no None and no list (a node's ``outcome`` is ``""`` while the game goes on,
``cut_by`` is ``""`` for a whole tree), so networkx's own writers --
``json.dumps(nx.node_link_data(G))``, ``nx.write_graphml``, ``nx.write_gexf`` -- take
it as it is: GraphML and GEXF know no lists. So the graph's sequences are text,
space-separated: ``nodes_per_depth`` ("1 39 1519"), ``principal_variation`` and
``history`` (the moves played before the root), as movetext -- ``game.play(...)``
takes them as they are; ``nodes_per_depth(G)``, ``principal_variation(G)`` and
``history(G)`` give them as lists.

The tree is a *tree*, not a graph of positions: a position reached by two
move orders appears twice, as in perft.
"""

from __future__ import annotations

import math
import time
import warnings
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import networkx as nx

if TYPE_CHECKING:
    from tavrei_lab.core import cython_shim as cython
else:
    try:
        import cython
    except ImportError:   # no Cython (Pyodide, a plain install): the pure build's value
        from tavrei_lab.core import cython_shim as cython

from tavrei_lab.core.position import Position
from tavrei_lab.core.progress import progress_of
from tavrei_lab.core.tavrel import COLOR_NAMES
from tavrei_lab.core.text import rank_cache, rank_texts, rank_writer, write_position
from tavrei_lab.engine.zobrist import changed_squares
from tavrei_lab.errors import LimitError
from tavrei_lab.i18n import gettext as _
from tavrei_lab.notation.moves import write_legal_move
from tavrei_lab.rules.base import RuleModule
from tavrei_lab.tree.filters import as_filter, every
from tavrei_lab.tree.nodes import (
    collector_paused,
    describe_rules,
    history,
    moves_to,
    nodes_per_depth,
    path_to,
    position_at,
    principal_variation,
    root_of,
)
from tavrei_lab.tree.values import minimax

if cython.compiled:
    # Position as the extension type of core/position.pxd: a child's fields read as C
    # struct members (the position string's fields after the board)
    from cython.cimports.tavrei_lab.core.position import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
        Position as _CPosition,
    )
else:
    _CPosition = Position

#: Growth stops here unless ``max_nodes`` says otherwise: a tree a notebook survives.
DEFAULT_MAX_NODES = 250_000
#: Largest ``max_nodes`` accepted: a node costs about 2 KB and up to a millisecond
#: (``tree --depth 5 --max-nodes 100000``: 251 MB RSS; 1,000,000 nodes took 2.0 GB).
MAX_TREE_NODES = 250_000
#: ``progress`` is told after every this many nodes.
PROGRESS_EVERY = 10_000


class TreeCutWarning(RuntimeWarning):
    """A tree came back cut (by ``max_nodes`` or ``time_limit``) before its depth."""


#: The deepest tree ``build`` grows (plies); deeper trees are never readable.
MAX_DEPTH = 12

Evaluation = Callable[[Position], float]


def _start(game_or_position: Any, variant: str | None) -> tuple[Any, Position, list[str]]:
    """(rules, position, moves played before it) from a Game, a Position or a string."""
    from tavrei_lab.game import Game
    if isinstance(game_or_position, Game):
        return game_or_position.rules, game_or_position.position, \
            game_or_position.action_texts()
    if isinstance(game_or_position, Position):
        return game_or_position.rules, game_or_position, []
    if isinstance(game_or_position, str):
        game = Game(variant or "tavreli", game_or_position)
        return game.rules, game.position, []
    raise TypeError(_("build() starts from a Game, a Position or a position string, not "
                      "{type}").format(type=type(game_or_position).__name__))


@cython.cfunc
def _node_data(rules: RuleModule, position: Position, depth: int,
               text: str | None = None) -> tuple[dict[str, Any], bool]:
    """The node's attributes, and whether it is a chance position (for the depth counts).
    ``text``: the position string, if already written."""
    # (a module without chance has no chance node: no call a node to ask; a C
    # function in the compiled build, called once a node)
    chance = bool(rules.has_chance and rules.is_chance_node(position))
    outcome = rules.outcome(position)
    data: dict[str, Any] = {
        "position": write_position(position) if text is None else text,
        "turn": COLOR_NAMES[position.turn],
        "type": "terminal" if outcome is not None else ("chance" if chance else "decision"),
        "outcome": outcome.result() if outcome is not None else "",   # "": not over
        "depth": depth,
    }
    if outcome is not None:
        data["termination"] = outcome.termination
    return data, chance


@cython.cfunc
@cython.locals(row=cython.Py_ssize_t, height=cython.Py_ssize_t, width=cython.Py_ssize_t,
               start=cython.Py_ssize_t, known_ranks=dict)
def _rank(known_ranks: dict[tuple, str], write_rank: Callable[[tuple, int], str],
          board: tuple, row: int, height: int, width: int) -> str:
    """The text of ``board``'s rank ``row`` (from the top): looked up in the rank cache
    first, written only when new -- a call of the writer spared for most ranks."""
    start = (height - 1 - row) * width
    found = known_ranks.get(board[start:start + width])
    return found if found is not None else write_rank(board, row)


@cython.cfunc
def _cut(G: nx.DiGraph, node: int, waiting: deque[tuple[Any, ...]], by: str) -> None:
    """Mark ``node`` and every node still waiting as cut, and the graph as cut by ``by``."""
    node_data = G._node
    node_data[node]["cut"] = True
    for other, *_rest in waiting:
        node_data[other]["cut"] = True
    waiting.clear()
    G.graph["truncated"] = True
    G.graph["cut_by"] = by


@cython.cfunc
@cython.locals(node_data=dict, succ=dict, pred=dict, below=dict, children=list,
               counts=list, strings=dict)
def _grow_chance(G: nx.DiGraph, rules: RuleModule, node: int, position: Position, d: int,
                 depth: int, turns: bool, limit: float, deadline: float,
                 strings: dict[str, str], counts: list[int],
                 waiting: deque[tuple[Any, ...]], bar: Any, report: Any,
                 started: float) -> bool:
    """Grow a chance node's children, one a die face; False when the tree is cut here.
    (A roll's child is known only once rolled: a roll that passes the turn past the
    depth limit has no child, so the faces are all rolled before the node may be cut.)"""
    node_data, succ, pred = G._node, G._succ, G._pred
    next_id = len(node_data)
    # (edge attributes, child position, child depth, is the child mid-turn?)
    children: list[tuple[dict[str, Any], Position, int, bool]] = []
    for face, p in rules.chance_outcomes(position):
        child = rules.apply_roll(position, face)
        passes = child.turn != position.turn or rules.is_chance_node(child)
        if passes and d >= depth:
            continue  # only without turn counting: a pass past the limit
        children.append(({"face": face, "probability": float(p), "label": f"@{face}"},
                         child, d + 1 if passes else d, not passes))
    over_time = time.monotonic() > deadline
    if next_id + len(children) > limit or over_time:
        _cut(G, node, waiting, "time_limit" if over_time else "max_nodes")
        return False
    if next_id // PROGRESS_EVERY != (next_id + len(children)) // PROGRESS_EVERY:
        if report is not None:
            report(next_id + len(children), time.monotonic() - started)
        if bar is not None:
            bar.update(next_id + len(children) - bar.n)
    below = succ[node]
    for i, (edge, child, child_depth, mid_turn) in enumerate(children):
        if i % 32 == 31 and time.monotonic() > deadline:
            _cut(G, node, waiting, "time_limit")
            return False
        string = write_position(child)
        cdata, cchance = _node_data(rules, child, child_depth,
                                    strings.setdefault(string, string))
        node_data[next_id], succ[next_id], pred[next_id] = cdata, {}, {node: edge}
        below[next_id] = edge
        if (not mid_turn) if turns else (not cchance):
            counts[child_depth] += 1
        if cdata["type"] != "terminal" and ((cchance and not turns) or child_depth < depth):
            waiting.append((next_id, child, child_depth, cchance, None))
        next_id += 1
    return True


@cython.locals(fr=cython.Py_ssize_t, to=cython.Py_ssize_t, k=cython.Py_ssize_t,
               promotion=cython.Py_ssize_t, row=cython.Py_ssize_t,
               row_to=cython.Py_ssize_t, sq=cython.Py_ssize_t, i=cython.Py_ssize_t,
               n=cython.Py_ssize_t, width=cython.Py_ssize_t, height=cython.Py_ssize_t,
               partial=cython.bint, grows=cython.bint, known_ranks=dict, edits=dict,
               strings=dict, texts=dict, tails=dict, node_data=dict, succ=dict, pred=dict,
               below=dict, blanks=list, blank=dict, heads=list, ends=list, middles=dict,
               rows=list, ranks=list, parent_ranks=list, board=tuple, after_board=tuple,
               after=_CPosition, cdata=dict, last_key=tuple, left_square=cython.Py_ssize_t)
def build(game_or_position: Any, depth: int, *, moves: Any = None, root_moves: Any = None,
          max_nodes: int | None = DEFAULT_MAX_NODES, values: bool = True,
          evaluate: Evaluation | None = None, alphabeta: bool = True,
          variant: str | None = None, time_limit: float | None = None,
          progress: Callable[[int, float], None] | bool | str | None = True) -> nx.DiGraph:
    """Grow the game tree ``depth`` plies deep from a game (its current position) or a position.

    ``moves`` keeps only the moves a filter accepts, at every ply (see
    ``tavrei_lab.tree.filters``: ``"captures"``, ``["splits", "checks"]``,
    ``"splits&frees"``, or a callable ``(position, move) -> bool``);
    ``root_moves`` filters the first ply only (on top of ``moves``) -- "these
    splits, and every answer to them". Growth is breadth first; when the next
    node's children would pass ``max_nodes``, that node and every node still
    waiting are marked ``cut=True`` and ``G.graph["truncated"]`` is True
    (``max_nodes=None``: no limit; at most ``MAX_TREE_NODES``). ``time_limit``
    (seconds) cuts growth the same way when it runs out; ``G.graph["cut_by"]``
    says which bound cut the tree, and a cut tree warns (``TreeCutWarning``).
    ``progress``: True (the default) shows a ``tqdm.auto`` bar of the nodes grown
    when a build lasts over a second (a widget in notebooks, a text bar in
    terminals, nothing in logs); a mode ("widget", "terminal", "off"), False, or a
    callable ``progress(nodes, seconds)`` called every ``PROGRESS_EVERY`` nodes.

    With ``values`` (the default) node values and the principal variation are
    computed at once by ``tavrei_lab.tree.values.minimax`` with ``evaluate``
    (default: ``tavrei_lab.engine.evaluate.evaluate``) and ``alphabeta``.

    A position string is read with ``variant`` (default Tavreli).

    >>> from tavrei_lab import Game
    >>> G = build(Game(), 2, values=False)
    >>> G.graph["nodes_per_depth"], nodes_per_depth(G)
    ('1 39 1519', [1, 39, 1519])
    >>> G.nodes[0]["type"], G.nodes[0]["turn"], G.edges[0, 1]["move"]
    ('decision', 'white', 'a1xa2')
    """
    if isinstance(depth, bool) or not isinstance(depth, int):
        raise TypeError(_("depth must be an integer, not {type}").format(
            type=type(depth).__name__))
    if not 0 <= depth <= MAX_DEPTH:
        raise LimitError(_("tree depth must be between 0 and {most} plies, got {depth}")
                         .format(most=MAX_DEPTH, depth=depth))
    if max_nodes is not None and (isinstance(max_nodes, bool) or not isinstance(max_nodes, int)
                                  or max_nodes < 1):
        raise LimitError(_("max_nodes must be a positive whole number or None, got "
                           "{max_nodes!r}").format(max_nodes=max_nodes))
    if max_nodes is not None and max_nodes > MAX_TREE_NODES:
        raise LimitError(_("max_nodes is {max_nodes}; the limit is {most} (a tree costs "
                           "about 2 KB a node: 250,000 nodes about 550 MB)").format(
                               max_nodes=max_nodes, most=MAX_TREE_NODES))
    if time_limit is not None and not (isinstance(time_limit, (int, float))
                                       and time_limit > 0 and math.isfinite(time_limit)):
        raise LimitError(_("time_limit must be a positive number of seconds, got "
                           "{time_limit}").format(time_limit=str(time_limit)[:30]))
    started = time.monotonic()
    deadline = started + time_limit if time_limit is not None else math.inf
    rules, root, history = _start(game_or_position, variant)
    keep = as_filter(moves)
    keep_first = as_filter(root_moves) if root_moves is not None else None
    limit = max_nodes if max_nodes is not None else float("inf")

    bar, report = progress_of(progress, "tree", "nodes")
    G = nx.DiGraph()
    # plain data only (no None, no objects), so networkx's writers take the graph as it is
    describe_rules(G, rules)
    G.graph.update({
        "root_position": write_position(root),
        "history": " ".join(history), "depth": depth, "filter": keep.name,
        "root_filter": keep_first.name if keep_first is not None else "",
        "max_nodes": max_nodes if max_nodes is not None else MAX_TREE_NODES,
        "truncated": False, "cut_by": "",
    })
    # How plies are counted at die rolls follows the module's perft: a module that
    # ``counts_turns`` (the die game: a roll and its move, or a roll that passes) has
    # chance nodes count and not expanded at the depth limit; otherwise a roll is never
    # a ply and a chance node always expands.
    turns = rules.counts_turns
    has_chance = bool(rules.has_chance)
    apply, outcome_of = rules.apply, rules.outcome   # (bound once: two look-ups a node)
    # In the tower-chess family a move changes only the ranks of the squares it
    # changes (``changed_squares``): a child's position string is its parent's ranks
    # with those one or two rewritten, not the whole board written again.
    by_ranks = rules.fast_paths().whole_game
    write_rank = rank_writer(root)
    known_ranks = rank_cache(root)   # (a rank found there needs no call of write_rank)
    height = rules.geometry.height
    width = rules.geometry.width
    # A rank a move rewrites, by its text before, the square and the tower put there
    # (or the two squares and towers of a move along one rank): the text names the
    # rank's towers as the board does, so this key finds the rank's new text without
    # the slice and the hash of all its towers that ``known_ranks`` asks for.
    edits: dict[tuple[Any, ...], str] = {}
    # Equal position strings (a position reached by two move orders) are kept once.
    strings: dict[str, str] = {}
    # Move texts, and a position string's fields after the board, written once a tree
    # (by_ranks only: see the moves' loop).
    texts: dict[Any, str] = {}
    tails: dict[tuple[Any, ...], str] = {}
    last_key: tuple[Any, ...] = (None,) * 5   # (no position's turn is None)
    last_tail = ""
    # A node's data before its position string and depth are set, by side to move and
    # chance (``turn * 2 + chance``): copied, it has the keys in the order of ``_node_data``.
    blanks = [{"position": "", "turn": COLOR_NAMES[turn], "type": kind, "outcome": "",
               "depth": 0} for turn in (0, 1) for kind in ("decision", "chance")]
    counts = [0] * (depth + 1)
    # The nodes go straight into the graph's own dicts (networkx's documented
    # dict-of-dicts: node -> data, node -> child -> edge data, and the same edge
    # data under child -> parent), which is what ``add_node``/``add_edge`` do, less
    # two method calls, a keyword dict and a cache clearing per node.
    node_data, succ, pred = G._node, G._succ, G._pred
    with collector_paused():  # (networkx makes a few dicts a node)
        data, chance = _node_data(rules, root, 0)
        node_data[0], succ[0], pred[0] = data, {}, {}
        if turns or not chance:
            counts[0] += 1
        # (node, its position, its depth, is it a chance node?, its ranks' texts if
        # known: a child's, from its parent's)
        waiting: deque[tuple[int, Position, int, bool, list[str] | None]] = deque()
        if data["type"] != "terminal" and ((chance and not turns) or depth > 0):
            waiting.append((0, root, 0, chance, None))
        next_id = 1
        ranks: list[str] | None
        edit: tuple[Any, ...]
        while waiting:
            node, position, d, at_chance, ranks = waiting.popleft()
            if at_chance:
                if not _grow_chance(G, rules, node, position, d, depth, turns, limit,
                                    deadline, strings, counts, waiting, bar, report,
                                    started):
                    break
                next_id = G.number_of_nodes()
                continue
            # The children are the kept moves, known before any is played: the node
            # is cut (max_nodes) before its children are made, and each is made in one
            # go -- played, described and put in the graph.
            found = rules.legal_moves(position)
            if keep is not every or (keep_first is not None and d == 0):
                found = [m for m in found
                         if (keep is every or keep(position, m))
                         and (keep_first is None or d != 0 or keep_first(position, m))]
            n = len(found)
            over_time = time.monotonic() > deadline
            if next_id + n > limit or over_time:
                _cut(G, node, waiting, "time_limit" if over_time else "max_nodes")
                break
            if next_id // PROGRESS_EVERY != (next_id + n) // PROGRESS_EVERY:
                if report is not None:
                    report(next_id + n, time.monotonic() - started)
                if bar is not None:
                    bar.update(next_id + n - bar.n)
            child_depth = d + 1
            grows = child_depth < depth   # (a decision child that is not over grows)
            below = succ[node]
            left_square = -1   # (no tower left behind yet; by_ranks only)
            if by_ranks:
                parent_ranks = ranks if ranks is not None else rank_texts(position)
                board = position.board
                ep = position.ep_square
                # the parent's ranks joined, before and after each row (and between
                # two), made when a child first needs them
                heads: list[str | None] = [None] * height
                ends: list[str | None] = [None] * height
                middles: dict[int, str] = {}
                left_tower, left_text = None, ""
            late = False
            for i in range(n):
                # one node may have 50,000 children, each a few milliseconds to make:
                # the time limit is checked among them too
                if i % 32 == 31 and time.monotonic() > deadline:
                    late = True
                    break
                m = found[i]
                child = apply(position, m)
                rows = None
                if not by_ranks:
                    text = write_legal_move(position, m)
                    string = write_position(child)
                else:
                    after = child
                    fr, k, to, promotion, castling = m
                    dest = board[to]
                    # the fields after the board repeat across a ply: each written once
                    # (and most often the same objects as the last child's: no key then)
                    if not (after.halfmove_clock is last_key[2] and after.turn is last_key[0]
                            and after.ep_square is last_key[1]
                            and after.fullmove_number is last_key[3]
                            and after.roll is last_key[4]):
                        last_key = (after.turn, after.ep_square, after.halfmove_clock,
                                    after.fullmove_number, after.roll)
                        written = tails.get(last_key)
                        if written is None:
                            written = tails[last_key] = write_position(after, "")
                        last_tail = written
                    tail = last_tail
                    if castling or (to == ep and not dest):   # (four squares, or three)
                        text = write_legal_move(position, m)
                        rows = parent_ranks[:]
                        for sq in changed_squares(position, m):
                            row = height - 1 - sq // width
                            rows[row] = write_rank(after.board, row)
                        string = "/".join(rows) + tail
                    else:
                        # A move's text is its squares', its count's (all of the tower
                        # or not), its promotion's and whether it lands on a tower:
                        # moves alike in those are written alike, once a tree (and
                        # their texts shared). (Compiled, the key is one number where it
                        # fits: C arithmetic and a hash for free; in Python the tuple is
                        # the cheaper.)
                        partial = k < len(board[fr])
                        if cython.compiled and fr < 4096 and to < 4096 and k < 4096 \
                                and 0 <= promotion < 256:
                            key = ((((fr * 4096 + to) * 4096 + k) * 256 + promotion) * 2
                                   + partial) * 2 + (not dest)
                        else:
                            key = (m, partial, not dest)
                        known = texts.get(key)
                        if known is None:
                            known = texts[key] = write_legal_move(position, m)
                        text = known
                        after_board = after.board
                        row = height - 1 - fr // width
                        row_to = height - 1 - to // width
                        if row == row_to:
                            edit = (parent_ranks[row], fr, after_board[fr], to, after_board[to])
                            new = edits.get(edit)
                            if new is None:
                                new = edits[edit] = _rank(known_ranks, write_rank,
                                                          after_board, row, height, width)
                            if grows:
                                rows = parent_ranks[:]
                                rows[row] = new
                        else:
                            # (the moves of one tower are generated together, and most
                            # leave the same tower behind: the last one's rank is kept)
                            left = after_board[fr]
                            if fr == left_square and left == left_tower:
                                new = left_text
                            else:
                                edit = (parent_ranks[row], fr, left)
                                new = edits.get(edit)
                                if new is None:
                                    new = edits[edit] = _rank(known_ranks, write_rank,
                                                              after_board, row, height, width)
                                left_square, left_tower, left_text = fr, left, new
                            edit = (parent_ranks[row_to], to, after_board[to])
                            new_to = edits.get(edit)
                            if new_to is None:
                                new_to = edits[edit] = _rank(known_ranks, write_rank,
                                                             after_board, row_to, height,
                                                             width)
                            if grows:
                                rows = parent_ranks[:]
                                rows[row] = new
                                rows[row_to] = new_to
                            if row > row_to:   # (the top row first)
                                row, row_to, new, new_to = row_to, row, new_to, new
                        # the parent's ranks above the top changed row and below the
                        # bottom one, each joined once a parent
                        head = heads[row]
                        if head is None:
                            head = heads[row] = "".join([r + "/" for r in parent_ranks[:row]])
                        end = ends[row_to]
                        if end is None:
                            end = ends[row_to] = "".join(
                                ["/" + r for r in parent_ranks[row_to + 1:]])
                        if row == row_to:
                            string = f"{head}{new}{end}{tail}"
                        else:
                            middle = middles.get(row * height + row_to)
                            if middle is None:
                                middle = middles[row * height + row_to] = "".join(
                                    ["/" + r for r in parent_ranks[row + 1:row_to]]) + "/"
                            string = f"{head}{new}{middle}{new_to}{end}{tail}"
                cchance = has_chance and bool(rules.is_chance_node(child))
                outcome = outcome_of(child)
                if outcome is None:
                    blank = blanks[child.turn * 2 + cchance]
                    cdata = blank.copy()
                    cdata["position"] = strings.setdefault(string, string)
                    cdata["depth"] = child_depth
                else:
                    cdata = {"position": strings.setdefault(string, string),
                             "turn": COLOR_NAMES[child.turn], "type": "terminal",
                             "outcome": outcome.result(), "depth": child_depth,
                             "termination": outcome.termination}
                edge = {"move": text, "label": text}
                node_data[next_id], succ[next_id], pred[next_id] = cdata, {}, {node: edge}
                below[next_id] = edge
                if turns or not cchance:
                    counts[child_depth] += 1
                # grown further: not over, and a ply to go (a roll is no ply without
                # turn counting, so there a chance node always grows)
                if outcome is None and ((cchance and not turns) or grows):
                    waiting.append((next_id, child, child_depth, cchance,
                                    rows if not cchance else None))
                next_id += 1
            if late:
                _cut(G, node, waiting, "time_limit")
                break
    if bar is not None:
        bar.update(G.number_of_nodes() - bar.n)
        bar.close()
    if G.graph["truncated"]:
        warnings.warn(_("tree cut at {count:,} nodes by {cut_by} before depth {depth}: its "
                        "cut nodes are marked cut=True (raise max_nodes or time_limit, or "
                        "filter the moves)").format(count=G.number_of_nodes(),
                                                    cut_by=G.graph["cut_by"], depth=depth),
                      # (compiled, ``build`` has no frame: the caller's is the first)
                      TreeCutWarning, stacklevel=1 if cython.compiled else 2)
    G.graph["nodes_per_depth"] = " ".join(map(str, counts))
    G.graph["principal_variation"] = ""
    if values:
        minimax(G, evaluate=evaluate, alphabeta=alphabeta)
    return G


# the node helpers are tree.nodes'; their names stay importable from here
__all__ = ["DEFAULT_MAX_NODES", "MAX_DEPTH", "MAX_TREE_NODES", "build", "history",
           "moves_to", "nodes_per_depth", "path_to", "position_at", "principal_variation",
           "root_of"]
