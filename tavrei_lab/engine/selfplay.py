"""Playing a game to its end: one loop and one adjudication policy for every caller.

Tournaments and sweeps (``lab.runner.play_game``), tunes
(``lab.tune.play_tune_game``), the soak (``qa.soak.soak_game``) and
``tavrei-lab play`` all play their games through ``play_out``; the board's
computer player takes its turns through ``play_step``, which checks the same
policy before each action. The policy (docs/adjudication.md), checked before
every action, in this order:

1. **the rules**: ``game.outcome(claim_draw=True)`` -- checkmate, stalemate,
   king capture (die games), and the claimable draws taken as automatic
   (threefold repetition, the fifty-move rule, A9.4). The result is the rules'.
2. **the cap**: ``limits.max_plies`` moves played, or ``action_cap(max_plies)``
   actions (moves and die rolls: in a die game a run of passes makes no moves,
   and it must end too). The game is **adjudicated a draw**, ``1/2-1/2``, with
   the reason ``max-plies``: scored as a draw everywhere, and always named, so
   a reader can count or leave out the capped games.
3. **the clock**: ``limits.deadline`` (a ``time.monotonic()`` value) passed:
   the game is stopped unfinished, ``*``, reason ``time-limit``.

A player may end the game itself by returning a ``GameEnd`` from ``choose``
instead of a move (a person who resigns, or stops typing: ``resign`` and
``abandon`` make them).

The result object says the result *and* why (``GameEnd.reason``), and
``GameEnd.tags()`` gives the ``Result`` and ``Termination`` tags every record
the package writes carries; ``recorded_end`` reads them back, old records'
spellings too.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from tavrei_lab.core.move import Move, Roll
from tavrei_lab.core.tavrel import Color
from tavrei_lab.errors import LimitError, TavreiError
from tavrei_lab.game import Game
from tavrei_lab.i18n import gettext as _

# -- why a game ended: the names records, stores and tables use -----------------------
CHECKMATE = "checkmate"
STALEMATE = "stalemate"
REPETITION = "threefold-repetition"
FIFTY_MOVES = "fifty-move-rule"
KING_CAPTURE = "king-capture"
#: the cap: adjudicated a draw (the lab's tables' ``end_max-plies`` column)
MAX_PLIES = "max-plies"
#: the caller's clock ran out: the game is left unfinished
TIME_LIMIT = "time-limit"
RESIGNATION = "resignation"
ABANDONED = "abandoned"
#: The endings the rules themselves give (``RuleModule.outcome``).
RULE_REASONS = (CHECKMATE, STALEMATE, REPETITION, FIFTY_MOVES, KING_CAPTURE)
#: Every reason ``play_out`` gives, the rules' first.
REASONS = (*RULE_REASONS, MAX_PLIES, TIME_LIMIT, RESIGNATION, ABANDONED)
#: Spellings of the cap in records and files written before there was one policy:
#: ``play``'s ``Termination "adjudication"`` and a tune checkpoint's ``ply-cap``.
OLD_SPELLINGS = {"adjudication": MAX_PLIES, "ply-cap": MAX_PLIES}

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")

#: The ply cap of the games the lab and the tournaments play unless told otherwise
#: (``lab.runner``, ``lab.sweep``, ``lab.tune``; written here only). Measured at
#: the default budgets (docs/adjudication.md, "How high the cap is"): no game of the
#: shipped variants reached it.
DEFAULT_MAX_PLIES = 300


def action_cap(max_plies: int) -> int:
    """Most actions (moves and die rolls) a game capped at ``max_plies`` moves plays:
    a die game whose rolls keep passing makes no moves, and it has to end as well.
    Four actions a ply leaves room for every roll and pass a real game makes."""
    return 4 * max_plies + 16


@dataclass(frozen=True)
class GameLimits:
    """Where a game is stopped when the rules have not ended it.

    ``max_plies``: moves before the game is adjudicated a draw (None: never, as in
    a game a person plays on the board); ``deadline``: a ``time.monotonic()`` value
    after which the game is stopped unfinished (None: no clock).
    """

    max_plies: int | None = None
    deadline: float | None = None

    def __post_init__(self) -> None:
        if self.max_plies is not None and (type(self.max_plies) is not int
                                           or self.max_plies < 0):
            raise LimitError(_("max_plies must be a whole number 0 or more, got {value}")
                                 .format(value=repr(self.max_plies)))

    @property
    def max_actions(self) -> int | None:
        """The cap on moves and rolls together (``action_cap``), None without a cap."""
        return None if self.max_plies is None else action_cap(self.max_plies)


@dataclass(frozen=True)
class GameEnd:
    """How a game ended: its result (``1-0``, ``0-1``, ``1/2-1/2``, ``*``) and why.

    ``reason`` is one of ``REASONS``; ``winner`` is 0 (white), 1 (black) or None;
    ``plies`` and ``actions`` say where it stopped.
    """

    reason: str
    result: str
    winner: Color | None = None
    plies: int = 0
    actions: int = 0

    @property
    def adjudicated(self) -> bool:
        """Stopped at the cap and scored as a draw: no ending of the rules."""
        return self.reason == MAX_PLIES

    @property
    def by_rules(self) -> bool:
        """Ended by the rules (mate, stalemate, king capture, an automatic draw)."""
        return self.reason in RULE_REASONS

    @property
    def finished(self) -> bool:
        """Has a result (``*``: stopped by a clock, or abandoned, has none)."""
        return self.result != "*"

    def termination(self) -> str:
        """The ``Termination`` tag's value: the reason, and for the cap how long the
        game was (``max-plies (adjudicated draw after 300 plies)``); its first word is
        always the reason."""
        if self.adjudicated:
            return f"{MAX_PLIES} (adjudicated draw after {self.plies} plies)"
        return self.reason

    def tags(self) -> dict[str, str]:
        """The record tags that say how the game ended."""
        return {"Result": self.result, "Termination": self.termination()}


def rules_end(game: Game, outcome: Any) -> GameEnd:
    """The ``GameEnd`` of a rules' ``Outcome`` reached in ``game``."""
    return GameEnd(outcome.termination, outcome.result(), outcome.winner, game.ply,
                   game.action_count)


