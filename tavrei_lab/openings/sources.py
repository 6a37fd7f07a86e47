"""Where an index's games come from: a results store, record files, the recorded
tournament games shipped with the package, and a book (``openings.book``)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from typing import Any

from tavrei_lab.data import recorded_games
from tavrei_lab.errors import TavreiError
from tavrei_lab.game import Game, read_games
from tavrei_lab.i18n import gettext as _
from tavrei_lab.lab.store import ResultsStore, open_store
from tavrei_lab.openings.index import IndexedGame, OpeningIndex, OpeningsError, game_line

#: The source name of the shipped tournament games.
TOURNAMENT = "tournament"


def store_lines(store: ResultsStore | str | os.PathLike[str], depth: int, *,
                settings: str | None = None) -> Iterator[IndexedGame]:
    """Each game of a results store (``lab.store``), replayed from its record under the
    rules it was played by; ``settings`` keeps one settings hash's games only. The
    stored result is the game's result (an adjudicated game's too)."""
    opened = store if isinstance(store, ResultsStore) else open_store(store)
    try:
        for stored in opened.games(settings):
            game = stored.replay()
            yield game_line(game, depth, result=stored.result.result,
                            source=f"store:{stored.cell}")
    finally:
        if opened is not store:
            opened.close()


def record_lines(source: str | os.PathLike[str], depth: int, *,
                 variant: Any = None) -> Iterator[IndexedGame]:
    """Each game of a record file (or record text) as ``read_games`` reads it."""
    for game in read_games(source, variant):
        yield game_line(game, depth, source="records")


def tournament_lines(depth: int) -> Iterator[IndexedGame]:
    """The twenty recorded tournament games (``data.recorded_games``), under the
    ``tavreli`` rules. Their results were mostly not published: a game that ends in
    mate has its result, the others count as unknown."""
    for item in recorded_games():
        game = Game("tavreli")
        try:
            game.play(item["moves"])
        except TavreiError as exc:   # the shipped data is checked by its own tests
            raise OpeningsError(_("recorded game {n} does not replay: {why}").format(
                n=item["n"], why=exc)) from None
        yield game_line(game, depth, source=TOURNAMENT)


def build_index(*, store: ResultsStore | str | os.PathLike[str] | None = None,
                records: Iterable[str | os.PathLike[str]] = (),
                games: Iterable[Game] = (), tournament: bool = False,
                book: Any = None, depth: int = 12, name: str = "",
                eval_nodes: int | None = None, eval_min_games: int = 1) -> OpeningIndex:
    """An opening index over all the games given: a results store (an open
    ``ResultsStore`` or its path), record files, ``Game`` objects, the recorded
    tournament games, a book (``openings.book.Book``), to ``depth`` plies.
    ``eval_nodes`` gives each position with at least ``eval_min_games`` games the
    engine's node-limited figure (the same for the same position, always).

    >>> index = build_index(tournament=True, depth=2)
    >>> index.entry_after("").tally.games
    20
    """
    index = OpeningIndex(depth, name=name)
    if store is not None:
        index.add_lines(store_lines(store, depth))
    for path in records:
        index.add_lines(record_lines(path, depth))
    index.add_games(games, source="games")
    if tournament:
        index.add_lines(tournament_lines(depth))
    if book is not None:
        index.add_lines(book.lines(depth))
    if eval_nodes is not None:
        index.evaluate(eval_nodes, min_games=eval_min_games)
    return index
