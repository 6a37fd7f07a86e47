"""``tavrei-lab play``: play a whole game between agents (or against a person) and record it.

::

    tavrei-lab play --variant gavrilov-die --seed 7 --agent random --out game.txt
    tavrei-lab play --variant gavrilov-die --white random --black random
    tavrei-lab play --variant gavrilov-die --human white        # you play white in the terminal
    tavrei-lab play --variant gavrilov-die --human roll         # the colour roll (B3) decides

Everything random comes from ``--seed``: the die is rolled with the game's own
generator (``Game(seed=N)``, stored in the record's ``Seed`` tag) and each
agent gets a seed derived from it, so the same seed writes the same record
byte for byte. When no seed is given one is drawn and recorded, so any game
can be replayed.

Every game ends, under the one adjudication policy of every game the package
plays (``engine.selfplay``, docs/adjudication.md): the claimable draws
(threefold repetition, fifty moves) are taken automatically, as engines and
self-play do (A9.4) -- a repetition counts only positions brought about by
moves, not by die passes (see ``move_repetitions``) -- and a game still running
after ``--max-plies`` plies (or four times as many moves and rolls) is
adjudicated a draw: ``Result "1/2-1/2"``, ``Termination "max-plies (adjudicated
draw after N plies)"`` and a closing comment saying why.
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any, TextIO

from tavrei_lab.cli.common import TypedLines, add_variant, check_out, os_reason, write_output
from tavrei_lab.core import speech
from tavrei_lab.core.move import Move
from tavrei_lab.engine.agents import AGENTS, LEVELS, chess_elo_text, make_agent
from tavrei_lab.engine.selfplay import GameEnd, GameLimits, Watch, abandon, play_out, resign
from tavrei_lab.errors import (
    IllegalMoveError,
    LimitError,
    NotationError,
    OutputError,
    TavreiError,
)
from tavrei_lab.game import Game
from tavrei_lab.i18n import gettext as _
from tavrei_lab.i18n import ngettext
from tavrei_lab.notation.moves import MAX_MOVE_CHARS
from tavrei_lab.notation.record import MAX_GAME_PLIES

#: Plies after which an unfinished game is adjudicated a draw.
DEFAULT_MAX_PLIES = 400
HUMAN = "human"


#: What a person may type at the move prompt instead of a move: the English words and
#: the Russian ones the Russian prompt names (a move is never one of these words).
LIST_WORDS = ("moves", "?", "help", "ходы", "помощь")
RESIGN_WORDS = ("resign", "quit", "сдаюсь", "сдаться", "выход")

def register(sub: argparse._SubParsersAction) -> None:
    levels = "\n".join("  " + chess_elo_text(n) for n in LEVELS)
    p = sub.add_parser("play", help=_("play a game between agents (or against you) and write "
                                      "its record"),
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       epilog=_("The classroom levels' strength in orthodox chess, measured "
                                "against Stockfish (python -m benchmarks strength):")
                       + "\n" + levels)
    add_variant(p)
    p.add_argument("--seed", type=int, default=None,
                   help=_("random seed for the die and the agents (default: drawn and recorded)"))
    p.add_argument("--agent", default="random", metavar="SPEC",
                   help=_("agent for both sides unless --white/--black say otherwise (known: "
                          "{known}; e.g. alphabeta:3, alphabeta:0.5s, level:3)")
                            .format(known=", ".join(sorted(AGENTS))))
    p.add_argument("--white", default=None, metavar="SPEC", help=_("agent playing white"))
    p.add_argument("--black", default=None, metavar="SPEC", help=_("agent playing black"))
    p.add_argument("--human", choices=("white", "black", "roll"), default=None,
                   help=_("play one side yourself, typing moves; 'roll': the colour roll of the "
                          "die decides which (die variants)"))
    p.add_argument("--max-plies", type=int, default=DEFAULT_MAX_PLIES, metavar="N",
                   help=_("adjudicate as a draw after N plies (default: {default_max_plies})")
                            .format(default_max_plies=DEFAULT_MAX_PLIES))
    p.add_argument("--out", default=None, metavar="FILE",
                   help=_("write the record here (default: standard output)"))
    p.set_defaults(run=run)


def _agent_seed(seed: int, color: int) -> int:
    """Each side's agent seed, derived from the game seed (never the die's stream)."""
    return seed * 2 + 1 + color


def turns(game: Game) -> int:
    """Turns played: in a die game each turn starts with one roll; otherwise one move."""
    rolls = game.action_count - game.ply      # O(1): a long game stays linear
    return rolls if rolls else game.ply


def length_text(game: Game) -> str:
    """How long a game is, in the words ``replay`` uses too: plies (moves), and in die
    games the die rolls (one per turn; a turn whose roll allows no move is a pass)."""
    rolls = game.action_count - game.ply
    return (_("plies: {plies}").format(plies=game.ply)
            + (_(", die rolls: {rolls}").format(rolls=rolls) if rolls else ""))


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.max_plies <= MAX_GAME_PLIES:   # its record must stay readable
        raise LimitError(_("--max-plies must be 1..{max_game_plies}, got {max_plies}")
                             .format(max_game_plies=MAX_GAME_PLIES, max_plies=args.max_plies))
    check_out(args.out, folder=False)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    game = Game(args.variant or "tavreli", seed=seed)
    specs = [args.white or args.agent, args.black or args.agent]
    human_side = _human_side(args.human, game, sys.stdout)
    if human_side is not None:
        specs[human_side] = HUMAN
    agents: list[Any] = [None if s == HUMAN else make_agent(s, seed=_agent_seed(seed, c))
                         for c, s in enumerate(specs)]
    typed = TypedLines(sys.stdin)
    tags = play_game(game, agents, args.max_plies, stdin=typed, stdout=sys.stdout)
    tags.update({"Event": "tavrei-lab play", "White": specs[0], "Black": specs[1]})
    record = game.record(**tags)
    if args.out:
        _write_or_show(args.out, record)
        print(_("{result} ({termination}); {length}; record written to {file}").format(
            result=tags["Result"],
            termination=speech.ending_name(tags["Termination"].split(" ", 1)[0]),
            length=length_text(game),
            file=args.out))
    else:
        write_output("-", record)
    if typed.failed:       # the record keeps the moves made; the input itself was wrong
        if args.out:
            raise TavreiError(_("standard input: {why}, not moves (the game is left unfinished "
                                "after {plies} plies; record written to {file})").format(
                why=typed.ended, plies=game.ply, file=args.out))
        raise TavreiError(_("standard input: {why}, not moves (the game is left unfinished "
                            "after {plies} plies)").format(why=typed.ended, plies=game.ply))
    return 0


def _write_or_show(out: str, record: str) -> None:
    """Write the record to ``out``; if that fails after all (a disk that filled up during
    the game), print it on standard output and say so: a game a person typed move by
    move is not lost to a failed write (it was, ``'d1': Is a directory`` and no record)."""
    try:
        write_output(out, record)
    except OSError as exc:
        write_output("-", record)
        raise OutputError(_("{reason}; the record is printed on standard output instead")
                              .format(reason=os_reason(exc))) from None


def _human_side(choice: str | None, game: Game, out: TextIO) -> int | None:
    if choice is None:
        return None
    if choice != "roll":
        return 0 if choice == "white" else 1
    result = game.rules.colour_roll(game.rng)
    if result is None:
        raise TavreiError(_("--human roll needs a die variant; {id} has no die")
                              .format(id=game.variant.id))
    for mine, theirs in result.rolls:
        out.write(_("colour roll: you @{mine}, the agent @{theirs}").format(
            mine=mine, theirs=theirs) + "\n")
    side = 0 if result.white == 0 else 1
    out.write((_("you play white") if side == 0 else _("you play black")) + "\n")
    return side


class _Person:
    """The side a person plays at the terminal: each move typed, refusals explained;
    typing ``resign`` or closing the input ends the game (``GameEnd``)."""

    def __init__(self, typed: TypedLines, out: TextIO) -> None:
        self.typed = typed
        self.out = out

    def choose(self, game: Game) -> Move | GameEnd:
        return _ask_human(game, self.typed, self.out)


class _Commentary(Watch):
    """Says each roll and each agent's move aloud, for the person playing (``agents[c]``
    None: the person's side, whose own moves are not said back)."""

    lists_moves = False

    def __init__(self, out: TextIO, agents: list[Any]) -> None:
        self.out = out
        self.agents = agents

    def rolled(self, game: Game, before: Any, face: str) -> None:
        me = before.turn
        passed = game.position.turn != me
        said = ((_("white rolls @{face}: the turn passes") if passed
                 else _("white rolls @{face}")) if me == 0 else
                (_("black rolls @{face}: the turn passes") if passed
                 else _("black rolls @{face}")))
        self.out.write(said.format(face=face) + "\n")

    def moved(self, game: Game, before: Any, move: Move) -> None:
        if self.agents[before.turn] is None:
            return
        self.out.write((_("white plays {move}") if before.turn == 0
                        else _("black plays {move}")).format(
            move=game.move_text(move, before)) + "\n")


