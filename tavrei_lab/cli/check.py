"""``tavrei-lab check FILE``: validate a variant file (exit 2 with the reason if bad)."""

from __future__ import annotations

import argparse

from tavrei_lab.variant import check_variant_file


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("check", help="validate a variant file")
    p.add_argument("file", metavar="FILE")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    rules = check_variant_file(args.file)
    v = rules.variant
    print(f"{args.file}: ok -- {v.name} ({v.rules}, {v.width}x{v.height}, "
          f"{len(rules.legal_moves(rules.initial_position()))} legal first moves)")
    return 0
