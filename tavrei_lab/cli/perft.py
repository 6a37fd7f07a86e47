"""``tavrei-lab perft [--variant ID] [--moves ...] [--position ...] [--divide] DEPTH``."""

from __future__ import annotations

import argparse

from tavrei_lab.cli.common import (
    add_progress_flags,
    add_start,
    add_variant,
    game_from_args,
    progress_mode,
)
from tavrei_lab.engine.perft import MAX_PERFT_DEPTH, bounded_perft, metered
from tavrei_lab.errors import LimitError
from tavrei_lab.i18n import gettext as _

#: Moves ``perft`` plays before it stops by default (about a minute), and at most.
DEFAULT_PERFT_NODES = 30_000_000
MAX_PERFT_NODES = 2_000_000_000


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("perft", help=_("count the leaves of the move tree (each (from, count, "
                                       "to) and each castling once)"))
    add_variant(p)
    add_start(p)
    p.add_argument("--divide", action="store_true", help=_("print the count under each first "
                                                           "move"))
    p.add_argument("--max-nodes", type=int, default=DEFAULT_PERFT_NODES, metavar="N",
                   help=_("stop (with an error) after N moves played (default "
                          "{default:,}, about a minute; at most {most:,})")
                            .format(default=DEFAULT_PERFT_NODES, most=MAX_PERFT_NODES))
    p.add_argument("depth", type=int, metavar="DEPTH")
    add_progress_flags(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if not 0 <= args.depth <= MAX_PERFT_DEPTH:
        raise LimitError(_("depth must be 0..{max_perft_depth}, got {depth}")
                             .format(max_perft_depth=MAX_PERFT_DEPTH, depth=args.depth))
    if not 1 <= args.max_nodes <= MAX_PERFT_NODES:
        raise LimitError(_("--max-nodes must be 1..{max_perft_nodes}, got {max_nodes}")
                             .format(max_perft_nodes=MAX_PERFT_NODES, max_nodes=args.max_nodes))
    game = game_from_args(args)
    rules, pos = game.rules, game.position
    if args.divide and args.depth >= 1 and not rules.is_chance_node(pos):
        total = 0
        counted = metered(rules, args.max_nodes, progress_mode(args))   # one budget for all
        try:
            for move in rules.legal_moves(pos):
                n = counted.perft(counted.apply(pos, move), args.depth - 1)
                print(f"{game.move_text(move)}: {n}", flush=True)
                total += n
        finally:
            counted.meter.close()
        print()
        print(total)
    else:
        print(bounded_perft(rules, pos, args.depth, args.max_nodes, progress_mode(args)))
    return 0

