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
import sys
import time
import warnings
from typing import Any

from tavrei_lab.cli.common import (
    add_progress_flags,
    add_start,
    add_variant,
    game_from_args,
    print_json,
    wants_progress_lines,
    write_output,
)
from tavrei_lab.errors import LimitError, TavreiError
from tavrei_lab.i18n import gettext as _
from tavrei_lab.render.tree import MAX_DRAWN_NODES
from tavrei_lab.tree.build import DEFAULT_MAX_NODES, MAX_TREE_NODES, TreeCutWarning, build
from tavrei_lab.tree.filters import FILTERS, looks_like_filter
from tavrei_lab.tree.nodes import nodes_per_depth, principal_variation
from tavrei_lab.tree.values import value_text

#: How long ``tree`` grows by default, and the most it may be told to (seconds).
DEFAULT_TIME_LIMIT = 60.0
MAX_TIME_LIMIT = 3600.0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("tree", help=_("grow a game tree: node counts per depth, principal "
                                      "variation, SVG drawing"))
    add_variant(p)
    add_start(p)
    p.add_argument("--depth", type=int, default=2, metavar="N",
                   help=_("plies to grow (die rolls are not plies; default 2)"))
    p.add_argument("--filter", default=None, metavar="KINDS",
                   help=_("keep only these move kinds: {kinds}; join with ',' (any) or '&' "
                          "(all), e.g. 'captures,checks' or 'splits&frees'")
                            .format(kinds=", ".join(FILTERS)))
    p.add_argument("--max-nodes", type=int, default=None, metavar="N",
                   help=_("stop growing at N nodes (default {default}, with --svg "
                          "{drawn}; at most {most})")
                            .format(default=DEFAULT_MAX_NODES, drawn=MAX_DRAWN_NODES,
                                    most=MAX_TREE_NODES))
    p.add_argument("--time-limit", type=float, default=DEFAULT_TIME_LIMIT, metavar="SECONDS",
                   help=_("finish in about this many seconds: growth stops at it (at half of it "
                          "when values are computed, which take about as long) (default "
                          "{default:g}; at most {most:g})")
                            .format(default=DEFAULT_TIME_LIMIT, most=MAX_TIME_LIMIT))
    p.add_argument("--no-values", action="store_true",
                   help=_("skip the alpha-beta values (and the principal variation)"))
    p.add_argument("--json", action="store_true", help=_("print one JSON object"))
    p.add_argument("--svg", default=None, metavar="FILE", help=_("write the tree drawing here"))
    add_progress_flags(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.depth < 0:
        raise TavreiError(_("--depth must be 0 or more, got {depth}").format(depth=args.depth))
    flt = args.filter
    if args.moves and looks_like_filter(args.moves):
        if flt:
            raise TavreiError(_("--moves {moves!r} names move kinds and --filter is given too; "
                                "use --filter alone").format(moves=args.moves))
        flt, args.moves = args.moves, ""
    max_nodes = args.max_nodes
    if max_nodes is None:
        max_nodes = MAX_DRAWN_NODES if args.svg else DEFAULT_MAX_NODES
    if not 1 <= max_nodes <= MAX_TREE_NODES:
        raise LimitError(_("--max-nodes must be 1..{max_tree_nodes}, got {max_nodes}")
                             .format(max_tree_nodes=MAX_TREE_NODES, max_nodes=max_nodes))
    if args.svg and max_nodes > MAX_DRAWN_NODES:
        raise LimitError(_("--svg draws at most {max_drawn_nodes} nodes; --max-nodes "
                           "{max_nodes} would grow more")
                             .format(max_drawn_nodes=MAX_DRAWN_NODES, max_nodes=max_nodes))
    if not (0 < args.time_limit <= MAX_TIME_LIMIT):      # also refuses nan
        raise LimitError(_("--time-limit must be more than 0 and at most {max_time_limit:g} "
                           "seconds, got {time_limit}")
                             .format(max_time_limit=MAX_TIME_LIMIT, time_limit=args.time_limit))
    game = game_from_args(args)
    # values (minimax over the grown tree) take about as long as growing it: with values,
    # growth gets half the time, so the whole command keeps to about --time-limit
    growth = args.time_limit if args.no_values else args.time_limit / 2
    with warnings.catch_warnings():   # a cut tree: the command says so in its own words
        warnings.simplefilter("ignore", TreeCutWarning)
        G = build(game, args.depth, moves=flt, max_nodes=max_nodes, values=not args.no_values,
                  time_limit=growth,
                  progress=_progress if wants_progress_lines(args) else False,
                  evaluate=_evaluate_until(time.monotonic() + args.time_limit,
                                           args.time_limit))
    counts = nodes_per_depth(G)
    pv = principal_variation(G)
    note = _why_alone(G, game, flt)
    if args.svg:
        from tavrei_lab.render.tree import draw_svg
        write_output(args.svg, draw_svg(G))
    if args.json:
        print_json({
            "variant": G.graph["variant"], "position": G.graph["root_position"],
            "depth": args.depth, "filter": G.graph["filter"], "nodes": G.number_of_nodes(),
            "nodes_per_depth": counts, "principal_variation": pv,
            "value": G.graph.get("value"), "truncated": G.graph["truncated"],
            "cut_by": G.graph["cut_by"] or None, "svg": args.svg, "note": note,
        })
        return 0
    for d, n in enumerate(counts):
        print(_("depth {d}: {n}").format(d=d, n=n))
    cut = {"max_nodes": _(" (cut at --max-nodes)"), "time_limit": _(" (cut at --time-limit)"),
           "": ""}[G.graph["cut_by"]]
    print(_("nodes: {value}{cut}").format(value=G.number_of_nodes(), cut=cut))
    if note:
        print(note)
    if not args.no_values:
        print(_("principal variation: {value}  [value {value2} for white]")
                  .format(value=" ".join(pv) if pv else _("(none)"),
                          value2=value_text(G.graph.get('value'))))
    if args.svg:
        print(_("drawing: {svg}").format(svg=args.svg))
    return 0


def _evaluate_until(deadline: float, limit: float) -> Any:
    """The engine's evaluation, refusing to go on past ``deadline``: on a pathological
    position (a 512-tavrel tower) one evaluation can take a tenth of a second."""
    from tavrei_lab.engine.evaluate import evaluate

    def timed(position: Any) -> float:
        if time.monotonic() > deadline:
            raise LimitError(_("the values took longer than --time-limit ({limit:g} s); "
                               "--no-values skips them, a smaller tree is quicker")
                                 .format(limit=limit))
        return evaluate(position)

    return timed


def _progress(nodes: int, seconds: float) -> None:
    """A line on stderr now and then, so a long build shows it is working."""
    if seconds >= 5:
        print(_("tree: {nodes} nodes after {seconds:.0f} s")
                  .format(nodes=nodes, seconds=seconds), file=sys.stderr, flush=True)


def _why_alone(G: Any, game: Any, flt: str | None) -> str | None:
    """Why a tree is its root alone, when a filter left out every first move."""
    if G.number_of_nodes() != 1 or G.graph["depth"] < 1 or not flt:
        return None
    if G.nodes[0]["type"] != "decision":
        return None
    legal = len(game.legal_moves())
    if not legal:
        return None
    return _("the tree is its root alone: none of the {count} legal moves here is one of "
             "{kinds!r} (the filter applies at every ply, the first one too)").format(
        count=legal, kinds=flt)
