"""``tavrei-lab openings build|show|export|book``: the opening explorer on the command line.

``build`` counts the games of a results store (``--store``), record files
(``--records``), the recorded tournament games (``--tournament``) and a book
(``--book``, ``--shipped-book``) into an index
file (``--out``); ``show`` prints one position's table (the position after
``--moves``) from an index file (``--index``) or straight from the sources;
``export`` writes every position's table as JSON; ``book`` builds an opening book
by self-play (``openings.book``) on local processes or a dask cluster.

A file ``--out`` names is written only if it is new or one this command wrote (an
index or an export): anything else there is a user's file, and is left alone.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from tavrei_lab.cli.common import (
    add_run_options,
    add_variant,
    check_out,
    print_json,
    run_executor,
    wants_progress_lines,
    write_output,
)
from tavrei_lab.errors import ArgumentError, OutputError, quote
from tavrei_lab.i18n import gettext as _
from tavrei_lab.openings.index import (
    FORMAT,
    MAX_DEPTH,
    Entry,
    OpeningIndex,
    entry_table,
    read_index,
)

#: What ``export`` writes in its ``format`` field (``build``'s index says ``FORMAT``).
EXPORT_FORMAT = "tavrei-lab openings export"
#: The node budget of the engine's figure by default: a few hundredths of a second a
#: position in the compiled build, so an index of a thousand positions takes a minute.
DEFAULT_EVAL_NODES = 300


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("openings", help=_("the opening explorer: build an index of the first "
                                          "plies of many games, show a position, export"))
    inner = p.add_subparsers(dest="openings_command", metavar="{build,show,export,book}")
    inner.required = True
    build = inner.add_parser("build", help=_("count the games into an index file"))
    _add_sources(build)
    build.add_argument("--out", required=True, metavar="FILE",
                       help=_("the index file to write (JSON)"))
    build.set_defaults(run=run_build)
    show = inner.add_parser("show", help=_("print the moves played from one position"))
    _add_sources(show)
    show.add_argument("--index", default=None, metavar="FILE",
                      help=_("read this index file (made by `openings build`) instead of "
                             "counting the sources"))
    show.add_argument("--moves", default="", metavar="MOVETEXT",
                      help=_('the position after these moves, e.g. "e2-e3 e7-e6"'))
    add_variant(show)
    show.add_argument("--json", action="store_true", help=_("print one JSON object"))
    show.set_defaults(run=run_show)
    export = inner.add_parser("export", help=_("write every position's moves and figures "
                                               "as JSON"))
    _add_sources(export)
    export.add_argument("--index", default=None, metavar="FILE",
                        help=_("read this index file instead of counting the sources"))
    export.add_argument("--out", required=True, metavar="FILE",
                        help=_("the JSON file to write (- for standard output)"))
    export.set_defaults(run=run_export)
    book = inner.add_parser("book", help=_("build an opening book by self-play (resumable: "
                                           "run it again to finish a stopped build)"))
    from tavrei_lab.openings.book import BookSettings
    defaults = BookSettings()
    book.add_argument("--games", type=int, default=defaults.games, metavar="N",
                      help=_("games in the book (default {n})").format(n=defaults.games))
    book.add_argument("--seed", type=int, default=defaults.seed, metavar="N",
                      help=_("the book's seed: the same seed builds the same book"))
    book.add_argument("--player", default=defaults.player, metavar="SPEC",
                      help=_("the agent playing both sides (default {spec})").format(
                          spec=defaults.player))
    book.add_argument("--max-plies", type=int, default=defaults.max_plies, metavar="N",
                      help=_("plies before a game is adjudicated a draw (default {n})").format(
                          n=defaults.max_plies))
    book.add_argument("--keep-plies", type=int, default=defaults.keep_plies, metavar="N",
                      help=_("plies of each game the book keeps (default {n})").format(
                          n=defaults.keep_plies))
    book.add_argument("--time-limit", type=float, default=None, metavar="SECONDS",
                      help=_("stop starting games after this long; the games played are "
                             "kept and the same command goes on"))
    book.add_argument("--note", default="", metavar="TEXT",
                      help=_("a sentence kept in the book's provenance (what it is, how a "
                             "larger one is built)"))
    add_variant(book)
    add_run_options(book, out_help=_("the book file to write (JSON)"))
    book.set_defaults(run=run_book)


def _add_sources(p: argparse.ArgumentParser) -> None:
    p.add_argument("--store", default=None, metavar="FILE",
                   help=_("a results store (SQLite) of the variant lab"))
    p.add_argument("--records", nargs="+", default=[], metavar="FILE",
                   help=_("record files, each of one or more games"))
    p.add_argument("--tournament", action="store_true",
                   help=_("the twenty recorded tournament games shipped with the package"))
    p.add_argument("--book", default=None, metavar="FILE",
                   help=_("an opening book file (made by `openings book`)"))
    p.add_argument("--shipped-book", action="store_true",
                   help=_("the small opening book shipped with the package"))
    p.add_argument("--depth", type=int, default=12, metavar="N",
                   help=_("plies to index, 1..{most} (default 12)").format(most=MAX_DEPTH))
    p.add_argument("--eval-nodes", type=int, default=DEFAULT_EVAL_NODES, metavar="N",
                   help=_("the engine's node budget for each position's figure, 0 for none "
                          "(default {nodes})").format(nodes=DEFAULT_EVAL_NODES))
    p.add_argument("--eval-min-games", type=int, default=2, metavar="N",
                   help=_("give the figure only to positions with at least N games "
                          "(default 2)"))


def _has_sources(args: argparse.Namespace) -> bool:
    return bool(args.store or args.records or args.tournament or args.book
                or args.shipped_book)


def index_from_args(args: argparse.Namespace) -> OpeningIndex:
    """The index the arguments name: an index file, or the sources counted now."""
    if getattr(args, "index", None) is not None:
        if _has_sources(args):
            raise ArgumentError(_("--index reads a built index: give it without --store, "
                                  "--records, --tournament or a book"))
        return read_index(args.index)
    if not _has_sources(args):
        raise ArgumentError(_("no games: give --store, --records, --tournament, --book or "
                              "--shipped-book"))
    if not 1 <= args.depth <= MAX_DEPTH:
        raise ArgumentError(_("--depth must be 1..{most}, got {depth}").format(
            most=MAX_DEPTH, depth=args.depth))
    if args.eval_nodes != 0 and args.eval_nodes < 10:
        raise ArgumentError(_("--eval-nodes must be 0 (no figure) or at least 10, got "
                              "{nodes}").format(nodes=args.eval_nodes))
    if args.eval_min_games < 1:
        raise ArgumentError(_("--eval-min-games must be 1 or more, got {n}").format(
            n=args.eval_min_games))
    for path in [args.store, args.book, *args.records]:
        if path is not None and not os.path.isfile(path):
            raise ArgumentError(_("{path}: no such file").format(path=quote(path, 200)))
    from tavrei_lab.openings.book import Book, shipped_book
    from tavrei_lab.openings.sources import build_index
    book = Book.read(args.book) if args.book else shipped_book() if args.shipped_book else None
    return build_index(store=args.store, records=args.records, tournament=args.tournament,
                       book=book, depth=args.depth,
                       eval_nodes=args.eval_nodes or None, eval_min_games=args.eval_min_games)


def check_ours(out: str) -> None:
    """Refuse ``--out`` naming a file this command did not write: an existing regular
    file is replaced only if it is an openings index or export."""
    check_out(out, folder=False)
    if out == "-" or not os.path.isfile(out):
        return
    try:
        with open(out, encoding="utf-8") as f:
            doc = json.loads(f.read(1 << 26))
        ours = isinstance(doc, dict) and doc.get("format") in (FORMAT, EXPORT_FORMAT)
    except (OSError, ValueError):
        ours = False
    if not ours:
        raise OutputError(_("--out {path} is a file this command did not write; it is left "
                            "as it is: name a new file").format(path=quote(out, 200)))


def run_build(args: argparse.Namespace) -> int:
    check_ours(args.out)
    index = index_from_args(args)
    write_output(args.out, json.dumps(index.to_json(), ensure_ascii=False) + "\n")
    print(_("{out}: {positions} positions of {games} games to {depth} plies").format(
        out=args.out, positions=len(index), games=index.games(), depth=index.depth))
    return 0


def run_show(args: argparse.Namespace) -> int:
    from tavrei_lab.game import Game
    game = Game(args.variant or "tavreli")   # the moves are checked before any counting
    if args.moves:
        game.play(args.moves)
    entry = index_from_args(args).entry(game.position)
    if args.json:
        print_json(export_entry(entry) if entry is not None else None)
        return 0
    if entry is None:
        print(_("no game of the index reached this position"))
        return 0
    sys.stdout.write(entry_table(entry) + "\n")
    return 0


def run_export(args: argparse.Namespace) -> int:
    check_ours(args.out)
    index = index_from_args(args)
    doc = {"format": EXPORT_FORMAT, "depth": index.depth, "sources": index.sources,
           "rules": index.rules,
           "positions": [export_entry(e) for e in sorted(index, key=lambda e: (e.ply, e.rules,
                                                                             e.key))]}
    write_output(args.out, json.dumps(doc, ensure_ascii=False, indent=1) + "\n")
    if args.out != "-":
        print(_("{out}: {positions} positions").format(out=args.out, positions=len(index)))
    return 0


def export_entry(entry: Entry) -> dict[str, Any]:
    """One position's table as plain values."""
    return {"position": entry.position, "rules": entry.rules, "ply": entry.ply,
            **entry.tally.row(), "evaluation": entry.evaluation, "moves": entry.move_rows()}


