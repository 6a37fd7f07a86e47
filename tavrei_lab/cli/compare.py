"""``tavrei-lab compare``: self-play tournaments across variants and agents.

::

    tavrei-lab compare --variants tavreli,tavreli-no-split,orthodox \\
        --agents level:2 --games 50 --seed 1 --out DIR

writes ``DIR/records/*.tvr`` (one record per game; ``tavrei-lab replay``
replays any of them), ``DIR/variants.csv|json``, ``DIR/pairs.csv|json``,
``DIR/games.csv|json``, ``DIR/plots/*.svg`` and ``DIR/settings.json``, and
prints the per-variant and per-pair tables.
"""

from __future__ import annotations

import argparse

from tavrei_lab.cli.common import (
    add_run_options,
    check_out,
    progress_mode,
    run_executor,
    save_run,
)
from tavrei_lab.errors import TavreiError
from tavrei_lab.i18n import gettext as _
from tavrei_lab.lab.runner import DEFAULT_MAX_PLIES
from tavrei_lab.lab.tournament import SAVED_ENTRIES, tournament


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "compare", help=_("play agents against each other in several variants and compare"),
        description=_("Play --games games for every variant and every pair of agents (colours "
                      "alternate), then write the records, the tables (CSV, JSON) and the plots "
                      "(SVG) to --out."))
    p.add_argument("--variants", default="tavreli", metavar="V1,V2,...",
                   help=_("variant ids or .toml files, comma-separated (default: tavreli)"))
    p.add_argument("--agents", default="greedy,random", metavar="A1,A2,...",
                   help=_("agent specs, comma-separated: random, greedy, alphabeta:DEPTH, "
                          "alphabeta:0.5s, alphabeta:nodes=N, play, level:1..level:8, "
                          "expectimax:DEPTH (default: greedy,random)"))
    p.add_argument("--games", type=int, default=10, metavar="N",
                   help=_("games per variant and agent pair (default: 10)"))
    p.add_argument("--seed", type=int, default=0, help=_("tournament seed (default: 0)"))
    p.add_argument("--max-plies", type=int, default=DEFAULT_MAX_PLIES, metavar="N",
                   help=_("adjudicate a game as a draw after N plies, reported as 'max-plies' "
                          "(default: {default_max_plies})")
                            .format(default_max_plies=DEFAULT_MAX_PLIES))
    add_run_options(p, out_help=_("write records, tables and plots here"))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.games < 1:
        raise TavreiError(_("--games must be 1 or more, got {games}").format(games=args.games))
    check_out(args.out, folder=True, entries=SAVED_ENTRIES)
    with run_executor(args) as executor:
        result = tournament(args.variants, args.agents, games=args.games, seed=args.seed,
                            max_plies=args.max_plies, executor=executor,
                            workers=args.workers, progress=progress_mode(args))
    print(result.variants_table().said())
    print()
    print(result.pairs_table().said())
    if args.out:
        written = save_run(result.save, args.out, "compare")
        print()
        print(_("wrote {count} records, {count2} tables and {count3} plots to {out}")
                  .format(count=len(written['records']), count2=len(written['tables']),
                          count3=len(written['plots']), out=args.out))
    return 0