def play_game(game: Game, agents: list[Any], max_plies: int,
              stdin: TextIO | TypedLines | None = None,
              stdout: TextIO | None = None) -> dict[str, str]:
    """Play ``game`` to its end; ``agents[c]`` None means a person at ``stdin``.

    The game is played by ``engine.selfplay.play_out`` under the one adjudication
    policy (docs/adjudication.md); a game still going after ``max_plies`` plies is
    adjudicated a draw, and the record's closing comment says so in the learner's
    language. Returns the record tags that say how it ended (``Result``,
    ``Termination``).
    """
    talk = stdout is not None and any(a is None for a in agents)
    typed = stdin if isinstance(stdin, TypedLines) else TypedLines(stdin or sys.stdin)
    person = _Person(typed, stdout or sys.stdout)
    players = [person if a is None else a for a in agents]
    end = play_out(game, players, GameLimits(max_plies=max_plies),
                   _Commentary(stdout, agents) if talk and stdout is not None else None)
    if end.adjudicated:
        game.comments[len(game.history)] = ngettext(
            "adjudicated a draw: no result after {plies} ply",
            "adjudicated a draw: no result after {plies} plies",
            end.plies).format(plies=end.plies)
    return end.tags()


def move_repetitions(game: Game) -> int:
    """How often a **move** has brought about the current position (the start counts).

    This is the count the automatic repetition draw uses; ``Game.repetitions``
    already leaves out positions reached by die passes, so it is that count.
    """
    return game.repetitions()


