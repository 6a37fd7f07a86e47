"""``tavrei-lab sweep``: the variant lab on the command line.

::

    tavrei-lab sweep --base tavreli --grid splits=true,false --grid castling=true,false \\
        --agents level:3 --games 200 --store lab.sqlite [--scheduler HOST:8786]

plays every cell of the grid (every combination of the options' values),
keeps each game in the SQLite store as it finishes, and prints the per-cell
table (with 95 % intervals) and the piece values. Run the same command again
and it plays only the games that are missing. ``--scheduler`` runs the games
on a dask cluster (the ``[cluster]`` extra).
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import textwrap
from typing import Any

from tavrei_lab.cli.common import (
    add_run_options,
    check_out,
    progress_mode,
    run_executor,
    save_run,
)
from tavrei_lab.engine.agents import REFERENCE_PLAYER
from tavrei_lab.errors import TavreiError, one_line
from tavrei_lab.i18n import gettext as _
from tavrei_lab.i18n import ngettext
from tavrei_lab.lab.cells import parse_grid_args
from tavrei_lab.lab.continuation import replay_capped
from tavrei_lab.lab.planning import DEFAULT_TRIAL, plan, until_decided
from tavrei_lab.lab.runner import DEFAULT_MAX_PLIES
from tavrei_lab.lab.strength import (
    DEFAULT_STRENGTH_GAMES,
    across_strengths,
    at_strength,
    measure_strength,
    parse_strengths,
    run_at_strengths,
    stability_text,
)
from tavrei_lab.lab.sweep import (
    DEFAULT_AGENTS,
    SWEEP_ENTRIES,
    SweepInterrupted,
    SweepResult,
    sweep,
)
from tavrei_lab.lab.table import ResultsTable, established_summary, summary_table
from tavrei_lab.lab.tune import DEFAULT_GAMES, DEFAULT_GENERATIONS, DEFAULT_NODES

#: Columns the printed tables fit in (the full tables go to --out).
WIDTH = 100


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "sweep", help=_("compare rule options: play a grid of variants, measure, store"),
        description=_("Play --games games in every cell of the grid (a base variant with one "
                      "combination of option values), measure each cell (white score, draws, "
                      "length, branching, openings, lead changes, drama, towers, piece values) "
                      "and keep every game in an SQLite --store; a rerun resumes."))
    # --variant as `tune` spells it is the same option
    p.add_argument("--base", "--variant", dest="base", action="append", default=None,
                   metavar="VARIANT",
                   help=_("base variant id or .toml file; repeat (or separate with commas) to "
                          "sweep several (default: tavreli)"))
    p.add_argument("--grid", action="append", default=[], metavar="OPTION=V1,V2",
                   help=_("an option and the values to try, e.g. splits=true,false; repeat for "
                          "more options (every combination is a cell)"))
    p.add_argument("--agents", default=DEFAULT_AGENTS, metavar="A1,A2,...",
                   help=_("agent specs (level:1 .. level:8, greedy, alphabeta:N, ...); one "
                          "plays itself, several play every pair (default: {default_agents}: a "
                          "node cap, no clock, so reproducible under load; level:3,nodes=20000 "
                          "plays far better, ~9 s a game; play:nodes=K,weights=fit plays with "
                          "weights fit to the variant)").format(default_agents=DEFAULT_AGENTS))
    p.add_argument("--games", type=int, default=50, metavar="N",
                   help=_("games per cell and agent pair: the budget (default: 50)"))
    p.add_argument("--seed", type=int, default=0, help=_("sweep seed (default: 0)"))
    p.add_argument("--max-plies", type=int, default=DEFAULT_MAX_PLIES, metavar="N",
                   help=_("adjudicate as a draw after N plies (default: {default_max_plies})")
                            .format(default_max_plies=DEFAULT_MAX_PLIES))
    p.add_argument("--stop-width", type=float, default=None, metavar="W",
                   help=_("stop a cell once white's 95 %% score interval is narrower than W"))
    p.add_argument("--batch", type=int, default=20, metavar="N",
                   help=_("with --stop-width: games between two looks (default: 20)"))
    p.add_argument("--plan", action="store_true",
                   help=_("plan instead of sweeping: play a short trial (--trial games a cell), "
                          "then say how many games a cell detect a difference --effect in "
                          "--measure (power 0.8, two-sided alpha 0.05) and how long that takes "
                          "at the games/s the trial measured"))
    p.add_argument("--effect", type=float, default=None, metavar="D",
                   help=_("the difference of interest in --measure (e.g. 0.04 for four points "
                          "of white's score); with --plan or --until-decided"))
    p.add_argument("--measure", default="white_score",
                   choices=("white_score", "decisive", "draw", "length"),
                   help=_("the measure --plan and --until-decided are about (default: "
                          "white_score)"))
    p.add_argument("--trial", type=int, default=DEFAULT_TRIAL, metavar="N",
                   help=_("with --plan: trial games a cell (default: {default_trial})")
                            .format(default_trial=DEFAULT_TRIAL))
    p.add_argument("--until-decided", action="store_true",
                   help=_("play --batch games a cell at a time (up to --games) until the "
                          "difference in --measure is established or one as large as --effect "
                          "is excluded: between two cells, the --between pair, or every pair of "
                          "a bigger grid (a cell stops once its pairs are decided); the "
                          "repeated looks spend alpha 0.05 by the Lan-DeMets "
                          "O'Brien-Fleming-type function (each look tested at its increment of "
                          "alpha, split over the pairs by Holm's method)"))
    p.add_argument("--between", default=None, metavar="CELL_A,CELL_B",
                   help=_("with --until-decided: the one difference of interest, e.g. "
                          "'tavreli[splits=true,castling=true],tavreli[splits=false,"
                          "castling=true]' "
                          "(only those two cells are played)"))
    p.add_argument("--tune", action="store_true",
                   help=_("fit the playing evaluation's weights to each cell first (tavrei-lab "
                          "tune's self-play and Texel fit, on the same executor) for the agents "
                          "play:nodes=K,weights=fit; the fits are kept in --store, so a rerun "
                          "does not tune again. Measured: --tune-generations 1 --tune-games 30 "
                          "at 300 nodes took 139 s for tavreli[splits=true] on 2 cores shared "
                          "with other jobs (the defaults cost what tavrei-lab tune's do)"))
    p.add_argument("--tune-generations", type=int, default=DEFAULT_GENERATIONS, metavar="G",
                   help=_("with --tune: generations (default: {default_generations})")
                            .format(default_generations=DEFAULT_GENERATIONS))
    p.add_argument("--tune-games", type=int, default=DEFAULT_GAMES, metavar="N",
                   help=_("with --tune: games a generation (default: {default_games})")
                            .format(default_games=DEFAULT_GAMES))
    p.add_argument("--tune-nodes", type=int, default=DEFAULT_NODES, metavar="K",
                   help=_("with --tune: search nodes a move in the tune's games (default: "
                          "{default_nodes})").format(default_nodes=DEFAULT_NODES))
    p.add_argument("--strength-games", type=int, default=None, metavar="N",
                   help=_("games each agent plays against the reference player {reference} in "
                          "each cell, to state its Elo (default: {default}, or --games when "
                          "that is fewer; 0: not measured)")
                   .format(reference=REFERENCE_PLAYER, default=DEFAULT_STRENGTH_GAMES))
    p.add_argument("--strengths", default=None, metavar="K1,K2,...",
                   help=_("ask the question at each of these node budgets (the agents' nodes=K "
                          "set to each) and report per measure whether the sign and the "
                          "verdict hold at each: stable, or changes with strength"))
    p.add_argument("--store", default=None, metavar="FILE",
                   help=_("SQLite file keeping every game (a rerun resumes from it)"))
    p.add_argument("--replay-capped", action="store_true",
                   help=_("play every game of --store that the ply cap stopped on from where "
                          "it stopped (the same seed and agents, its stored moves first) to "
                          "--max-plies, keep them in the store beside the originals, and "
                          "print the tables with them in place of the capped games; a "
                          "difference that depended on them is then decided again"))
    add_run_options(p, out_help=_("write the tables (CSV, JSON) and plots (SVG) here"))
    p.set_defaults(run=run)


def resume_line(args: argparse.Namespace) -> str:
    """The command that resumes this sweep: the same one (the store has the rest)."""
    if not args.store:
        return _("run again with --store FILE to keep games and resume")
    return _("resume with: {command}").format(
        command="tavrei-lab " + shlex.join(getattr(args, "argv", None) or ["sweep"]))


def run(args: argparse.Namespace) -> int:
    bases = [b.strip() for item in (args.base or ["tavreli"]) for b in item.split(",")
             if b.strip()]
    if not bases:
        raise TavreiError(_("--base {value}: no variant named (give a variant id or a .toml "
                            "file)").format(value=repr(",".join(args.base))))
    grid = parse_grid_args(args.grid)
    if (args.plan or args.until_decided) and args.effect is None:
        raise TavreiError(_("--plan and --until-decided need --effect D (the difference of "
                            "interest)"))
    if args.between is not None and not args.until_decided:
        raise TavreiError(_("--between needs --until-decided"))
    if args.plan and args.until_decided:
        raise TavreiError(_("--plan and --until-decided: one at a time (plan first)"))
    tuning = _tuning(args)
    if args.replay_capped:
        return _replay(args)
    if not args.plan:                 # --plan writes no --out
        check_out(args.out, folder=True, entries=SWEEP_ENTRIES)
    if args.strengths is not None and args.plan:
        raise TavreiError(_("--strengths and --plan: one at a time (plan at one strength)"))
    if args.plan or args.until_decided:
        return _plan_or_decide(args, bases, grid, tuning)
    _strength_games(args)
    strengths = parse_strengths(args.strengths) if args.strengths is not None else None
    if strengths is not None:
        at_strength(args.agents, strengths[0])      # refused now, before any game
    try:
        with run_executor(args) as executor:
            def one(agents: list[str] | str) -> SweepResult:
                res = sweep(bases if len(bases) > 1 else bases[0], grid, agents=agents,
                            games=args.games, seed=args.seed, store=args.store,
                            max_plies=args.max_plies, stop_width=args.stop_width,
                            batch=args.batch, executor=executor,
                            workers=args.workers, progress=progress_mode(args), tune=tuning,
                            strength_games=args.strength_games)
                return res
            if strengths is not None:
                return _at_strengths(args, run_at_strengths(args.agents, strengths, one))
            result = one(args.agents)
    except SweepInterrupted as exc:   # printed here: the resume line must not be cut
        print(_("tavrei-lab {command}: error: {message}").format(
            command="sweep", message=one_line(f"{exc}; {resume_line(args)}", 4000)),
              file=sys.stderr, flush=True)
        return 2
    except KeyboardInterrupt as exc:
        kept = getattr(exc, "games_kept", None)
        if args.store:
            what = ngettext("{count} games of this sweep are kept",
                            "{count} games of this sweep are kept", kept).format(count=kept) \
                if kept is not None else _("the finished games are kept")
            print("\n" + _("interrupted: {what} in {store}; {resume}").format(
                what=what, store=args.store, resume=resume_line(args)),
                  file=sys.stderr, flush=True)
        else:
            print("\n" + _("interrupted: no --store, so no game is kept (add --store FILE to "
                           "keep games and resume)"), file=sys.stderr, flush=True)
        return 130
    _print_notes(result.notes)
    _print_tables(result.table)
    print(_("Piece values, every measure and the full tables: --out DIR "
            "(cells.csv, pieces.csv, differences.csv)"))
    total = sum(u.limit for u in result.units)
    print()
    games = ngettext("{count} games", "{count} games", total).format(count=total)
    cells_text = ngettext("{count} cells", "{count} cells", len(result.units)).format(
        count=len(result.units))
    print(_("{games} in {cells}: {played} played now, {stored} from the store").format(
        games=games, cells=cells_text, played=result.played, stored=total - result.played)
          + (f" ({args.store})" if args.store else ""))
    if tuning is not None:
        fitted = len({u.cell.name for u in result.units})
        print(ngettext("weights fit to {count} cells: {tuned} tuned now, {stored} from the store",
                       "weights fit to {count} cells: {tuned} tuned now, {stored} from the "
                       "store", fitted).format(count=fitted, tuned=result.tuned,
                                               stored=fitted - result.tuned))
    if args.out:
        written = save_run(result.save, args.out, "sweep")
        print(_wrote(len(written), args.out))
    return 0


def _print_notes(notes: list[str], indent: str = "") -> None:
    """A sweep's notes (players' strength, fits not played), each wrapped to the tables'
    WIDTH so the terminal output stays as wide as its tables."""
    for line in notes:
        print(textwrap.fill(line, WIDTH, initial_indent=indent,
                            subsequent_indent=indent + "    "))


def _strength_games(args: argparse.Namespace) -> None:
    """--strength-games as given, or its default: DEFAULT_STRENGTH_GAMES, or --games when
    that is fewer (a sweep of 4 games a cell does not play 20 more against the reference)."""
    if args.strength_games is None:
        args.strength_games = max(0, min(DEFAULT_STRENGTH_GAMES, args.games))
    if args.strength_games < 0:
        raise TavreiError(_("--strength-games must be 0 or more, got {value}")
                          .format(value=args.strength_games))


def _at_strengths(args: argparse.Namespace, results: dict[int, SweepResult]) -> int:
    """Print each budget's sweep (its notes and the differences), then the side-by-side
    report; --out gets the last budget's tables."""
    for nodes, res in results.items():
        print(_("at {nodes} nodes a move:").format(nodes=nodes))
        _print_notes(res.notes, "  ")
        print(established_summary(res.differences()))
        print()
    print(stability_text(across_strengths(results)))
    if args.out:
        written = save_run(list(results.values())[-1].save, args.out, "sweep")
        print(_wrote(len(written), args.out))
    return 0


