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
import shlex
import sys

from tavrei_lab.cli.common import add_progress_flags, progress_mode, run_executor
from tavrei_lab.errors import TavreiError, one_line
from tavrei_lab.i18n import gettext as _
from tavrei_lab.i18n import ngettext
from tavrei_lab.lab.cells import build_cells, parse_value
from tavrei_lab.lab.parallel import EXECUTOR_NAMES
from tavrei_lab.lab.tune import (
    DEFAULT_GAMES,
    DEFAULT_GENERATIONS,
    DEFAULT_MAX_PLIES,
    DEFAULT_NODES,
    TuneInterrupted,
    check_tune_settings,
    gate_text,
    tune,
    written_text,
)
from tavrei_lab.lab.tune_checkpoint import check_weights_out
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


def _options(args: argparse.Namespace) -> dict[str, list[str]]:
    """``--option KEY=VALUE`` items, each checked against the variant's own options and
    named as the user typed it (a tune has no sweep grid to blame)."""
    rules = load_variant(args.variant)
    declared = {o.name: o for o in type(rules).OPTIONS}
    options: dict[str, list[str]] = {}
    for item in args.option:
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or not key or not value.strip():
            raise TavreiError(_("--option {value}: expected KEY=VALUE").format(value=repr(item)))
        if key in options:
            raise TavreiError(_("--option {value}: option {key!r} is given twice")
                              .format(value=repr(item), key=key))
        option = declared.get(key)
        if option is None:
            raise TavreiError(_("--option {value}: {variant} has no option {key!r}; its "
                                "options: {names}").format(value=repr(item), key=key,
                                                           variant=args.variant,
                                                           names=", ".join(sorted(declared))))
        problem = option.check(parse_value(option, value))
        if problem:
            raise TavreiError(_("--option {value}: {problem}").format(value=repr(item),
                                                                      problem=problem))
        options[key] = [value.strip()]
    return options


def _resume(args: argparse.Namespace) -> str:
    return _("resume with: {command}").format(
        command="tavrei-lab " + shlex.join(getattr(args, "argv", None) or ["tune"]))


def run(args: argparse.Namespace) -> int:
    # everything that can be refused is, before a folder is made or a worker started
    check_tune_settings(generations=args.generations, games=args.games, nodes=args.nodes,
                        gate_games=args.gate_games, max_plies=DEFAULT_MAX_PLIES, seed=args.seed)
    check_weights_out(args.out)
    cell = build_cells(args.variant, _options(args))[0]
    rules = cell.rules if cell.rules is not None else load_variant(cell.base,
                                                                   **dict(cell.options))
    try:
        with run_executor(args) as executor:
            doc = tune(rules, generations=args.generations, games=args.games,
                       nodes=args.nodes, gate_games=args.gate_games, out=args.out,
                       seed=args.seed, executor=executor, workers=args.workers,
                       progress=lambda text: print(text, file=sys.stderr, flush=True),
                       bar=progress_mode(args))
    except TuneInterrupted as exc:    # printed here: the resume line must not be cut
        print(_("tavrei-lab {command}: error: {message}").format(
            command="tune", message=one_line(f"{exc}; {_resume(args)}", 4000)),
              file=sys.stderr, flush=True)
        return 2
    except KeyboardInterrupt as exc:
        kept = getattr(exc, "games_kept", None)
        folder = getattr(exc, "folder", None)
        if kept is None or folder is None:
            print("\n" + _("interrupted before any game was played"), file=sys.stderr,
                  flush=True)
        else:
            print("\n" + ngettext("interrupted: {count} games of this tune are kept in "
                                  "{folder}; {resume}", "interrupted: {count} games of this "
                                  "tune are kept in {folder}; {resume}", kept).format(
                count=kept, folder=folder, resume=_resume(args)), file=sys.stderr, flush=True)
        return 130
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
