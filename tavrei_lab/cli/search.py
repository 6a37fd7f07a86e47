"""``tavrei-lab search``: search one position and print the best move, as an engine would.

    tavrei-lab search --moves "e2-e4 e7-e5" --time 2
    tavrei-lab search --variant orthodox --position FEN --depth 4 --mode lesson --json

``--mode play`` (the default) is the playing search (``engine.play``);
``--mode lesson`` the exact fixed-depth search (``engine.search``). ``--json``
prints one object with the keys ``best``, ``value``, ``depth``, ``nodes``,
``seconds``, ``pv`` and ``mode`` -- the form scripts and benchmarks read.
``value`` is in pawns from the side to move's view; a mate in n plies is
``10000 - n``.
"""

from __future__ import annotations

import argparse
from typing import Any

from tavrei_lab.cli.common import add_start, add_variant, game_from_args, print_json
from tavrei_lab.errors import TavreiError
from tavrei_lab.i18n import gettext as _


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("search", help=_("search one position: best move, value, depth, nodes, "
                                        "principal variation"))
    add_variant(p)
    add_start(p)
    budget = p.add_mutually_exclusive_group(required=True)
    budget.add_argument("--time", type=float, default=None, metavar="SECONDS",
                        help=_("search for this many seconds (wall clock)"))
    budget.add_argument("--depth", type=int, default=None, metavar="N",
                        help=_("search to this depth in moves"))
    p.add_argument("--mode", choices=("play", "lesson"), default="play",
                   help=_("play: the fast playing search (default); lesson: the exact "
                          "fixed-depth search the trees and lessons use"))
    p.add_argument("--json", action="store_true", help=_("print one JSON object"))
    p.set_defaults(run=run)


def search_position(game: Any, *, time: float | None = None, depth: int | None = None,
                    mode: str = "play") -> dict[str, Any]:
    """Search ``game``'s position; the result as the ``--json`` object."""
    from tavrei_lab.engine.play import PlaySearcher
    from tavrei_lab.engine.search import Limits, Searcher, game_history
    from tavrei_lab.notation.moves import write_move
    if game.is_chance_node():
        raise TavreiError(_("the die must be rolled first: end --moves with the roll (e.g. @K) "
                            "or give a position with a rolled face"))
    if game.outcome() is not None:
        raise TavreiError(_("the game is over ({value}): nothing to search")
                              .format(value=game.outcome()))
    limits = Limits(depth=depth, time=time)
    rules = game.rules
    searcher = PlaySearcher(rules) if mode == "play" else Searcher(rules)
    result = searcher.search(game.position, limits, game_history(game))
    pv: list[str] = []
    pos = game.position
    for move in result.pv:
        pv.append(write_move(pos, move))
        pos = rules.apply(pos, move)
    best = result.best_move
    return {"best": None if best is None else write_move(game.position, best),
            "value": round(result.value, 2), "depth": result.depth, "nodes": result.nodes,
            "seconds": round(result.seconds, 3), "pv": pv, "mode": mode}


def run(args: argparse.Namespace) -> int:
    if args.time is not None and not args.time > 0:
        raise TavreiError(_("--time must be positive, got {time}").format(time=args.time))
    if args.depth is not None and args.depth < 1:
        raise TavreiError(_("--depth must be 1 or more, got {depth}").format(depth=args.depth))
    game = game_from_args(args)
    out = search_position(game, time=args.time, depth=args.depth, mode=args.mode)
    if args.json:
        print_json(out)
        return 0
    best = out["best"] if out["best"] is not None else _("none")
    # the JSON keys are the English labels, so a script reading either finds the same names
    rows = [(_("best"), best), (_("value"), out["value"]), (_("depth"), out["depth"]),
            (_("nodes"), out["nodes"]), (_("seconds"), out["seconds"]),
            (_("pv"), " ".join(out["pv"])), (_("mode"), out["mode"])]
    width = max(len(label) for label, _value in rows) + 1
    for label, value in rows:
        print(f"{label:<{width}}{value}")
    return 0
