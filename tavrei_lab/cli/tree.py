"""``tavrei-lab tree [--variant ID] [--moves ...] [--position ...] [--depth N] [--filter KINDS]
[--json] [--svg FILE]``.

Grows a game tree (``tavrei_lab.tree.build``) and prints how many nodes it
has at each depth (on an unfiltered tree: perft at each depth) and the
principal variation. ``--moves`` plays movetext first, as in ``perft``; a
``--moves`` made only of filter names (``--moves captures``) is read as
``--filter``.
"""

from __future__ import annotations

import argparse

from tavrei_lab.cli.common import add_start, add_variant, game_from_args, print_json
from tavrei_lab.errors import TavreiError
from tavrei_lab.tree.build import DEFAULT_MAX_NODES, build
from tavrei_lab.tree.filters import FILTERS, looks_like_filter
from tavrei_lab.tree.values import value_text


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("tree", help="grow a game tree: node counts per depth, principal "
                                    "variation, SVG drawing")
    add_variant(p)
    add_start(p)
    p.add_argument("--depth", type=int, default=2, metavar="N",
                   help="plies to grow (die rolls are not plies; default 2)")
    p.add_argument("--filter", default=None, metavar="KINDS",
                   help=f"keep only these move kinds: {', '.join(FILTERS)}; join with ',' "
                        "(any) or '&' (all), e.g. 'captures,checks' or 'splits&frees'")
    p.add_argument("--max-nodes", type=int, default=DEFAULT_MAX_NODES, metavar="N",
                   help=f"stop growing at N nodes (default {DEFAULT_MAX_NODES})")
    p.add_argument("--no-values", action="store_true",
                   help="skip the alpha-beta values (and the principal variation)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--svg", default=None, metavar="FILE", help="write the tree drawing here")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.depth < 0:
        raise TavreiError(f"--depth must be 0 or more, got {args.depth}")
    flt = args.filter
    if args.moves and looks_like_filter(args.moves):
        if flt:
            raise TavreiError(f"--moves {args.moves!r} names move kinds and --filter is "
                              "given too; use --filter alone")
        flt, args.moves = args.moves, ""
    game = game_from_args(args)
    G = build(game, args.depth, moves=flt, max_nodes=args.max_nodes,
              values=not args.no_values)
    counts = G.graph["nodes_per_depth"]
    pv = G.graph.get("principal_variation", [])
    if args.svg:
        from tavrei_lab.render.tree import draw_svg
        with open(args.svg, "w", encoding="utf-8") as f:
            f.write(draw_svg(G))
    if args.json:
        print_json({
            "variant": G.graph["variant"], "position": G.graph["root_position"],
            "depth": args.depth, "filter": G.graph["filter"], "nodes": G.number_of_nodes(),
            "nodes_per_depth": counts, "principal_variation": pv,
            "value": G.graph.get("value"), "truncated": G.graph["truncated"],
            "svg": args.svg,
        })
        return 0
    for d, n in enumerate(counts):
        print(f"depth {d}: {n}")
    print(f"nodes: {G.number_of_nodes()}" + (" (cut at --max-nodes)"
                                             if G.graph["truncated"] else ""))
    if not args.no_values:
        print(f"principal variation: {' '.join(pv) if pv else '(none)'}"
              f"  [value {value_text(G.graph.get('value'))} for white]")
    if args.svg:
        print(f"drawing: {args.svg}")
    return 0
