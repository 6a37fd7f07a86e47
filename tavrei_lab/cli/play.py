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

Every game ends: the claimable draws (threefold repetition, fifty moves) are
taken automatically, as engines and self-play do (A9.4) -- a repetition counts
only positions brought about by moves, not by die passes (see
``move_repetitions``) -- and a game still
running after ``--max-plies`` turns (a turn is a move, or a die roll that
passes) is adjudicated: ``Result "*"``, ``Termination "adjudication"`` and a
closing comment saying why.
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any, TextIO

from tavrei_lab.cli.common import TypedLines, add_variant, check_out, os_reason, write_output
from tavrei_lab.core.move import Move
from tavrei_lab.engine.agents import AGENTS, make_agent
from tavrei_lab.errors import (
    IllegalMoveError,
    LimitError,
    NotationError,
    OutputError,
    TavreiError,
)
from tavrei_lab.game import Game
from tavrei_lab.i18n import get_language, ngettext
from tavrei_lab.i18n import gettext as _
from tavrei_lab.notation.moves import MAX_MOVE_CHARS
from tavrei_lab.notation.record import MAX_GAME_PLIES

#: Turns after which an unfinished game is adjudicated (a turn: a move or a pass).
DEFAULT_MAX_PLIES = 400
HUMAN = "human"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("play", help=_("play a game between agents (or against you) and write "
                                      "its record"))
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
                   help=_("adjudicate after N turns (default {default_max_plies})")
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
            result=tags["Result"], termination=tags["Termination"], length=length_text(game),
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


def play_game(game: Game, agents: list[Any], max_plies: int,
              stdin: TextIO | TypedLines | None = None,
              stdout: TextIO | None = None) -> dict[str, str]:
    """Play ``game`` to its end; ``agents[c]`` None means a person at ``stdin``.

    Returns the record tags that say how it ended (``Result``, ``Termination``).
    """
    talk = stdout is not None and any(a is None for a in agents)
    typed = stdin if isinstance(stdin, TypedLines) else TypedLines(stdin or sys.stdin)
    die = game.rules.has_chance
    while True:
        outcome = game.rules.outcome(game.position, move_repetitions(game), claim_draw=True)
        if outcome is not None:
            return {"Result": outcome.result(), "Termination": outcome.termination}
        if turns(game) >= max_plies and (game.is_chance_node() or not die):
            game.comments[len(game.history)] = ngettext(
                "adjudicated: no result after {max_plies} turns",
                "adjudicated: no result after {max_plies} turns",
                max_plies).format(max_plies=max_plies)
            return {"Result": "*", "Termination": "adjudication"}
        me = game.position.turn
        if game.is_chance_node():
            face = game.roll()
            if talk and stdout is not None:
                passed = game.position.turn != me
                said = ((_("white rolls @{face}: the turn passes") if passed
                         else _("white rolls @{face}")) if me == 0 else
                        (_("black rolls @{face}: the turn passes") if passed
                         else _("black rolls @{face}")))
                stdout.write(said.format(face=face) + "\n")
            continue
        agent = agents[me]
        if agent is not None:
            move = agent.choose(game)
            text = game.move_text(move)
            game.push(move)
            if talk and stdout is not None:
                stdout.write((_("white plays {move}") if me == 0
                              else _("black plays {move}")).format(move=text) + "\n")
            continue
        move_or_end = _ask_human(game, typed, stdout or sys.stdout)
        if isinstance(move_or_end, dict):
            return move_or_end


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
            ru = get_language() == "ru"
            shown, top = names[pos.pieces.kind(face)], names[kind]
            return _("the die shows {face}: it lets only a {piece} or a piece lower in the "
                     "hierarchy K > Q > R > B > N > P move, and the tower on {square} is "
                     "topped by a {top}").format(
                face=face, piece=shown.russian if ru else shown.name,
                square=pos.geometry.name(sq), top=top.russian if ru else top.name)
    return str(error)


def _ask_human(game: Game, stdin: TypedLines, out: TextIO) -> Move | dict[str, str]:
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
            return {"Result": "*", "Termination": "abandoned"}
        if stdin.last_too_long:
            out.write(_("line too long: a move is at most {limit} characters").format(
                limit=MAX_MOVE_CHARS) + "\n")
            continue
        text = line.strip()
        if not text:
            continue
        if text in ("moves", "?", "help"):
            out.write(_("legal: {moves}").format(
                moves=" ".join(game.move_text(m) for m in legal)) + "\n")
            continue
        if text in ("resign", "quit"):
            game.comments[len(game.history)] = (_("white resigns") if pos.turn == 0
                                                else _("black resigns"))
            return {"Result": "0-1" if pos.turn == 0 else "1-0", "Termination": "resignation"}
        try:
            return game.push(text)
        except (IllegalMoveError, NotationError) as exc:
            out.write(_("not legal: {reason}").format(reason=explain(game, text, exc)) + "\n")
