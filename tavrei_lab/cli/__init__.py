"""The ``tavrei-lab`` command.

Each subcommand lives in its own module of this package and exposes
``register(subparsers)``; ``COMMANDS`` lists them in the order ``--help``
shows them. Errors the package raises on purpose (``TavreiError``) become one
line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from tavrei_lab import __version__
from tavrei_lab.errors import TavreiError

COMMANDS = ("replay", "perft", "show", "variants", "check", "play", "compare", "svg", "tree",
            "soak")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tavrei-lab",
        description="Tavreli (Russian tower chess) and its relatives: replay, perft, "
                    "pictures, trees, tournaments.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMANDS:
        importlib.import_module(f"tavrei_lab.cli.{name.replace('-', '_')}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except TavreiError as exc:
        print(f"tavrei-lab {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `tavrei-lab variants | head`
        sys.stderr.close()
        return 0
    except OSError as exc:
        print(f"tavrei-lab {args.command}: error: {exc.strerror}: {exc.filename}",
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # pragma: no cover
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