def _replay(args: argparse.Namespace) -> int:
    """``--replay-capped``: play the store's capped games on, then its tables."""
    if not args.store:
        raise TavreiError(_("--replay-capped needs --store FILE (the games to play on)"))
    if not os.path.exists(args.store):
        raise TavreiError(_("{path}: no such results store").format(path=args.store))
    if args.plan or args.until_decided or args.out:
        raise TavreiError(_("--replay-capped plays the store's capped games on; give it "
                            "without --plan, --until-decided and --out (the sweep's own "
                            "command, run again, writes its tables with the played-on games)"))
    with run_executor(args) as executor:
        report = replay_capped(args.store, args.max_plies, executor=executor,
                               workers=args.workers, progress=progress_mode(args))
    print(report)
    _print_tables(ResultsTable.from_store(args.store))
    return 0


def _print_tables(table: ResultsTable) -> None:
    """The terminal's cells and differences tables of ``table`` and the sentence saying
    which differences are established: what a sweep and a replay of its capped games
    print alike."""
    cells, diffs = summary_table(table, WIDTH)
    print(cells.text(WIDTH))
    if diffs.rows:
        print()
        print(diffs.text(WIDTH))
    print()
    print(established_summary(table.differences()))


def _wrote(count: int, folder: str) -> str:
    return ngettext("wrote {count} files to {folder}", "wrote {count} files to {folder}",
                    count).format(count=count, folder=folder)