def run_book(args: argparse.Namespace) -> int:
    from tavrei_lab.openings.book import BOOK_FORMAT, BookSettings, BookStopped, build_book
    if not args.out:
        raise ArgumentError(_("--out names the book file to write"))
    settings = BookSettings(variant=args.variant or "tavreli", player=args.player,
                            games=args.games, seed=args.seed, max_plies=args.max_plies,
                            keep_plies=args.keep_plies)
    settings.check()
    check_out(args.out, folder=False)
    if os.path.isfile(args.out):
        try:
            with open(args.out, encoding="utf-8") as f:
                ours = json.loads(f.read(1 << 26)).get("format") == BOOK_FORMAT
        except (OSError, ValueError, AttributeError):
            ours = False
        if not ours:
            raise OutputError(_("--out {path} is a file this command did not write; it is "
                                "left as it is: name a new file").format(
                path=quote(args.out, 200)))
    lines = wants_progress_lines(args)

    def told(done: int, total: int) -> None:
        if lines and (done == total or done % max(1, total // 20) == 0):
            print(_("{done}/{total} games").format(done=done, total=total), file=sys.stderr)

    with run_executor(args) as executor:
        try:
            book = build_book(settings, args.out, executor=executor, workers=args.workers,
                              command="tavrei-lab " + " ".join(args.argv),
                              note=args.note, time_limit=args.time_limit, on_game=told)
        except BookStopped as stopped:
            print(stopped)
            return 0
    print(_("{out}: {games} games, settings {hash}, {rate} games a second").format(
        out=args.out, games=len(book.games), hash=settings.hash(),
        rate=book.provenance["games_per_second"]))
    return 0
