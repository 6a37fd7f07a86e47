"""An opening book built by self-play: many games between two node-limited players,
their first plies kept, with everything needed to build it again.

**How the first plies are varied.** Two players that search alike play one game
over and over from the start. So each game opens by a stated rule: game ``i``'s
first move is white's ``i mod n``-th legal move (the legal moves sorted by their
text), so every first move is covered evenly and in order; black's first reply is
drawn uniformly from its legal replies by the game's own seed
(``derive_seed(seed, i, "reply")``). From the third ply on the players play, each
with its node budget and its evaluation blurred by ``noise`` centipawns, seeded per
game and side. Nothing depends on a clock or on which worker played the game: the
same settings and seed give the same games, on one process, on several or on a
dask cluster (``same_games``).

**Bounded.** A game is kept as its first ``keep_plies`` moves (text), its result,
why it ended and its length: a book of ``games`` games is at most about
``games * keep_plies * 8`` bytes of move text.

**Resumable, and grown.** Each finished game is appended (one JSON line) to a journal
beside the book (``BOOK.journal``) as it comes back; a build started again with the
same settings reads the journal and plays only the games that are missing, and the
book file is written once every game is in, the journal then removed. Game ``i`` does
not depend on how many games the book has, so a build with more ``games`` over a
finished book of the same other settings keeps its games and plays only the new ones.
A journal of other settings is refused, not mixed in.

**Provenance.** The book file carries the players, the settings and their hash, the
seed, the date and the package version, the games per second it was built at and
how it was built (``command``).
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import random
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, as_completed
from dataclasses import asdict, dataclass, field
from importlib import resources
from typing import Any

from tavrei_lab.core.files import write_atomically
from tavrei_lab.core.reading import read_regular
from tavrei_lab.engine.agents import make_agent
from tavrei_lab.engine.selfplay import GameLimits, play_out
from tavrei_lab.errors import quote
from tavrei_lab.game import Game
from tavrei_lab.i18n import gettext as _
from tavrei_lab.lab.parallel import resolve_executor
from tavrei_lab.lab.runner import derive_seed
from tavrei_lab.openings.index import IndexedGame, OpeningsError, game_line

#: The book file's format name and version.
BOOK_FORMAT = "tavrei-lab opening book"
BOOK_VERSION = 1
#: The most games a book may hold, and the most plies a game keeps: the bound on its size.
MAX_BOOK_GAMES = 100_000
MAX_KEEP_PLIES = 40
#: Largest book file read.
MAX_BOOK_BYTES = 64 << 20
#: The shipped book (``shipped_book``), in the package's data.
SHIPPED_BOOK = "book_tavreli.json"


class BookStopped(OpeningsError):
    """A build that reached its time limit: its games are in the journal, and the same
    call goes on from there."""


@dataclass(frozen=True)
class BookSettings:
    """Everything that decides a book's games."""

    variant: str = "tavreli"
    player: str = "play:nodes=300,noise=10"   # both sides: an agent spec
    games: int = 200
    seed: int = 1
    max_plies: int = 200
    keep_plies: int = 16

    def check(self) -> None:
        if not 1 <= self.games <= MAX_BOOK_GAMES:
            raise OpeningsError(_("a book holds 1..{most} games, not {games}").format(
                most=MAX_BOOK_GAMES, games=self.games))
        if not 2 <= self.keep_plies <= MAX_KEEP_PLIES:
            raise OpeningsError(_("a book keeps 2..{most} plies of each game, not {plies}")
                                .format(most=MAX_KEEP_PLIES, plies=self.keep_plies))
        if not self.keep_plies <= self.max_plies <= 2000:
            raise OpeningsError(_("a book game's ply limit is {low}..2000, not {plies}").format(
                low=self.keep_plies, plies=self.max_plies))
        Game(self.variant)
        make_agent(self.player, seed=0)

    def hash(self) -> str:
        text = json.dumps({"format": BOOK_FORMAT, "version": BOOK_VERSION, **asdict(self)},
                          sort_keys=True)
        return hashlib.blake2b(text.encode("utf-8"), digest_size=8).hexdigest()

    def games_hash(self) -> str:
        """The hash of what decides each game, without how many games there are: game
        ``i`` is the same in a book of any size, so a journal or a book of these games
        may be grown into a larger book."""
        kept = {k: v for k, v in asdict(self).items() if k != "games"}
        text = json.dumps({"format": BOOK_FORMAT, "version": BOOK_VERSION, **kept},
                          sort_keys=True)
        return hashlib.blake2b(text.encode("utf-8"), digest_size=8).hexdigest()


