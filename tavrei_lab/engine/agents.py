"""Agents: anything that picks a move for the side to move of a game.

The common interface is deliberately tiny so a tournament, the widget and the
terminal player can use any agent: ``choose(game) -> Move``, called at a
decision node. At a chance node of a die game the *caller* rolls
(``game.roll()``); the agent is asked again once the die shows a face.

Agents are seeded: two agents made with the same spec and seed make the same
choices in the same games. Every searching agent finds *all* the moves that
tie for the best value and lets its seeded generator pick among them, so a
seed is also what makes self-play games differ from one another.

Specs name agents on the command line and in tournaments (``make_agent``):

=====================  ============================================================
``random``             uniformly random legal move
``greedy``             one ply: the move whose resulting position evaluates best
``alphabeta:2``        alpha-beta search to depth 2 (iterative deepening, move
                       ordering, transposition table)
``alphabeta:nodes=5000``  ... stopped after 5000 nodes (the last finished depth counts)
``alphabeta:time=0.5``    ... stopped after half a second (not reproducible!)
``expectimax:2``       expectiminimax with Star1 pruning for die games, depth 2
=====================  ============================================================

Arguments may be combined: ``alphabeta:depth=4,nodes=20000``.
"""

from __future__ import annotations

import random
from typing import Any, Protocol, runtime_checkable

from tavrei_lab.core.move import Move
from tavrei_lab.errors import IllegalMoveError, TavreiError


@runtime_checkable
class Agent(Protocol):
    name: str

    def choose(self, game: Any) -> Move:
        """A legal move for the side to move of ``game`` (a decision node)."""
        ...


def _decision_moves(game: Any) -> list[Move]:
    if game.is_chance_node():
        raise IllegalMoveError("the die must be rolled before an agent can choose a move "
                               "(call game.roll())", ply=game.ply + 1)
    moves = game.legal_moves()
    if not moves:
        raise IllegalMoveError("no legal move to choose from: the game is over "
                               f"({game.outcome()})", ply=game.ply + 1)
    return moves


class RandomAgent:
    """Uniformly random among the legal moves: the baseline every agent must beat."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, game: Any) -> Move:
        return self.rng.choice(_decision_moves(game))

    def __repr__(self) -> str:
        return f"RandomAgent(seed={self.seed})"


def parse_limits(arg: str, default_name: str = "depth") -> dict[str, Any]:
    """``"2"`` -> {"depth": 2}; ``"depth=3,nodes=1000,time=0.5"`` -> all three.

    >>> parse_limits("2")
    {'depth': 2}
    >>> parse_limits("nodes=500,time=0.25")
    {'nodes': 500, 'time': 0.25}
    """
    out: dict[str, Any] = {}
    for part in arg.split(","):
        part = part.strip()
        if not part:
            continue
        name, eq, value = part.partition("=")
        if not eq:
            name, value = default_name, part
        name = name.strip().lower()
        aliases = {"d": "depth", "n": "nodes", "t": "time", "s": "time", "seconds": "time"}
        name = aliases.get(name, name)
        if name not in ("depth", "nodes", "time"):
            raise TavreiError(f"agent argument {part!r}: expected depth=N, nodes=N or "
                              "time=SECONDS")
        try:
            out[name] = float(value) if name == "time" else int(value)
        except ValueError:
            kind = "a number of seconds" if name == "time" else "a whole number"
            raise TavreiError(f"agent argument {part!r}: {name} must be {kind}") from None
    if not out:
        raise TavreiError(f"agent argument {arg!r}: expected a depth like 2 or depth=2")
    return out


class SearchAgent:
    """Base of the agents that search: a ``Searcher`` per rule module, kept across moves.

    The table survives from move to move (positions recur in a game), and a
    new searcher is made when the agent meets another variant.
    """

    name = "search"
    chance_pruning = True

    def __init__(self, seed: int | None = None, depth: int | None = 2,
                 nodes: int | None = None, time: float | None = None,
                 use_table: bool = True) -> None:
        from tavrei_lab.engine.search import Limits
        if depth is None and nodes is None and time is None:
            depth = 2
        self.limits = Limits(depth=depth, nodes=nodes, time=time)
        self.seed = seed
        self.rng = random.Random(seed)
        self.use_table = use_table
        self._searcher: Any = None
        self.last: Any = None          # the last SearchResult, for inspection and lessons

    @classmethod
    def from_arg(cls, arg: str, seed: int | None = None) -> SearchAgent:
        limits = parse_limits(arg)
        if "depth" not in limits:
            limits["depth"] = None
        return cls(seed=seed, **limits)

    def searcher(self, rules: Any) -> Any:
        from tavrei_lab.engine.search import Searcher
        if self._searcher is None or self._searcher.rules is not rules:
            self._searcher = Searcher(rules, use_table=self.use_table,
                                      chance_pruning=self.chance_pruning)
        return self._searcher

    def choose(self, game: Any) -> Move:
        from tavrei_lab.engine.search import game_history
        _decision_moves(game)
        history = game_history(game)
        result = self.searcher(game.rules).search(game.position, self.limits, history)
        self.last = result
        return self.rng.choice(result.best_moves)

    def __repr__(self) -> str:
        lim = self.limits
        parts = [f"{k}={v}" for k, v in (("depth", lim.depth), ("nodes", lim.nodes),
                                          ("time", lim.time)) if v is not None]
        return f"{type(self).__name__}({', '.join(parts)}, seed={self.seed})"


class GreedyAgent(SearchAgent):
    """One ply: play the move after which the evaluation is best for the mover.

    It sees mates in one (the evaluation scores a mated side as lost) and
    the draws its move would cause by repetition or the fifty-move rule,
    and nothing deeper.
    """

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed=seed, depth=1, use_table=False)

    @classmethod
    def from_arg(cls, arg: str, seed: int | None = None) -> GreedyAgent:
        raise TavreiError(f"agent 'greedy' looks one ply ahead and takes no argument "
                          f"(got {arg!r}); use alphabeta:{arg} to search deeper")


class AlphaBetaAgent(SearchAgent):
    """Alpha-beta search with iterative deepening, ordering and a transposition table.

    In die games it searches the chance nodes too (the same search as
    ``ExpectimaxAgent``): nothing in a die game is hidden from it.
    """

    name = "alphabeta"


class ExpectimaxAgent(SearchAgent):
    """Expectiminimax for die games: each face's value weighted by its probability,
    with Star1 pruning at the chance nodes (``Searcher(chance_pruning=True)``).

    On a game without a die it is alpha-beta search.
    """

    name = "expectimax"


AGENTS: dict[str, Any] = {"random": RandomAgent, "greedy": GreedyAgent,
                          "alphabeta": AlphaBetaAgent, "expectimax": ExpectimaxAgent}


def make_agent(spec: str, seed: int | None = None) -> Agent:
    """An agent from a spec like ``"random"`` or ``"alphabeta:2"`` (name:argument).

    >>> make_agent("alphabeta:3", seed=1)
    AlphaBetaAgent(depth=3, seed=1)
    """
    if not isinstance(spec, str):
        raise TavreiError(f"an agent spec must be text like 'alphabeta:2', got {spec!r}")
    name, _, arg = spec.strip().partition(":")
    cls = AGENTS.get(name.strip().lower())
    if cls is None:
        raise TavreiError(f"unknown agent {spec!r}; known: {', '.join(sorted(AGENTS))}")
    if arg:
        factory = getattr(cls, "from_arg", None)
        if factory is None:
            raise TavreiError(f"agent {name!r} takes no argument (got {arg!r})")
        return factory(arg, seed=seed)
    return cls(seed=seed)
