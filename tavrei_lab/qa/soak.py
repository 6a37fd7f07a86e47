"""Self-play soak: thousands of seeded games, every invariant checked after every step.

Perft proves the move generator on the positions someone thought of; a soak
walks into the ones nobody did -- the twelfth tavrel on a tower, a promoted
ratnik carried off its far rank, a die pass after an en passant double step
-- and checks after **every** move and roll that nothing the rules promise has
broken:

``tavrels``
    The number of tavrels of each colour never changes: in Tavreli nothing
    leaves the board. Where captures remove pieces (``prisoners = false``,
    orthodox chess) it may only go down.
``volkhv``
    Nothing stands on a volkhv. The only exception is a king taken prisoner
    in a king-capture game -- and then the game must be over.
``promoted``
    A promoted ratnik is always the top of its tower, where placing any unit
    on it demotes it (``demote_by = "any"``; under ``"enemy"`` an own unit may
    cover it, so the check is off there).
``push-pop``
    ``pop`` after ``push`` gives back the exact position string, and ``redo``
    gives back the exact position after.
``string``
    The position string of every position reads back to the same position.
``hash``
    The Zobrist hash updated move by move (``zobrist.update_hash``) equals the
    hash computed from scratch (``zobrist.zobrist_hash``).
``record``
    At the end of each game its record reads back to the same game, move for
    move and roll for roll.

The long run is one command::

    tavrei-lab soak --games 2000 --seed 1
    python -m tavrei_lab soak --games 2000 --seed 1      # the same

Games cycle through every shipped variant and through the agent pairings
random-random, greedy-random, random-greedy (greedy looks one ply ahead, so
its games reach the positions strong play reaches: more captures, tall towers).
The run is reproducible: game ``i`` uses seed ``seed * 1_000_003 + i``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tavrei_lab.core.move import Move, Roll
from tavrei_lab.core.position import Position
from tavrei_lab.core.tavrel import COLOR_BIT, KIND_OF, KING, PROMOTED
from tavrei_lab.engine.agents import make_agent
from tavrei_lab.engine.selfplay import GameLimits, Watch, play_out
from tavrei_lab.engine.zobrist import update_hash, zobrist_hash
from tavrei_lab.errors import LimitError, TavreiError
from tavrei_lab.game import Game
from tavrei_lab.i18n import gettext as _
from tavrei_lab.notation.position_string import read_position
from tavrei_lab.notation.record import MAX_GAME_PLIES
from tavrei_lab.rules.base import RuleModule
from tavrei_lab.variant import load_variant
from tavrei_lab.variant import variants as shipped

#: The default pairings (white, black): both random, and greedy against random each way.
PAIRINGS: tuple[tuple[str, str], ...] = (("random", "random"), ("greedy", "random"),
                                         ("random", "greedy"))
#: A game still going after this many moves is stopped (and counted as "max-plies").
DEFAULT_MAX_PLIES = 200
#: Most games one soak may be asked for (about a day at a few hundred plies/s).
MAX_SOAK_GAMES = 1_000_000
#: Longest --time-limit, in seconds (a week).
MAX_SOAK_SECONDS = 7 * 24 * 3600


@dataclass(frozen=True)
class Violation:
    """One broken invariant, with what it takes to reproduce it."""

    invariant: str
    variant: str
    game: int
    seed: int
    ply: int
    detail: str
    position: str

    def __str__(self) -> str:
        return _("[{invariant}] {variant} game {game} (seed {seed}) after action {ply}: "
                 "{detail} -- {position}").format(
            invariant=self.invariant, variant=self.variant, game=self.game, seed=self.seed,
            ply=self.ply, detail=self.detail, position=self.position)


@dataclass
class SoakReport:
    """What a soak did and found."""

    games: int = 0
    plies: int = 0
    rolls: int = 0
    checks: int = 0
    seconds: float = 0.0
    per_variant: Counter[str] = field(default_factory=Counter)
    plies_per_variant: Counter[str] = field(default_factory=Counter)
    endings: Counter[str] = field(default_factory=Counter)
    tallest_tower: int = 0
    violations: list[Violation] = field(default_factory=list)

    def summary(self) -> str:
        """The run in a few lines, in the language in force (variant ids and the endings'
        own names, which a program reads, stay as written)."""
        lines = [_("soak: {games} games, {plies} plies, {rolls} rolls, {checks} invariant "
                   "checks in {seconds:.1f} s ({rate:.0f} plies/s); tallest tower {tallest}; "
                   "violations: {violations}").format(
            games=self.games, plies=self.plies, rolls=self.rolls, checks=self.checks,
            seconds=self.seconds, rate=self.plies / max(self.seconds, 1e-9),
            tallest=self.tallest_tower, violations=len(self.violations))]
        for vid in sorted(self.per_variant):
            lines.append(_("  {variant}: {games} games, {plies} plies").format(
                variant=vid, games=self.per_variant[vid], plies=self.plies_per_variant[vid]))
        lines.append(_("  endings: {endings}").format(endings=", ".join(
            f"{k} {v}" for k, v in sorted(self.endings.items()))))
        for v in self.violations[:20]:
            lines.append(_("  VIOLATION {violation}").format(violation=v))
        return "\n".join(lines)

    def as_dict(self) -> dict[str, Any]:
        return {"games": self.games, "plies": self.plies, "rolls": self.rolls,
                "checks": self.checks, "seconds": round(self.seconds, 2),
                "per_variant": dict(self.per_variant),
                "plies_per_variant": dict(self.plies_per_variant),
                "endings": dict(self.endings), "tallest_tower": self.tallest_tower,
                "violations": [str(v) for v in self.violations]}


# -- the invariants ----------------------------------------------------------------------

def tavrel_counts(position: Position) -> tuple[int, int]:
    """(white, black) tavrels on the board, prisoners included."""
    white = black = 0
    for tower in position.board:
        for t in tower:
            if t & COLOR_BIT:
                black += 1
            else:
                white += 1
    return white, black


def position_problems(rules: RuleModule, before: Position | None, after: Position,
                      game_over: bool) -> list[tuple[str, str]]:
    """The invariants a single step from ``before`` to ``after`` must keep: (name, detail).

    ``before`` is None for the start position (only the position's own
    invariants are checked then).
    """
    problems = []
    options = rules.options
    names = after.geometry.names
    if before is not None:
        was, now = tavrel_counts(before), tavrel_counts(after)
        if rules.prisoners:
            if was != now:
                problems.append(("tavrels", f"tavrels (white, black) {was} -> {now}"))
        elif now[0] > was[0] or now[1] > was[1]:
            problems.append(("tavrels", f"tavrels (white, black) went up: {was} -> {now}"))
    king_capture = rules.king_capture
    # a tower-family rule, checked where the family's option says it holds
    demote_any = options.get("demote_by", "any") == "any"
    for square, tower in enumerate(after.board):
        for height, t in enumerate(tower[:-1]):
            if KIND_OF[t] == KING and not (king_capture and game_over):
                problems.append(("volkhv", f"a tavrel stands on the volkhv on {names[square]} "
                                 f"(height {height + 1} of {len(tower)})"
                                 + (" and the game goes on" if king_capture else "")))
            if t & PROMOTED and demote_any:
                problems.append(("promoted", f"a promoted tavrel is covered on {names[square]} "
                                 f"(height {height + 1} of {len(tower)})"))
    return problems


class _Checker(Watch):
    """Checks every step of one game as ``play_out`` plays it, and collects violations."""

    lists_moves = False

    def __init__(self, report: SoakReport, variant: str, index: int, seed: int,
                 start_hash: int) -> None:
        self.report = report
        self.variant = variant
        self.index = index
        self.seed = seed
        self.hash = start_hash        # the hash updated move by move

    def fail(self, game: Game, invariant: str, detail: str) -> None:
        self.report.violations.append(Violation(
            invariant, self.variant, self.index, self.seed, len(game.history), detail,
            game.position.string))

    def moved(self, game: Game, before: Position, move: Move) -> None:
        self.check(game, before, move)
        self.report.plies += 1

    def rolled(self, game: Game, before: Position, face: str) -> None:
        self.check(game, before, Roll(face))
        self.report.rolls += 1

    def check(self, game: Game, before: Position, action: Move | Roll) -> None:
        """Everything that must hold after ``action`` was played from ``before``."""
        rules = game.rules
        before_string = before.string
        after = game.position
        after_string = after.string
        report = self.report
        # push/pop and redo round-trip the position exactly
        game.pop()
        if game.position.string != before_string:
            self.fail(game, "push-pop", f"pop after {action} gave {game.position.string}, "
                      f"expected {before_string}")
        game.redo()
        if game.position.string != after_string:
            self.fail(game, "push-pop", f"redo of {action} gave {game.position.string}, "
                      f"expected {after_string}")
        # the position string reads back to the same position
        again = read_position(after_string, rules, validate=False)
        if again != after or again.string != after_string:
            self.fail(game, "string", f"{after_string} read back as {again.string}")
        # the incremental hash agrees with the hash from scratch
        incremental = update_hash(self.hash, before, action, after)
        scratch = zobrist_hash(after)
        if incremental != scratch:
            self.fail(game, "hash", f"after {action}: incremental {incremental:#018x} != "
                      f"from scratch {scratch:#018x}")
        over = game.outcome() is not None
        for name, detail in position_problems(rules, before, after, over):
            self.fail(game, name, f"after {action}: {detail}")
        report.checks += 6
        tallest = max((len(t) for t in after.board), default=0)
        report.tallest_tower = max(report.tallest_tower, tallest)
        self.hash = scratch


def soak_game(variant: str, agents: tuple[str, str], seed: int, index: int,
              report: SoakReport, max_plies: int = DEFAULT_MAX_PLIES,
              deadline: float | None = None) -> Game:
    """Play one seeded game, checking every step; records what it saw in ``report``.

    The game is played by ``engine.selfplay.play_out`` under the one adjudication
    policy (docs/adjudication.md): it ends by the rules, at the cap of ``max_plies``
    moves (``max-plies``), or at ``deadline`` (a ``time.monotonic()`` value:
    ``time-limit``); its record says which.
    """
    game = Game(variant, seed=seed)
    players = (make_agent(agents[0], seed=seed), make_agent(agents[1], seed=seed + 1))
    checker = _Checker(report, variant, index, seed, zobrist_hash(game.position))
    # a start that is already over (a variant set up with its volkhv taken) breaks nothing
    over = game.outcome() is not None
    for name, detail in position_problems(game.rules, None, game.position, over):
        checker.fail(game, name, f"at the start: {detail}")
    end = play_out(game, players, GameLimits(max_plies=max_plies, deadline=deadline), checker)
    # the record reads back to the same game, roll for roll
    try:
        again = Game.from_record(game.record(**end.tags()))
        if [p.string for p in again.positions] != [p.string for p in game.positions]:
            checker.fail(game, "record", "the record read back to a different game")
    except Exception as exc:  # noqa: BLE001 -- any failure here is the finding
        checker.fail(game, "record", f"the record did not read back: {exc!r}")
    report.games += 1
    report.per_variant[variant] += 1
    report.plies_per_variant[variant] += game.ply
    report.endings[end.reason] += 1
    return game


def run_soak(games: int, seed: int = 1, variants: Sequence[str] | None = None,
             pairings: Sequence[tuple[str, str]] = PAIRINGS,
             max_plies: int = DEFAULT_MAX_PLIES,
             progress: Callable[[SoakReport], None] | None = None,
             time_limit: float | None = None) -> SoakReport:
    """Play ``games`` games cycling through ``variants`` (default: every shipped one)
    and ``pairings``; stop early after ``time_limit`` seconds if given."""
    ids = list(variants) if variants else shipped()
    report = SoakReport()
    start = time.perf_counter()
    # checked inside each game too, after every move and roll: one game may be long
    deadline = None if time_limit is None else time.monotonic() + time_limit
    for i in range(games):
        variant = ids[i % len(ids)]
        agents = pairings[(i // len(ids)) % len(pairings)]
        game_seed = seed * 1_000_003 + i
        soak_game(variant, agents, game_seed, i, report, max_plies, deadline)
        report.seconds = time.perf_counter() - start
        if progress is not None:
            progress(report)
        if deadline is not None and time.monotonic() > deadline:
            break
    report.seconds = time.perf_counter() - start
    return report


# -- the command ---------------------------------------------------------------------------

def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--games", type=int, default=200, metavar="N",
                   help=_("games to play (default 200; the long soak is 2000)"))
    p.add_argument("--seed", type=int, default=1, help=_("run seed (default 1)"))
    p.add_argument("--variants", default="", metavar="V1,V2,...",
                   help=_("variant ids, comma-separated (default: every shipped variant)"))
    p.add_argument("--agents", default="", metavar="W-B,W-B,...",
                   help=_("pairings such as random-random,greedy-random (default: {pairings})")
                            .format(pairings=",".join(f"{w}-{b}" for w, b in PAIRINGS)))
    p.add_argument("--max-plies", type=int, default=DEFAULT_MAX_PLIES, metavar="N",
                   help=_("stop a game after N moves (default {default_max_plies})")
                            .format(default_max_plies=DEFAULT_MAX_PLIES))
    p.add_argument("--time-limit", type=float, default=None, metavar="SECONDS",
                   help=_("stop after this many seconds (the figures say how far it got)"))
    p.add_argument("--json", action="store_true", help=_("print the figures as one JSON object"))
    from tavrei_lab.core.progress import add_progress_flags
    add_progress_flags(p)   # into a log: a line every 100 games with --progress


def run_from_args(args: argparse.Namespace) -> int:
    """Exit status 0 when no invariant broke, 1 when one did (2 for bad arguments)."""
    if not 0 <= args.games <= MAX_SOAK_GAMES:
        raise LimitError(_("--games must be 0..{max_soak_games}, got {games}")
                             .format(max_soak_games=MAX_SOAK_GAMES, games=args.games))
    if not 0 <= args.max_plies <= MAX_GAME_PLIES:
        raise LimitError(_("--max-plies must be 0..{max_game_plies}, got {max_plies}")
                             .format(max_game_plies=MAX_GAME_PLIES, max_plies=args.max_plies))
    if args.time_limit is not None and not 0 < args.time_limit <= MAX_SOAK_SECONDS:
        raise LimitError(_("--time-limit must be more than 0 and at most {max_soak_seconds} "
                           "seconds, got {time_limit}")
                             .format(max_soak_seconds=MAX_SOAK_SECONDS, time_limit=args.time_limit))
    ids = [v.strip() for v in args.variants.split(",") if v.strip()]
    for vid in ids:
        load_variant(vid)  # a clear error now rather than after an hour
    pairings: list[tuple[str, str]] = []
    for spec in (s.strip() for s in args.agents.split(",") if s.strip()):
        white, sep, black = spec.partition("-")
        if not sep:
            raise TavreiError(_("--agents: {spec!r} is not a pairing like random-greedy")
                                  .format(spec=spec))
        make_agent(white)
        make_agent(black)
        pairings.append((white, black))

    from tavrei_lab.core.progress import wants_progress_lines
    lines = wants_progress_lines(args)

    def progress(report: SoakReport) -> None:
        if lines and report.games % 100 == 0:
            print(_("  {games} games, {plies} plies, {seconds:.0f} s, {count} violations")
                      .format(games=report.games, plies=report.plies, seconds=report.seconds,
                              count=len(report.violations)), file=sys.stderr, flush=True)

    report = run_soak(args.games, args.seed, ids or None, pairings or PAIRINGS,
                      args.max_plies, progress, args.time_limit)
    if args.json:
        print(json.dumps(report.as_dict()))
    else:
        print(report.summary())
    return 1 if report.violations else 0