def capped(game: Game) -> GameEnd:
    """The cap's ending: an adjudicated draw where ``game`` stands."""
    return GameEnd(MAX_PLIES, "1/2-1/2", None, game.ply, game.action_count)


def resign(game: Game) -> GameEnd:
    """The side to move resigns: the other side wins."""
    winner: Color = 1 if game.position.turn == 0 else 0
    return GameEnd(RESIGNATION, "0-1" if winner else "1-0", winner, game.ply,
                   game.action_count)


def abandon(game: Game) -> GameEnd:
    """The side to move stops playing: the game is left unfinished."""
    return GameEnd(ABANDONED, "*", None, game.ply, game.action_count)


def adjudicate(game: Game, limits: GameLimits, *, claim_draw: bool = True) -> GameEnd | None:
    """The policy's answer before the next action: the game's end, or None to go on.

    ``claim_draw``: take the claimable draws (repetition, fifty moves) as the end, as
    self-play does; a board where a person is to move passes False, so the person
    may play on or claim.
    """
    outcome = game.outcome(claim_draw=claim_draw)
    if outcome is not None:
        return rules_end(game, outcome)
    cap = limits.max_plies
    if cap is not None and (game.ply >= cap or game.action_count >= action_cap(cap)):
        return capped(game)
    if limits.deadline is not None and time.monotonic() > limits.deadline:
        return GameEnd(TIME_LIMIT, "*", None, game.ply, game.action_count)
    return None


class Player(Protocol):
    """Anything that picks the move of the side to move: every engine agent, or a
    person, who may end the game instead (``resign``, ``abandon``)."""

    def choose(self, game: Any) -> Move | GameEnd: ...


