"""``tavrei-lab perft [--variant ID] [--moves ...] [--position ...] [--divide] DEPTH``."""

from __future__ import annotations

import argparse

from tavrei_lab.cli.common import add_start, add_variant, game_from_args
from tavrei_lab.engine.perft import perft, perft_divide
from tavrei_lab.errors import TavreiError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("perft", help="count the leaves of the move tree (each (from, count, "
                                     "to) and each castling once)")
    add_variant(p)
    add_start(p)
    p.add_argument("--divide", action="store_true", help="print the count under each first move")
    p.add_argument("depth", type=int, metavar="DEPTH")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.depth < 0:
        raise TavreiError(f"depth must be 0 or more, got {args.depth}")
    game = game_from_args(args)
    rules, pos = game.rules, game.position
    if args.divide and args.depth >= 1 and not rules.is_chance_node(pos):
        total = 0
        for move, n in perft_divide(rules, pos, args.depth):
            print(f"{game.move_text(move)}: {n}")
            total += n
        print()
        print(total)
    else:
        print(perft(rules, pos, args.depth))
    return 0
