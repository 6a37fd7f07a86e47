"""Arguments and helpers shared by several subcommands."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from tavrei_lab.game import Game


def add_variant(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", default=None, metavar="ID|FILE",
                        help="variant id (see `tavrei-lab variants`) or a variant .toml file "
                             "(default: tavreli, or the record's Variant tag)")


def add_start(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--moves", default="", metavar="MOVETEXT",
                        help='moves to play first, e.g. "e2-e4 e7-e5"')
    parser.add_argument("--position", default=None, metavar="STR",
                        help="start from this position string (or FEN)")


def game_from_args(args: argparse.Namespace) -> Game:
    """A game of ``--variant`` from ``--position``, after ``--moves``."""
    game = Game(args.variant or "tavreli", args.position)
    if args.moves:
        game.play(args.moves)
    return game


def read_input(name: str) -> str:
    """The text of FILE (or stdin for ``-``), read only up to just past the record limit
    (so ``/dev/zero`` or an endless pipe cannot fill memory); not UTF-8 is a RecordError."""
    from tavrei_lab.errors import RecordError
    from tavrei_lab.notation.record import MAX_RECORD_BYTES
    try:
        if name == "-":
            return sys.stdin.read(MAX_RECORD_BYTES + 1)
        with open(name, encoding="utf-8") as f:
            return f.read(MAX_RECORD_BYTES + 1)
    except UnicodeDecodeError as exc:
        where = "standard input" if name == "-" else name
        raise RecordError(f"{where}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def print_json(obj: Any) -> None:
    import json
    print(json.dumps(obj, ensure_ascii=False))