@dataclass(frozen=True)
class BookGame:
    """One game of a book: its number, first plies, result, why it ended, length."""

    index: int
    moves: tuple[str, ...]
    result: str
    termination: str
    plies: int

    def as_list(self) -> list[Any]:
        return [self.index, " ".join(self.moves), self.result, self.termination, self.plies]

    @classmethod
    def from_list(cls, item: Any, where: str) -> BookGame:
        try:
            index, moves, result, termination, plies = item
            return cls(int(index), tuple(str(moves).split()), str(result), str(termination),
                       int(plies))
        except (TypeError, ValueError):
            raise OpeningsError(_("{where}: a book game is [number, moves, result, ending, "
                                  "plies], not {value}").format(
                where=where, value=repr(item)[:60])) from None


def opening(settings: BookSettings, index: int) -> list[str]:
    """Game ``index``'s first two plies, by the rule in the module's note."""
    game = Game(settings.variant)
    firsts = sorted(game.move_text(m) for m in game.legal_moves)
    game.play(firsts[index % len(firsts)])
    if game.is_game_over():
        return [firsts[index % len(firsts)]]
    replies = sorted(game.move_text(m) for m in game.legal_moves)
    pick = random.Random(derive_seed(settings.seed, index, "reply")).choice(replies)
    return [firsts[index % len(firsts)], pick]


def play_book_game(settings: BookSettings, index: int) -> BookGame:
    """Play game ``index`` of the book (top level, so any executor can run it)."""
    game = Game(settings.variant, seed=derive_seed(settings.seed, index, "game"))
    game.play(" ".join(opening(settings, index)))
    players = (make_agent(settings.player, seed=derive_seed(settings.seed, index, "white")),
               make_agent(settings.player, seed=derive_seed(settings.seed, index, "black")))
    end = play_out(game, players, GameLimits(max_plies=settings.max_plies))
    line = game_line(game, settings.keep_plies, result=end.result)
    return BookGame(index, tuple(line.moves), end.result, end.reason, int(game.ply))


@dataclass
class Book:
    """A built book: its settings, provenance and games (see the module's note)."""

    settings: BookSettings
    games: list[BookGame]
    provenance: dict[str, Any] = field(default_factory=dict)

    def lines(self, depth: int) -> Iterator[IndexedGame]:
        """Each game as the opening index reads it, to ``depth`` plies (at most the
        plies the book kept)."""
        for g in self.games:
            game = Game(self.settings.variant)
            game.play(" ".join(g.moves[:depth]))
            line = game_line(game, depth, result=g.result, source="book")
            yield IndexedGame(line.rules, line.positions, line.moves, g.result, g.plies, "book")

    def same_games(self, other: Book) -> bool:
        """Whether two books hold the same games under the same settings (what the
        seed promises: the date and the speed may differ)."""
        return self.settings == other.settings and self.games == other.games

    def to_json(self) -> dict[str, Any]:
        return {"format": BOOK_FORMAT, "version": BOOK_VERSION,
                "settings": asdict(self.settings), "settings_hash": self.settings.hash(),
                "provenance": self.provenance,
                "games": [g.as_list() for g in sorted(self.games, key=lambda g: g.index)]}

    @classmethod
    def from_json(cls, doc: Any, where: str = "book") -> Book:
        if not isinstance(doc, dict) or doc.get("format") != BOOK_FORMAT:
            raise OpeningsError(_("{where}: not an opening book (no \"format\": "
                                  "\"{format}\")").format(where=where, format=BOOK_FORMAT))
        try:
            settings = BookSettings(**doc["settings"])
            games = [BookGame.from_list(item, f"{where}: game {n + 1}")
                     for n, item in enumerate(doc["games"])]
            provenance = dict(doc.get("provenance", {}))
        except (KeyError, TypeError) as exc:
            raise OpeningsError(_("{where}: a damaged opening book ({why})").format(
                where=where, why=f"{type(exc).__name__}: {exc}"[:120])) from None
        if doc.get("settings_hash") != settings.hash():
            raise OpeningsError(_("{where}: the book's settings do not match its settings "
                                  "hash").format(where=where))
        return cls(settings, games, provenance)

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> Book:
        shown = quote(os.fsdecode(path), 200)

        def refused(why: str) -> OpeningsError:
            return OpeningsError(_("{path}: {why}").format(path=shown, why=why))

        raw = read_regular(path, MAX_BOOK_BYTES, refused)
        try:
            doc = json.loads(raw.decode("utf-8"))
        except ValueError as exc:
            raise refused(_("not JSON ({why})").format(why=str(exc)[:80])) from None
        return cls.from_json(doc, shown)

    def write(self, path: str | os.PathLike[str]) -> None:
        write_atomically(path, json.dumps(self.to_json(), ensure_ascii=False,
                                          separators=(",", ":")) + "\n")


