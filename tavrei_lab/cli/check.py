"""``tavrei-lab check FILE``: validate a variant file (exit 2 with the reason if bad)."""

from __future__ import annotations

import argparse

from tavrei_lab.i18n import gettext as _
from tavrei_lab.i18n import ngettext
from tavrei_lab.variant import check_variant_file


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("check", help=_("validate a variant file"))
    p.add_argument("file", metavar="FILE")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    rules = check_variant_file(args.file)
    v = rules.variant
    count = len(rules.legal_moves(rules.initial_position()))
    print(ngettext("{file}: ok -- {name} ({rules}, {width}x{height}, {count} legal first moves)",
                   "{file}: ok -- {name} ({rules}, {width}x{height}, {count} legal first moves)",
                   count).format(file=args.file, name=_(v.name), rules=v.rules, width=v.width,
                                 height=v.height, count=count))
    return 0