def _between(text: str | None) -> list[str] | None:
    """``A,B`` -> [A, B], where a cell name may hold commas inside its brackets."""
    if text is None:
        return None
    parts, depth, cur = [], 0, ""
    for ch in text:
        depth += (ch == "[") - (ch == "]")
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    parts.append(cur.strip())
    if len(parts) != 2 or not all(parts):
        raise TavreiError(_("--between {value}: expected two cell names, CELL_A,CELL_B").format(
            value=repr(text)))
    return parts


def _tuning(args: argparse.Namespace) -> dict[str, int] | None:
    """The sweep's tune settings from --tune and its --tune-* options."""
    given = [flag for flag, value, default in (
        ("--tune-generations", args.tune_generations, DEFAULT_GENERATIONS),
        ("--tune-games", args.tune_games, DEFAULT_GAMES),
        ("--tune-nodes", args.tune_nodes, DEFAULT_NODES)) if value != default]
    if not args.tune:
        if given:
            raise TavreiError(_("{flag} needs --tune").format(flag=given[0]))
        return None
    return {"generations": args.tune_generations, "games": args.tune_games,
            "nodes": args.tune_nodes}


def _plan_or_decide(args: argparse.Namespace, bases: list[str], grid: dict,
                    tuning: dict[str, int] | None = None) -> int:
    base = bases if len(bases) > 1 else bases[0]
    _strength_games(args)
    strengths = parse_strengths(args.strengths) if args.strengths is not None else None
    if strengths is not None:
        at_strength(args.agents, strengths[0])      # refused now, before any game
    with run_executor(args) as executor:
        common = dict(seed=args.seed, max_plies=args.max_plies,
                      executor=executor, workers=args.workers,
                      progress=progress_mode(args), tune=tuning)
        if args.plan:
            print(plan(base, grid, effect=args.effect, measure=args.measure,
                       trial=args.trial, store=args.store, agents=args.agents, **common))
            return 0

        def decide(agents: list[str] | str) -> SweepResult | None:
            decision = until_decided(base, grid, measure=args.measure, effect=args.effect,
                                     games=args.games, batch=args.batch, store=args.store,
                                     between=_between(args.between), agents=agents,
                                     **common)
            _print_looks(decision)
            if decision.result is not None and args.strength_games:
                measure_strength(decision.result, args.strength_games, executor=executor,
                                 workers=args.workers, progress=progress_mode(args))
            if decision.result is not None:
                _print_notes(decision.result.notes)
            print(decision)
            return decision.result

        if strengths is not None:
            results = {}
            for nodes in strengths:
                print(_("at {nodes} nodes a move:").format(nodes=nodes))
                res = decide(at_strength(args.agents, nodes))
                if res is not None:
                    results[nodes] = res
                print()
            print(stability_text(across_strengths(results)))
            last = list(results.values())[-1] if results else None
        else:
            last = decide(args.agents)
    if args.out and last is not None:
        written = save_run(last.save, args.out, "sweep")
        print(_wrote(len(written), args.out))
    return 0


def _print_looks(decision: Any) -> None:
    for look in decision.looks:
        if "pairs" not in look:
            print(_("look at {games:.0f} games a cell: p = {p:.3g} (alpha this look "
                    "{alpha:.3g}), interval at that level {low:+.3f} to {high:+.3f}").format(
                      games=look["games"], p=look["p"], alpha=look["alpha"], low=look["low"],
                      high=look["high"]))
            continue
        undecided = sum(1 for q in look["pairs"] if q["verdict"] == "undecided")
        print(ngettext("look at {games:.0f} games a cell: alpha this look {alpha:.3g} over "
                       "{count} pairs (Holm); {undecided} undecided",
                       "look at {games:.0f} games a cell: alpha this look {alpha:.3g} over "
                       "{count} pairs (Holm); {undecided} undecided", len(look["pairs"]))
              .format(games=look["games"], alpha=look["alpha"], count=len(look["pairs"]),
                      undecided=undecided))