def cpu_seconds() -> float:
    """CPU seconds of this process and of its finished child processes (a process
    pool's workers count once the pool is shut down); a dask cluster's workers are
    not counted. Where ``resource`` is missing (Windows, Pyodide), this process only."""
    try:
        import resource
    except ImportError:
        return time.process_time()
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def shipped_book() -> Book:
    """The small book shipped with the package (its provenance says how it was made)."""
    text = resources.files("tavrei_lab.data").joinpath(SHIPPED_BOOK).read_text(encoding="utf-8")
    return Book.from_json(json.loads(text), SHIPPED_BOOK)


def _run(executor: Any, workers: int | None, games: int, started: float,
         cpu: float) -> dict[str, Any]:
    """One run's figures, for the provenance: games played, where, wall and CPU time."""
    seconds = time.perf_counter() - started
    where = executor if isinstance(executor, str) else type(executor).__name__
    return {"games": games, "executor": where, "workers": workers,
            "seconds": round(seconds, 1), "cpu_seconds": round(cpu_seconds() - cpu, 1),
            "games_per_second": round(games / seconds, 4) if seconds else None}


def journal_path(path: str | os.PathLike[str]) -> str:
    return os.fsdecode(path) + ".journal"


def _read_journal(journal: str,
                  settings: BookSettings) -> tuple[dict[int, BookGame], list[Any]]:
    """The games a stopped build left in its journal, and the figures of the runs that
    stopped (none if there is no journal)."""
    if not os.path.exists(journal):
        return {}, []
    done: dict[int, BookGame] = {}
    runs: list[Any] = []
    with open(journal, encoding="utf-8") as f:
        lines = f.read().splitlines()
    if not lines:
        return {}, []
    if lines[0] != settings.games_hash():
        raise OpeningsError(_("{path} holds the games of other settings ({theirs}, these are "
                              "{ours}): remove it or build with its settings").format(
            path=quote(journal, 200), theirs=lines[0][:20], ours=settings.games_hash()))
    for n, line in enumerate(lines[1:], 2):
        try:
            item = json.loads(line)
            if isinstance(item, dict) and isinstance(item.get("run"), dict):
                runs.append(item["run"])
                continue
            game = BookGame.from_list(item, f"{journal}:{n}")
        except (ValueError, OpeningsError):
            continue          # a line cut short by a stop: that game is played again
        if game.index < settings.games:
            done[game.index] = game
    return done, runs


