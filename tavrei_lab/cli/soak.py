"""``tavrei-lab soak [--games N] [--seed S] ...``: self-play with every invariant checked.

See ``tavrei_lab.qa.soak`` for the invariants. Exit status 0 when none
broke, 1 when one did, 2 for bad arguments.
"""

from __future__ import annotations

import argparse

from tavrei_lab.i18n import gettext as _
from tavrei_lab.qa.soak import add_arguments, run_from_args


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("soak", help=_("self-play soak: seeded games over every variant, "
                                      "invariants checked after every move"))
    add_arguments(p)
    p.set_defaults(run=run_from_args)
