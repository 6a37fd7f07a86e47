"""``tavrei-lab tune``: fit the playing evaluation's weights to a variant.

::

    tavrei-lab tune --variant tavreli-no-split [--option KEY=VALUE ...] \\
        [--generations G] [--games N] [--gate-games N] [--nodes K] [--scheduler ADDRESS] \\
        --out W.json

plays self-play generations with the node-limited playing search, fits the
weights to the games' results (the Texel method, ``lab.tune``) and writes the
weights file: the weights, the variant's settings hash and a log per generation.
``play:nodes=K,weights=W.json`` then plays with them. The games are kept beside
the file (``W.json.games/``) as they finish, so the same command resumes a
stopped tune.
"""

from __future__ import annotations

import argparse
import sys

from tavrei_lab.cli.common import add_progress_flags, progress_mode, run_executor
from tavrei_lab.compare.parallel import EXECUTOR_NAMES
from tavrei_lab.errors import TavreiError
from tavrei_lab.i18n import gettext as _
from tavrei_lab.lab.cells import build_cells
from tavrei_lab.lab.tune import (
    DEFAULT_GAMES,
    DEFAULT_GENERATIONS,
    DEFAULT_NODES,
    gate_text,
    tune,
    written_text,
)
from tavrei_lab.variant import load_variant


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "tune", help=_("fit the playing evaluation's weights to a variant (self-play, Texel)"),
        description=_("``tavrei-lab tune``: fit the playing evaluation's weights to a "
                      "variant. Measured: the defaults took 365 s of CPU (534 s wall on 2 cores "
                      "shared with other jobs) for tavreli, 472 games, the gate's included (see "
                      "docs/lab.md)."))
    p.add_argument("--variant", default="tavreli", metavar="ID|FILE",
                   help=_("variant id or .toml file (default: tavreli)"))
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help=_("a rule option, e.g. splits=false (repeatable)"))
    p.add_argument("--generations", type=int, default=DEFAULT_GENERATIONS, metavar="G",
                   help=_("self-play generations, each fit on the games so far (default: "
                          "{default_generations})")
                            .format(default_generations=DEFAULT_GENERATIONS))
    p.add_argument("--games", type=int, default=DEFAULT_GAMES, metavar="N",
                   help=_("games a generation (default: {default_games})")
                            .format(default_games=DEFAULT_GAMES))
    p.add_argument("--gate-games", type=int, default=None, metavar="N",
                   help=_("at most this many more games a generation when its games leave the "
                          "gate's test (an SPRT on game pairs) undecided; still undecided, the "
                          "new weights are dropped (default: as many as --games)"))
    p.add_argument("--nodes", type=int, default=DEFAULT_NODES, metavar="K",
                   help=_("search nodes a move: no clock, so reproducible (default: "
                          "{default_nodes})").format(default_nodes=DEFAULT_NODES))
    p.add_argument("--seed", type=int, default=0, help=_("tune seed (default: 0)"))
    p.add_argument("--executor", choices=EXECUTOR_NAMES, default="processes",
                   help=_("where games run without --scheduler (default: processes)"))
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help=_("run the games on this dask scheduler (the [cluster] extra)"))
    p.add_argument("--workers", type=int, default=None, metavar="N",
                   help=_("parallel workers (default: the number of cores)"))
    p.add_argument("--out", required=True, metavar="W.json", help=_("the weights file to write"))
    add_progress_flags(p)      # a bar of each generation's games, as compare/sweep have
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    options: dict[str, list[str]] = {}
    for item in args.option:
        key, eq, value = item.partition("=")
        if not eq or not key.strip() or not value.strip():
            raise TavreiError(_("--option {value}: expected KEY=VALUE").format(value=repr(item)))
        options[key.strip()] = [value.strip()]
    cell = build_cells(args.variant, options)[0]
    rules = cell.rules if cell.rules is not None else load_variant(cell.base,
                                                                   **dict(cell.options))
    with run_executor(args) as executor:
        doc = tune(rules, generations=args.generations, games=args.games, nodes=args.nodes,
                   gate_games=args.gate_games, out=args.out, seed=args.seed,
                   executor=executor, workers=args.workers,
                   progress=lambda text: print(text, file=sys.stderr, flush=True),
                   bar=progress_mode(args))
    print(_("{file}: weights for {cell} (settings hash {hash}), {generations} generations x "
            "{games} games in {seconds:.0f} s").format(
        file=args.out, cell=cell.name, hash=doc["settings_hash"], generations=args.generations,
        games=args.games, seconds=doc["seconds"]))
    for entry in doc["log"]:
        score = entry["score_vs_previous"]
        fit = (_("loss {before:.4f} -> {after:.4f}, ").format(before=entry["loss_before"],
                                                              after=entry["loss_after"])
               if "loss_before" in entry else "")
        gate = "" if score is None else (
            _(", score vs previous {score:.3f} (kept)") if entry["accepted"]
            else _(", score vs previous {score:.3f} (dropped)")).format(score=score)
        if "gate" in entry:
            gate += "; " + gate_text(entry["gate"])
        played = entry["games"] + entry.get("extra_games", 0)
        print(_("  generation {generation}: {fit}draws {draws}/{games} ({capped} at the ply "
                "cap){gate}").format(generation=entry["generation"], fit=fit,
                                     draws=entry["draws"], games=played,
                                     capped=entry["capped"], gate=gate))
    print("  " + written_text(doc))
    return 0
