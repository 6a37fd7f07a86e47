"""``tavrei-lab show [--variant ID] [--moves ...|--position ...]``: the position as text."""

from __future__ import annotations

import argparse

from tavrei_lab.cli.common import add_start, add_variant, game_from_args
from tavrei_lab.i18n import gettext as _


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("show", help=_("print a position as text: towers bottom -> top, then "
                                      "single tavrels"))
    add_variant(p)
    add_start(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    game = game_from_args(args)
    print(game.position.text())
    print()
    print(_("position: {position}").format(position=game.position.string))
    if not game.is_chance_node():
        print(_("legal moves: {count}").format(count=len(game.legal_moves()))
              + (_(", check") if game.is_check() else ""))
    outcome = game.outcome()
    if outcome:
        print(_("outcome: {outcome}").format(outcome=outcome))
    return 0
