"""``tavrei-lab svg [--variant ID] [--moves ...|--position ...] [--flip] --out FILE``.

Writes the position (after ``--moves``) as an SVG picture, the last move
highlighted and check marked, exactly as a notebook shows it. ``--game``
writes the whole game instead: an animated SVG, or with ``--frames`` a grid of
every position, for pages where no Python runs.
"""

from __future__ import annotations

import argparse

from tavrei_lab.cli.common import add_start, add_variant, game_from_args, write_output
from tavrei_lab.core.move import Move
from tavrei_lab.errors import TavreiError
from tavrei_lab.i18n import gettext as _


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("svg", help=_("write a position (or a whole game) as an SVG picture"))
    add_variant(p)
    add_start(p)
    p.add_argument("--flip", action="store_true", help=_("black at the bottom"))
    p.add_argument("--out", required=True, metavar="FILE", help=_("the SVG file to write (- for "
                                                                  "standard output)"))
    p.add_argument("--size", type=float, default=None, metavar="PX",
                   help=_("width in pixels (default: about 1.2 px per drawing unit)"))
    p.add_argument("--no-coordinates", action="store_true", help=_("leave out a-h / 1-8"))
    p.add_argument("--game", action="store_true",
                   help=_("draw every position of the game as an animated SVG"))
    p.add_argument("--frames", action="store_true",
                   help=_("with --game: a grid of all positions instead of an animation"))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from tavrei_lab.render import board_svg, game_svg_animation
    from tavrei_lab.render.board import check_size

    if args.frames and not args.game:
        raise TavreiError(_("--frames needs --game"))
    if args.size is not None:
        check_size(args.size, "--size")
    game = game_from_args(args)
    coordinates = not args.no_coordinates
    if args.game:
        svg = game_svg_animation(game, mode="frames" if args.frames else "animate",
                                 flipped=args.flip, size=args.size, coordinates=coordinates)
    else:
        moves = [a for a in game.history if isinstance(a, Move)]
        check = False if game.is_chance_node() else game.is_check()
        svg = board_svg(game.position, flipped=args.flip, lastmove=moves[-1] if moves else None,
                        check=check, size=args.size, coordinates=coordinates)
    write_output(args.out, svg + "\n")
    if args.out != "-":   # the SVG itself is standard output otherwise
        if not args.game:
            what = _("the position after {plies} plies").format(plies=game.ply)
        elif args.frames:
            what = _("the game, {count} positions (a grid)").format(count=game.action_count + 1)
        else:
            what = _("the game, {count} positions (animated)").format(
                count=game.action_count + 1)
        print(_("wrote {out}: {what}, {value} characters")
                  .format(out=args.out, what=what, value=len(svg) + 1))
    return 0
