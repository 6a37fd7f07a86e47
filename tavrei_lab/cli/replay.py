"""``tavrei-lab replay [--variant ID] [--json] FILE``: replay a record and report the end."""

from __future__ import annotations

import argparse
import io
from typing import Any

from tavrei_lab.cli.common import (
    add_progress_flags,
    add_variant,
    print_json,
    progress_mode,
    read_input,
)
from tavrei_lab.engine.selfplay import recorded_end
from tavrei_lab.errors import LimitError, RecordError
from tavrei_lab.game import DEFAULT_REPLAY_SECONDS, Game, read_record
from tavrei_lab.game.records import split_records
from tavrei_lab.i18n import gettext as _
from tavrei_lab.i18n import ngettext

#: Longest --time-limit a replay may be given.
MAX_REPLAY_SECONDS = 3600.0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("replay", help=_("replay a game record (or bare movetext) and report the "
                                        "final position"))
    add_variant(p)
    p.add_argument("--json", action="store_true", help=_("print one JSON object"))
    p.add_argument("--time-limit", type=float, default=DEFAULT_REPLAY_SECONDS,
                   metavar="SECONDS",
                   help=_("stop (with an error) after this many seconds (default "
                          "{default:g}, at most {most:g})")
                            .format(default=DEFAULT_REPLAY_SECONDS, most=MAX_REPLAY_SECONDS))
    p.add_argument("--game", type=int, default=None, metavar="N",
                   help=_("of a file of several records, replay the Nth (1 is the first)"))
    p.add_argument("file", metavar="FILE", help=_("record file, or - for standard input"))
    add_progress_flags(p)     # a long record's replay shows a bar once it lasts a second
    p.set_defaults(run=run)


def one_record(text: str, chosen: int | None, where: str) -> str:
    """The ``chosen``-th record of ``text`` (1-based; None: the only one). A file of
    several records without ``--game`` is refused naming how many it holds: replayed
    whole, the second game's tags were read as moves ("'[Event' is not a move")."""
    records = list(split_records(io.StringIO(text)))
    starts = [first for first, _ in records] or [1]
    if chosen is None:
        if len(starts) > 1:
            raise RecordError(ngettext(
                "{file} holds {count} game records (the second from line {line}); replay "
                "reads one: choose it with --game N",
                "{file} holds {count} game records (the second from line {line}); replay "
                "reads one: choose it with --game N", len(starts)).format(
                    file=where, count=len(starts), line=starts[1]))
        return text
    if not 1 <= chosen <= len(starts):
        raise RecordError(ngettext(
            "--game {game}: {file} holds {count} game record",
            "--game {game}: {file} holds {count} game records", len(starts)).format(
                game=chosen, file=where, count=len(starts)))
    return records[chosen - 1][1] if records else text


def summary(game: Game) -> dict[str, Any]:
    """The facts ``replay --json`` reports (also used by the notebooks)."""
    pos = game.position
    chance = game.is_chance_node()
    outcome = game.outcome()
    end = recorded_end(game)
    facts = {
        "plies": game.ply,
        "side_to_move": pos.turn_name,
        "in_check": False if chance else game.is_check(),
        "legal_moves": 0 if chance else len(game.legal_moves()),
        "outcome": None if outcome is None else outcome.termination,
        # how the record says the game ended (docs/adjudication.md), old records too
        "result": "*" if end is None else end.result,
        "ended_by": None if end is None else end.reason,
        "position": pos.string,
    }
    if game.rules.has_chance:
        facts["pending_roll"] = game.rules.pending_roll(pos)
    if game.plays_chess:
        facts["fen"] = game.fen()
    return facts


def run(args: argparse.Namespace) -> int:
    if not 0 < args.time_limit <= MAX_REPLAY_SECONDS:     # also refuses nan
        raise LimitError(_("--time-limit must be more than 0 and at most {max_replay_seconds:g} "
                           "seconds, got {time_limit}")
                             .format(max_replay_seconds=MAX_REPLAY_SECONDS,
                                     time_limit=args.time_limit))
    where = _("standard input") if args.file == "-" else args.file
    text = one_record(read_input(args.file), args.game, where)
    game = read_record(text, variant=args.variant, time_limit=args.time_limit,
                       progress=progress_mode(args))
    facts = summary(game)
    if args.json:
        print_json(facts)
    else:
        print(game.position.text())
        print()
        rolls = game.action_count - game.ply     # the words `play` uses for a game's length
        print(_("plies: {plies}").format(plies=facts["plies"])
              + (_(", die rolls: {rolls}").format(rolls=rolls) if rolls else "")
              + _(", in check: {check}, legal moves: {count}, outcome: {outcome}").format(
                  check=_("yes") if facts["in_check"] else _("no"), count=facts["legal_moves"],
                  outcome=_(facts["outcome"]) if facts["outcome"] else "-"))
    return 0
