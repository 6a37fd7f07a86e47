"""``tavrei-lab variants [-v]``: the shipped variants with their descriptions."""

from __future__ import annotations

import argparse
import textwrap
from typing import Any

from tavrei_lab.i18n import gettext as _
from tavrei_lab.variant import describe_variants, load_variant


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("variants", help=_("list the shipped variants"))
    p.add_argument("-v", "--verbose", action="store_true",
                   help=_("also list each variant's rule module and options"))
    p.set_defaults(run=run)


def option_value(value: Any) -> str:
    """An option's value as a user reads it: yes/no for a switch (in the language in
    force), a text as typed in a variant file (quoted), a number as it is."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return repr(value)


def run(args: argparse.Namespace) -> int:
    for vid, name, description in describe_variants():
        print(f"{vid}  --  {name}")
        for line in textwrap.wrap(description, 76):
            print(f"    {line}")
        if args.verbose:
            rules = load_variant(vid)
            print(_("    rules: {rules}, board {width}x{height}")
                      .format(rules=rules.variant.rules, width=rules.variant.width,
                              height=rules.variant.height))
            for opt in rules.OPTIONS:
                print(f"      {opt.name} = {option_value(rules.options[opt.name])}  "
                      f"({opt.explained})")
        print()
    return 0