class Watch:
    """Told about each step of a game ``play_out`` plays; override what you need.

    ``lists_moves``: ask the rules for the legal moves at each decision (given to
    ``decision``); a watch that does not read them says False and saves the work.
    """

    lists_moves = True

    def decision(self, game: Game, moves: Sequence[Move]) -> None:
        """Before the player of a decision node chooses; ``moves``: the rules' list."""

    def moved(self, game: Game, before: Any, move: Move) -> None:
        """After ``move`` was played from the position ``before``."""

    def rolled(self, game: Game, before: Any, face: str) -> None:
        """After the die showed ``face`` in the position ``before``."""


def play_step(game: Game, players: Sequence[Player | None], limits: GameLimits,
              watch: Watch | None = None, *, claim_draw: bool = True) -> GameEnd | Move | Roll:
    """One action of the game under the policy: its end if it is over (nothing is
    played), else the die's roll at a chance node (the game's own seeded generator),
    else the move ``players[side to move]`` chooses, played. A player that returns a
    ``GameEnd`` ends the game there. ``players[c]`` None: that side is nobody's to
    play here (a person at a board) -- asked for a move, it is refused.
    """
    end = adjudicate(game, limits, claim_draw=claim_draw)
    if end is not None:
        return end
    before = game.position
    if game.is_chance_node():
        face = game.roll()
        if watch is not None:
            watch.rolled(game, before, face)
        return Roll(face)
    player = players[before.turn]
    if player is None:
        raise TavreiError((_("no player for white at ply {ply}") if before.turn == 0
                           else _("no player for black at ply {ply}")).format(ply=game.ply + 1))
    if watch is not None and watch.lists_moves:
        moves = game.rules.legal_moves(before)
        if not moves:     # a rule module whose outcome missed the end: say so
            raise TavreiError(_("{variant}: no legal move but no outcome at ply {ply} ({string})")
                                  .format(variant=game.variant.id, ply=game.ply,
                                          string=before.string))
        watch.decision(game, moves)
    choice = player.choose(game)
    if isinstance(choice, GameEnd):
        return choice
    played = game.push(choice)
    if watch is not None:
        watch.moved(game, before, played)
    return played


def play_out(game: Game, players: Sequence[Player | None], limits: GameLimits,
             watch: Watch | None = None) -> GameEnd:
    """Play ``game`` to its end under the policy (see the module notes) and say how it
    ended. ``players``: white's and black's (``choose(game)``); ``watch``: told of
    every decision, move and roll.

    >>> from tavrei_lab.engine.agents import make_agent
    >>> game = Game("orthodox", seed=1)
    >>> end = play_out(game, [make_agent("random", seed=1), make_agent("random", seed=2)],
    ...                GameLimits(max_plies=6))
    >>> end.result, end.reason, end.plies
    ('1/2-1/2', 'max-plies', 6)
    """
    while True:
        step = play_step(game, players, limits, watch)
        if isinstance(step, GameEnd):
            return step


def recorded_end(game: Game) -> GameEnd | None:
    """How a game read from a record ended, from its ``Result`` and ``Termination``
    tags, old records' spellings too (``play``'s ``Termination "adjudication"``
    with ``Result "*"``: the cap); a record with no ``Termination`` tag ends as its
    last position does by the rules, if it does. None: no ending is recorded and the
    rules give none (a game not played to its end).
    """
    tags = game.tags
    text = tags.get("Termination", "").strip()
    result = tags.get("Result", "*")
    if result not in RESULTS:
        result = "*"
    if not text:
        outcome = game.outcome(claim_draw=True)
        return None if outcome is None else rules_end(game, outcome)
    word = text.split()[0]
    reason = OLD_SPELLINGS.get(word, word)
    winner: Color | None = 0 if result == "1-0" else 1 if result == "0-1" else None
    return GameEnd(reason, result, winner, game.ply, game.action_count)


__all__ = ["ABANDONED", "CHECKMATE", "DEFAULT_MAX_PLIES", "FIFTY_MOVES", "KING_CAPTURE",
           "MAX_PLIES", "OLD_SPELLINGS", "REASONS", "REPETITION", "RESIGNATION", "RULE_REASONS",
           "STALEMATE", "TIME_LIMIT", "GameEnd", "GameLimits", "Player", "Watch",
           "abandon", "action_cap", "adjudicate", "capped", "play_out", "play_step",
           "recorded_end", "resign", "rules_end"]