def _grown_from(path: str | os.PathLike[str],
                settings: BookSettings) -> tuple[dict[int, BookGame], list[Any]]:
    """The games of the book already at ``path`` when it holds these settings' games
    (any number of them), and its runs: a book is grown, not played again."""
    if not os.path.isfile(path):
        return {}, []
    try:
        book = Book.read(path)
    except OpeningsError:
        return {}, []    # not a book: the command line refuses to overwrite it before this
    if book.settings.games_hash() != settings.games_hash():
        return {}, []
    return ({g.index: g for g in book.games if g.index < settings.games},
            list(book.provenance.get("runs", [])))


def build_book(settings: BookSettings, path: str | os.PathLike[str], *,
               executor: Executor | str | None = "processes", workers: int | None = None,
               command: str = "", note: str = "", time_limit: float | None = None,
               on_game: Callable[[int, int], None] | None = None) -> Book:
    """Build (or finish) the book ``settings`` describe into the file ``path``,
    resuming from its journal; see the module's note. ``executor``: ``"processes"``
    (the default), ``"threads"``, ``"inline"``, an ``Executor`` or a dask
    ``Client``. ``note`` is kept in the provenance (what the book is, how to build a
    larger one). ``time_limit`` (seconds): past it, no new game starts, the games
    running are finished and kept, the run's figures go into the journal, and
    ``BookStopped`` says how far it got. ``on_game(done, total)`` is told of each
    finished game."""
    settings.check()
    journal = journal_path(path)
    grown, runs = _grown_from(path, settings)
    journaled, stopped_runs = _read_journal(journal, settings)
    done = {**grown, **journaled}
    runs += stopped_runs
    deadline = None if time_limit is None else time.monotonic() + time_limit
    played = 0
    todo = [i for i in range(settings.games) if i not in done]
    started, cpu = time.perf_counter(), cpu_seconds()
    if todo:
        pool, owned = resolve_executor(executor, workers)
        new = not os.path.exists(journal) or os.path.getsize(journal) == 0
        try:
            with open(journal, "w" if new else "a", encoding="utf-8") as out:
                if new:
                    out.write(settings.games_hash() + "\n")
                    out.flush()
                futures = [pool.submit(play_book_game, settings, i) for i in todo]
                for future in as_completed(futures):
                    if future.cancelled():
                        continue
                    game = future.result()
                    done[game.index] = game
                    played += 1
                    out.write(json.dumps(game.as_list()) + "\n")
                    out.flush()
                    if on_game is not None:
                        on_game(len(done), settings.games)
                    if deadline is not None and time.monotonic() > deadline:
                        for waiting in futures:
                            waiting.cancel()
        finally:
            if owned:
                pool.shutdown(wait=True, cancel_futures=True)
        if len(done) < settings.games:   # after the shutdown: the workers' CPU is counted
            with open(journal, "a", encoding="utf-8") as out:
                out.write(json.dumps({"run": _run(executor, workers, played, started,
                                                  cpu)}) + "\n")
    if len(done) < settings.games:
        raise BookStopped(_("stopped at the time limit with {done} of {total} games (kept in "
                            "{journal}); the same command goes on").format(
            done=len(done), total=settings.games, journal=quote(journal, 200)))
    seconds = time.perf_counter() - started
    used = cpu_seconds() - cpu
    if todo:
        runs.append(_run(executor, workers, played, started, cpu))
    from tavrei_lab import __version__
    provenance = {
        "players": {"white": settings.player, "black": settings.player},
        "seed": settings.seed, "settings_hash": settings.hash(),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
        "code_version": __version__, "games_played_now": len(todo),
        "seconds": round(seconds, 1),
        "games_per_second": round(len(todo) / seconds, 3) if todo and seconds > 0 else None,
        "cpu_seconds": round(used, 1),
        "runs": runs,
        "openings": _("first move: every legal first move in turn (game i plays the "
                      "(i mod n)-th in text order); black's first reply: uniform over its "
                      "legal replies by the game's seed; then both players, noise seeded per "
                      "game and side"),
        "command": command,
        "note": note,
    }
    book = Book(settings, [done[i] for i in range(settings.games)], provenance)
    book.write(path)
    if os.path.exists(journal):
        os.remove(journal)
    return book