def explain(game: Game, text: str, error: TavreiError) -> str:
    """Why a typed move was refused, in a learner's words (the die's reason first)."""
    from tavrei_lab.notation.moves import parse_move_spec
    rules = game.rules
    pos = game.position
    face = pos.roll
    if face is None:
        return str(error)
    try:
        spec = parse_move_spec(text)
        if spec.castle is not None:              # castling is a king move
            sq = pos.king_square(pos.turn)
        else:
            sq = pos.geometry.parse(spec.from_square)
    except TavreiError:
        return str(error)
    if sq is None:
        return str(error)
    tower = pos.board[sq]
    if tower and tower[-1].color == pos.turn:
        kind = tower[-1].acting_kind
        if not rules.allows(face, kind):
            names = pos.pieces.by_kind
            shown, top = names[pos.pieces.kind(face)], names[kind]
            return _("the die shows {face}: it lets only a {piece} or a piece lower in the "
                     "hierarchy K > Q > R > B > N > P move, and the tower on {square} is "
                     "topped by a {top}").format(
                face=face, piece=speech.kind_name(shown),
                square=pos.geometry.name(sq), top=speech.kind_name(top))
    return str(error)


def _ask_human(game: Game, stdin: TypedLines, out: TextIO) -> Move | GameEnd:
    """Show the board, read a move; explain a refusal and ask again."""
    pos = game.position
    out.write("\n" + pos.text() + "\n")
    legal = game.legal_moves()
    while True:
        if pos.turn == 0:
            prompt = (_("white (die shows @{face}) -- your move (or 'moves', 'resign'): ")
                      if pos.roll else _("white -- your move (or 'moves', 'resign'): "))
        else:
            prompt = (_("black (die shows @{face}) -- your move (or 'moves', 'resign'): ")
                      if pos.roll else _("black -- your move (or 'moves', 'resign'): "))
        prompt = prompt.format(face=pos.roll)
        out.write(prompt)
        out.flush()
        line = stdin.readline()
        if line is None:
            out.write("\n(" + _("{why}: the game is left unfinished").format(
                why=stdin.ended) + ")\n")
            game.comments[len(game.history)] = (_("white stopped playing") if pos.turn == 0
                                                else _("black stopped playing"))
            return abandon(game)
        if stdin.last_too_long:
            out.write(_("line too long: a move is at most {limit} characters").format(
                limit=MAX_MOVE_CHARS) + "\n")
            continue
        text = line.strip()
        if not text:
            continue
        if text.lower() in LIST_WORDS:
            out.write(_("legal: {moves}").format(
                moves=" ".join(game.move_text(m) for m in legal)) + "\n")
            continue
        if text.lower() in RESIGN_WORDS:
            game.comments[len(game.history)] = (_("white resigns") if pos.turn == 0
                                                else _("black resigns"))
            return resign(game)
        try:
            return game.find_move(text)
        except (IllegalMoveError, NotationError) as exc:
            out.write(_("not legal: {reason}").format(reason=explain(game, text, exc)) + "\n")
