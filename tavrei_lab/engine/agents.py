"""Agents: anything that picks a move for the side to move of a game.

The common interface is deliberately tiny so a tournament, the widget and the
terminal player can use any agent: ``choose(game) -> Move``, called at a
decision node. At a chance node of a die game the *caller* rolls
(``game.roll()``); the agent is asked again once the die shows a face.

Agents are seeded: two agents made with the same spec and seed make the same
choices in the same games. Every searching agent finds *all* the moves that
tie for the best value and lets its seeded generator pick among them, so a
seed is also what makes self-play games differ from one another.

Specs name agents on the command line, in tournaments and on the board
widget (``make_agent``):

============================  ============================================================
``random``                    uniformly random legal move
``greedy``                    one ply: the move whose resulting position evaluates best
``alphabeta:2``               the *lesson* search to depth 2: exact fixed-depth alpha-beta
                              (iterative deepening, ordering, exact-depth table), ties
                              broken by the seed -- reproducible and explainable
``alphabeta:0.5s``            the *playing* search (``engine.play``) for half a second a
                              move (also ``time=0.5``); wall clock, so not reproducible
``alphabeta:nodes=20000``     the playing search stopped after 20000 nodes: reproducible
``play``                      the default playing agent: the playing search, 1 s a move
                              (``play:0.3s``, ``play:depth=6``, ``play:nodes=N`` too)
``play:nodes=K,weights=W``    the playing search with the evaluation's weights read from
                              the file ``W`` (written by ``tavrei-lab tune``); with
                              ``weights=fit`` the weights fit for the game's own variant
                              (shipped with the package for the variants tuned so far,
                              or fit to each cell by ``sweep --tune``); ``noise=N``
                              blurs its evaluation by up to N centipawns, seeded per
                              game: a node-limited search alone plays one game over and
                              over in self-play
``level:3``                   a classroom level, 1 (beginner) .. 8 (strongest): each
                              looks a ply deeper than the one below, within a time cap
                              (0.5 s for 1-4, then 1, 1.5, 2.5 and 4 s); see ``LEVELS``
``level:1,nodes=20000``       the level with a node cap instead of its time cap: no clock
                              decides a move, so reproducible under any load (the lab's
                              default players)
``expectimax:2``              expectiminimax for die games, depth 2 (Star1 pruning in the
                              lesson search; ``expectimax:1s`` plays with Star2 probing)
============================  ============================================================

Arguments may be combined: ``alphabeta:depth=4,nodes=20000``. ``mode=lesson``
or ``mode=play`` chooses the search explicitly; without it a spec that gives
only a depth uses the lesson search (as ``alphabeta:3`` always has), and one
with a time or a node budget the playing search.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Protocol, runtime_checkable

from tavrei_lab.core.move import Move
from tavrei_lab.errors import IllegalMoveError, TavreiError
from tavrei_lab.i18n import gettext as _
from tavrei_lab.rules.base import RuleModule


@runtime_checkable
class Agent(Protocol):
    name: str

    def choose(self, game: Any) -> Move:
        """A legal move for the side to move of ``game`` (a decision node)."""
        ...


def _decision_moves(game: Any, texts: bool = True) -> list[Move]:
    """The legal moves of a decision node (raises at a chance node or the game's end).
    ``texts=False``: the rules' plain moves, for a caller that only checks there is one
    (``game.legal_moves`` makes each move carry its position, to print as its text)."""
    if game.is_chance_node():
        raise IllegalMoveError(_("the die must be rolled before an agent can choose a move "
                                 "(call game.roll())"), ply=game.ply + 1)
    moves = game.legal_moves() if texts else game.rules.legal_moves(game.position)
    if not moves:
        raise IllegalMoveError(_("no legal move to choose from: the game is over ({value})")
                                   .format(value=game.outcome()), ply=game.ply + 1)
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


MODES = ("lesson", "play")


def parse_limits(arg: str, default_name: str = "depth",
                 also: tuple[str, ...] = ()) -> dict[str, Any]:
    """``"2"`` -> {"depth": 2}; ``"depth=3,nodes=1000,time=0.5"`` -> all three;
    ``"0.5s"`` -> {"time": 0.5}; ``"mode=play"`` -> {"mode": "play"}.

    >>> parse_limits("2")
    {'depth': 2}
    >>> parse_limits("nodes=500,time=0.25")
    {'nodes': 500, 'time': 0.25}
    >>> parse_limits("0.5s")
    {'time': 0.5}

    ``also``: the other keys the agent takes (``play``'s weights, noise, ...), named in
    the message for a key it does not know. A key given twice is refused: which of the
    two was meant cannot be told.
    """
    out: dict[str, Any] = {}
    for part in arg.split(","):
        part = part.strip()
        if not part:
            continue
        name, eq, value = part.partition("=")
        if not eq and part.strip().lower() in also:
            raise TavreiError(_("agent argument {part!r}: {name} needs a value, like {name}=...")
                              .format(part=part, name=part.strip().lower()))
        if not eq:
            if part.lower().endswith("s") and part[:-1].strip():
                name, value = "time", part[:-1]
            else:
                name, value = default_name, part
        name = name.strip().lower()
        aliases = {"d": "depth", "n": "nodes", "t": "time", "s": "time", "seconds": "time"}
        name = aliases.get(name, name)
        if name in out:
            raise TavreiError(_("agent argument {part!r}: {name} is given twice")
                              .format(part=part, name=name))
        if name == "mode":
            value = value.strip().lower()
            if value not in MODES:
                raise TavreiError(_("agent argument {part!r}: mode must be lesson or play")
                                      .format(part=part))
            out["mode"] = value
            continue
        if name not in ("depth", "nodes", "time"):
            if also:
                raise TavreiError(_("agent argument {part!r}: expected depth=N, nodes=N, "
                                    "time=SECONDS (or 0.5s), mode=play or one of {names}")
                                  .format(part=part, names=", ".join(f"{n}=..." for n in also)))
            raise TavreiError(_("agent argument {part!r}: expected depth=N, nodes=N, "
                                "time=SECONDS (or 0.5s) or mode=lesson|play").format(part=part))
        try:
            out[name] = float(value) if name == "time" else int(value)
        except ValueError:
            kind = "a number of seconds" if name == "time" else "a whole number"
            raise TavreiError(_("agent argument {part!r}: {name} must be {kind}")
                                  .format(part=part, name=name, kind=kind)) from None
        if name == "time" and not (out[name] > 0 and out[name] < float("inf")):
            raise TavreiError(_("agent argument {part!r}: time must be positive, got {value}")
                                  .format(part=part, value=value))
    if not set(out) - {"mode"}:
        raise TavreiError(_("agent argument {arg!r}: expected a depth like 2 or depth=2, or a "
                            "time like 0.5s").format(arg=arg))
    return out


#: ``play:...,ending=N``: a node-limited playing agent searches N times its nodes at a
#: move in a won ending (``PlayAgent.choose``); ``ending=1`` is the budget as given.
#: 8 by default: in docs/lab.md's no-split match (200 games, 300 nodes, 300-ply cap)
#: the draws with one side 3+ ratniks ahead fell from 13 of 15 at 1 to 3 of 6.
ENDING_NODES = 8
MAX_ENDING_NODES = 64


class SearchAgent:
    """Base of the agents that search: a ``Searcher`` per rule module, kept across moves.

    The table survives from move to move (positions recur in a game), and a
    new searcher is made when the agent meets another variant.
    """

    name = "search"
    chance_pruning = True

    def __init__(self, seed: int | None = None, depth: int | None = 2,
                 nodes: int | None = None, time: float | None = None,
                 use_table: bool = True, mode: str | None = None,
                 play_options: dict[str, Any] | None = None) -> None:
        from tavrei_lab.engine.search import Limits
        if depth is None and nodes is None and time is None:
            depth = 2
        self.limits = Limits(depth=depth, nodes=nodes, time=time)
        if mode is None:
            mode = "lesson" if nodes is None and time is None else "play"
        if mode not in MODES:
            raise TavreiError(_("search mode must be lesson or play, got {mode!r}")
                                  .format(mode=mode))
        #: "lesson": the exact fixed-depth search; "play": the playing search
        self.mode = mode
        self.play_options = dict(play_options or {})
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

    def searcher(self, rules: RuleModule) -> Any:
        from tavrei_lab.engine.play import PlaySearcher
        from tavrei_lab.engine.search import Searcher
        if self._searcher is None or self._searcher.rules is not rules:
            if self.mode == "play":
                self._searcher = PlaySearcher(rules, seed=self.seed, **self.play_options)
            else:
                self._searcher = Searcher(rules, use_table=self.use_table,
                                          chance_pruning=self.chance_pruning)
        return self._searcher

    def limits_for(self, game: Any) -> Any:
        """The search limits for the move to choose in ``game``: the agent's own."""
        return self.limits

    def choose(self, game: Any) -> Move:
        from tavrei_lab.engine.search import game_history
        _decision_moves(game, texts=False)
        history = game_history(game)
        result = self.searcher(game.rules).search(game.position, self.limits_for(game),
                                                  history)
        self.last = result
        return self.rng.choice(result.best_moves)

    def __repr__(self) -> str:
        lim = self.limits
        parts = [f"{k}={v}" for k, v in (("depth", lim.depth), ("nodes", lim.nodes),
                                          ("time", lim.time)) if v is not None]
        if self.mode == "play":
            parts.append("mode=play")
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
        raise TavreiError(_("agent 'greedy' looks one ply ahead and takes no argument (got "
                            "{arg!r}); use alphabeta:{arg} to search deeper").format(arg=arg))


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


class PlayAgent(SearchAgent):
    """The default playing agent: the playing search (``engine.play``), 1 s a move.

    ``play:0.3s``, ``play:nodes=20000`` and ``play:depth=6`` change the budget;
    the mode is always "play".
    """

    name = "play"
    DEFAULT_TIME = 1.0

    def __init__(self, seed: int | None = None, depth: int | None = None,
                 nodes: int | None = None, time: float | None = None,
                 mode: str | None = None, weights: Any = None, noise: int = 0,
                 contempt: int = 0, ending: int = ENDING_NODES) -> None:
        from tavrei_lab.engine.weights import Weights, load_weights_file
        if isinstance(noise, bool) or not isinstance(noise, int) or not 0 <= noise <= 1000:
            raise TavreiError(_("agent 'play': noise must be 0..1000 centipawns, got {noise!r}")
                              .format(noise=noise))
        if isinstance(contempt, bool) or not isinstance(contempt, int) \
                or not 0 <= contempt <= 1000:
            raise TavreiError(_("agent 'play': contempt must be 0..1000 centipawns, got "
                                "{contempt!r}").format(contempt=contempt))
        if isinstance(ending, bool) or not isinstance(ending, int) \
                or not 1 <= ending <= MAX_ENDING_NODES:
            raise TavreiError(_("agent 'play': ending must be 1..{most} (times the nodes), "
                                "got {ending!r}").format(most=MAX_ENDING_NODES, ending=ending))
        #: centipawns a draw costs the side standing better (``PlaySearcher.contempt``)
        self.contempt = contempt
        #: how many times its node budget the agent spends at a won ending's moves
        self.ending = ending
        #: centipawns of deterministic blur (seeded by the agent's seed, so per game)
        self.noise = noise
        if mode not in (None, "play"):
            raise TavreiError(_("agent 'play' is the playing search; use alphabeta:N for the "
                                "lesson search"))
        if depth is None and nodes is None and time is None:
            time = self.DEFAULT_TIME
        #: what the spec said: None (the default weights), a file, or "fit"
        self.weights_spec: str | None = None
        self.weights: Weights | None = None
        #: the weights file's document (its settings hash), checked against each variant
        self.weights_doc: dict[str, Any] | None = None
        if isinstance(weights, Weights):
            self.weights = weights
        elif weights is not None:
            self.weights_spec = str(weights)
            if self.weights_spec != FIT:                   # fails now, not mid-game
                self.weights, self.weights_doc = load_weights_file(self.weights_spec)
        options: dict[str, Any] = {} if self.weights is None else {"weights": self.weights}
        if noise:
            options["noise"] = noise
        if contempt:
            options["contempt"] = contempt
        super().__init__(seed=seed, depth=depth, nodes=nodes, time=time, mode="play",
                         play_options=options)

    @classmethod
    def from_arg(cls, arg: str, seed: int | None = None) -> PlayAgent:
        rest: list[str] = []
        weights = None
        # the options that take a whole number, each with its own error
        whole = {"noise": _("agent argument {value!r}: noise must be a whole number "
                            "of centipawns"),
                 "contempt": _("agent argument {value!r}: contempt must be a whole "
                               "number of centipawns"),
                 "ending": _("agent argument {value!r}: ending must be a whole "
                             "number (times the nodes)")}
        numbers = {"noise": 0, "contempt": 0, "ending": ENDING_NODES}
        seen: set[str] = set()
        for part in arg.split(","):
            name, eq, value = part.partition("=")
            key = name.strip().lower()
            key = "weights" if key == "w" else key
            if eq and (key == "weights" or key in whole):
                if key in seen:
                    raise TavreiError(_("agent argument {part!r}: {name} is given twice")
                                      .format(part=part.strip(), name=key))
                seen.add(key)
            if eq and key == "weights":
                if not value.strip():
                    raise TavreiError(_("agent argument {value!r}: weights needs a file "
                                        "(weights=W.json) or 'fit'").format(value=part.strip()))
                weights = value.strip()
            elif eq and key in whole:
                try:
                    numbers[key] = int(value)
                except ValueError:
                    raise TavreiError(whole[key].format(value=part.strip())) from None
            else:
                rest.append(part)
        limits = (parse_limits(",".join(rest), also=PLAY_KEYS)
                  if any(p.strip() for p in rest) else {})
        return cls(seed=seed, weights=weights, noise=numbers["noise"],
                   contempt=numbers["contempt"], ending=numbers["ending"], **limits)

    def searcher(self, rules: RuleModule) -> Any:
        if self._searcher is None or self._searcher.rules is not rules:
            if self.weights_spec == FIT:
                from tavrei_lab.engine.weights import fit_weights
                self.play_options["weights"] = fit_weights(rules)
            elif self.weights_doc is not None:
                # a file a tune fit to another variant is refused before its first move
                from tavrei_lab.engine.weights import check_fit_for
                check_fit_for(self.weights_doc, rules,
                              f"weights file {self.weights_spec!r}")
        return super().searcher(rules)

    def limits_for(self, game: Any) -> Any:
        """The agent's limits; a node-limited agent in a won ending (the evaluation's
        conversion gate, ``play_eval.hunter``, is on at the root) searches ``ending``
        times its nodes. Why: there the win is a mate some plies deep, and a 300-node
        search (one to three plies) shuffled won positions to the ply cap; the budget
        still counts nodes, not seconds, so the same seed gives the same game."""
        from tavrei_lab.engine.search import MAX_SEARCH_NODES
        limits = self.limits
        if self.ending > 1 and limits.nodes is not None and not game.is_chance_node():
            tables = self.searcher(game.rules).tables   # the orthodox tables have no gate
            converting = getattr(tables, "converting", None)
            if converting is not None and converting(game.position.board) is not None:
                return replace(limits, nodes=min(MAX_SEARCH_NODES, limits.nodes * self.ending))
        return limits

    def __repr__(self) -> str:
        text = super().__repr__()
        if self.weights_spec is not None:
            text = text[:-1] + f", weights={self.weights_spec})"
        if self.noise:
            text = text[:-1] + f", noise={self.noise})"
        if self.contempt:
            text = text[:-1] + f", contempt={self.contempt})"
        if self.ending != ENDING_NODES:
            text = text[:-1] + f", ending={self.ending})"
        return text


#: ``play:...,weights=fit``: the weights fit for the game's own variant (``fit_weights``).
FIT = "fit"
#: The keys ``play:`` takes besides the search's limits.
PLAY_KEYS = ("weights", "noise", "contempt", "ending")


@dataclass(frozen=True)
class Level:
    """A classroom level: a budget (every level has a time cap) and how blurred it sees."""

    level: int
    time: float
    depth: int | None
    noise: int            # centipawns of deterministic blur on the evaluation
    quiescence: bool
    meaning: str


#: Levels 1-8. Each answers within its ``time`` in every position (the search
#: checks the clock at every node). Each level looks one ply deeper than the one
#: below (a depth cap), as far as its time cap allows: the caps keep the top
#: levels quick where a position is simple (an endgame reaches the cap at once),
#: and the time caps keep every answer short where it is not. The lower levels
#: also see the board blurred, so that they make the mistakes beginners make.
#: In a Tavreli middlegame the playing search completes about four plies in a
#: second and five in a few seconds, so levels 6-8 differ mostly by time.
LEVELS: dict[int, Level] = {lv.level: lv for lv in (
    Level(1, 0.5, 1, 250, False, "looks one move ahead, sees the board blurred: "
                                 "hangs pieces, takes what is offered"),
    Level(2, 0.5, 1, 80, True, "one move ahead and the exchanges it starts; still blurred"),
    Level(3, 0.5, 2, 30, True, "two plies: sees the reply to its move; a little blurred"),
    Level(4, 0.5, 3, 0, True, "three plies (its move, the reply, its next move), "
                              "at most 0.5 s"),
    Level(5, 1.0, 4, 0, True, "four plies, at most 1 s a move"),
    Level(6, 1.5, 5, 0, True, "five plies, at most 1.5 s a move"),
    Level(7, 2.5, 7, 0, True, "up to seven plies, at most 2.5 s a move"),
    Level(8, 4.0, None, 0, True, "as deep as 4 s a move allows (the strongest)"),
)}


@dataclass(frozen=True)
class ChessElo:
    """A level's measured strength in orthodox chess, against Stockfish at a set strength
    (``python -m benchmarks strength``: ``UCI_LimitStrength``, ``UCI_Elo``): Stockfish's
    rating plus the Elo difference the match gave, with its 95 % interval. ``elo`` is None
    when the level lost every game (a clean sweep has no point estimate, only a bound)."""

    elo: int | None
    low: int
    high: int
    games: int
    stockfish_elo: int
    spec: str             # the level as it played: node-capped, so no clock decided a move
    date: str


#: The measured figures: small matches (a shared machine), so wide intervals. Stockfish
#: 15.1 (Debian) at 100 ms a move; the levels node-capped (their depth caps decide
#: levels 1-4; level 8 searched 5000 nodes a move, far fewer than its 4 s cap allows, so
#: at its time cap it plays stronger than this). Levels not listed were not measured.
LEVEL_CHESS_ELO: dict[int, ChessElo] = {
    1: ChessElo(None, 0, 1063, 20, 1350, "level:1,nodes=20000", "2026-12-07"),
    2: ChessElo(1081, 150, 1242, 20, 1350, "level:2,nodes=20000", "2026-12-07"),
    3: ChessElo(1315, 1121, 1488, 20, 1350, "level:3,nodes=20000", "2026-12-07"),
}


def chess_elo_text(level: int) -> str:
    """What a level's help says of its chess strength: the measured Elo, its interval,
    the match's size, opponent, form and date -- or that it was not measured."""
    m = LEVEL_CHESS_ELO.get(level)
    if m is None:
        return _("level {level}: chess Elo not measured").format(level=level)
    if m.elo is None:
        return _("level {level}: chess Elo below {high} ({games} games against Stockfish "
                 "UCI_Elo {stockfish}, all lost; played as {spec}, {date})").format(
            level=level, high=m.high, games=m.games, stockfish=m.stockfish_elo, spec=m.spec,
            date=m.date)
    return _("level {level}: chess Elo about {elo} (95 % interval {low}-{high}, {games} games "
             "against Stockfish UCI_Elo {stockfish}; played as {spec}, {date})").format(
        level=level, elo=m.elo, low=m.low, high=m.high, games=m.games,
        stockfish=m.stockfish_elo, spec=m.spec, date=m.date)


class LevelAgent(SearchAgent):
    """A classroom level 1-8 (``level:3``): see ``LEVELS``; its measured chess Elo:
    ``chess_elo_text``."""

    name = "level"

    def __init__(self, seed: int | None = None, level: int = 3,
                 nodes: int | None = None) -> None:
        if level not in LEVELS:
            raise TavreiError(_("level must be 1 to 8, got {level}").format(level=level))
        if nodes is not None and nodes < 1:
            raise TavreiError(_("level:{level},nodes=N: N must be 1 or more, got {nodes}")
                                  .format(level=level, nodes=nodes))
        lv = LEVELS[level]
        self.level = level
        #: ``level:N,nodes=K``: the node cap *replaces* the time cap, so no clock decides
        #: a move and the same seed gives the same games under any load (the lab's form)
        self.node_cap = nodes
        super().__init__(seed=seed, depth=lv.depth, time=None if nodes else lv.time,
                         nodes=nodes, mode="play",
                         play_options={"noise": lv.noise, "quiescence": lv.quiescence})

    @classmethod
    def from_arg(cls, arg: str, seed: int | None = None) -> LevelAgent:
        head, _comma, rest = arg.partition(",")
        try:
            level = int(head.strip())
        except ValueError:
            raise TavreiError(_("agent 'level' takes a level 1 to 8, like level:3 (got {arg!r})")
                                  .format(arg=arg)) from None
        nodes = None
        if rest.strip():
            limits = parse_limits(rest, default_name="nodes")
            if set(limits) != {"nodes"}:
                raise TavreiError(_("agent 'level:{arg}': a level takes only a node cap, like "
                                    "level:{level},nodes=20000").format(arg=arg, level=level))
            nodes = limits["nodes"]
        return cls(seed=seed, level=level, nodes=nodes)

    def __repr__(self) -> str:
        cap = "" if self.node_cap is None else f", nodes={self.node_cap}"
        return f"LevelAgent(level={self.level}{cap}, seed={self.seed})"


AGENTS: dict[str, Any] = {"random": RandomAgent, "greedy": GreedyAgent,
                          "alphabeta": AlphaBetaAgent, "expectimax": ExpectimaxAgent,
                          "play": PlayAgent, "level": LevelAgent}
#: The playing agent the package recommends as "the computer" (the strength benchmark's).
DEFAULT_PLAYING_AGENT = "play"
#: The fixed yardstick that strengths are stated against (``python -m benchmarks
#: strength``): the default playing agent at a fixed node budget, so no clock and no
#: machine load moves it, and a figure measured today compares with one measured later.
REFERENCE_PLAYER = "play:nodes=2000"
#: The specs a board offers in its player menus: every agent, and each level.
OFFERED: tuple[str, ...] = ("random", "greedy", "alphabeta", "expectimax", "play",
                            *(f"level:{n}" for n in LEVELS))


def split_specs(items: Any) -> list[str]:
    """Agent specs from ``"A1,A2,..."`` (or a list): a part without a name, like
    ``nodes=20000`` or ``weights=W.json``, continues the spec before it, so
    ``"level:1,nodes=20000,greedy"`` is two specs.

    >>> split_specs("level:1,nodes=20000,play:nodes=300,weights=fit,greedy")
    ['level:1,nodes=20000', 'play:nodes=300,weights=fit', 'greedy']
    """
    if isinstance(items, str):
        items = items.split(",")
    out: list[str] = []
    for item in items:
        part = item.strip() if isinstance(item, str) else item
        if not part:
            continue
        if out and isinstance(part, str) and ":" not in part and "=" in part:
            out[-1] += "," + part
        else:
            out.append(part)
    return out


def make_agent(spec: str, seed: int | None = None) -> Agent:
    """An agent from a spec like ``"random"`` or ``"alphabeta:2"`` (name:argument).

    >>> make_agent("alphabeta:3", seed=1)
    AlphaBetaAgent(depth=3, seed=1)
    """
    if not isinstance(spec, str):
        raise TavreiError(_("an agent spec must be text like 'alphabeta:2', got {spec!r}")
                              .format(spec=spec))
    name, _colon, arg = spec.strip().partition(":")
    cls = AGENTS.get(name.strip().lower())
    if cls is None:
        raise TavreiError(_("unknown agent {spec!r}; known: {names}")
                              .format(spec=spec, names=", ".join(sorted(AGENTS))))
    if arg:
        factory = getattr(cls, "from_arg", None)
        if factory is None:
            raise TavreiError(_("agent {name!r} takes no argument (got {arg!r})")
                                  .format(name=name, arg=arg))
        return factory(arg, seed=seed)
    if cls is LevelAgent:
        raise TavreiError(_("agent 'level' needs a level 1 to 8, like level:3"))
    return cls(seed=seed)
