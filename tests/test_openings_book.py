"""The opening book: the same settings and seed build the same games wherever they
run (one process, a pool, a dask cluster), a stopped build resumes to the same book,
the file carries its provenance, and what the book says is only what its tests say."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tavrei_lab.lab.differences import holm, score_test
from tavrei_lab.openings import OpeningIndex, OpeningsError, build_index
from tavrei_lab.openings.book import (
    Book,
    BookSettings,
    build_book,
    journal_path,
    opening,
    shipped_book,
)
from tavrei_lab.openings.verdict import what_the_book_says

TINY = BookSettings(games=6, player="play:nodes=20,noise=10", seed=5, max_plies=30,
                    keep_plies=8)


@pytest.fixture(scope="module")
def inline_book(tmp_path_factory: pytest.TempPathFactory) -> Book:
    return build_book(TINY, tmp_path_factory.mktemp("book") / "book.json", executor="inline")


def test_the_same_seed_builds_the_same_book_in_one_process_and_in_a_pool(
        inline_book: Book, tmp_path: Path) -> None:
    pooled = build_book(TINY, tmp_path / "b.json", executor="processes", workers=2)
    assert pooled.same_games(inline_book)
    assert [g.index for g in pooled.games] == list(range(TINY.games))
    other = build_book(BookSettings(**{**TINY.__dict__, "seed": 6}), tmp_path / "c.json",
                       executor="inline")
    assert not other.same_games(inline_book)


def test_first_moves_are_covered_evenly_and_in_order() -> None:
    from tavrei_lab import Game
    game = Game()
    legal = sorted(game.move_text(m) for m in game.legal_moves)
    n = len(legal)
    assert [opening(TINY, i)[0] for i in range(2 * n)] == legal * 2
    replies = {opening(TINY, i)[1] for i in range(0, 40 * n, n)}   # one first move
    assert len(replies) > 5                          # the reply is drawn, not fixed
    assert opening(TINY, 7) == opening(TINY, 7)


@pytest.fixture()
def dask_client():  # type: ignore[no-untyped-def]
    distributed = pytest.importorskip("distributed",
                                      reason="the [cluster] extra (make setup installs it)")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=":0", silence_logs=40)
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


def test_a_book_built_on_a_dask_cluster_equals_the_local_one(inline_book: Book, dask_client,
                                                            tmp_path: Path) -> None:
    on_cluster = build_book(TINY, tmp_path / "d.json", executor=dask_client)
    assert on_cluster.same_games(inline_book)


def test_a_stopped_build_resumes_to_the_same_book(inline_book: Book, tmp_path: Path) -> None:
    path = tmp_path / "book.json"

    def stop(done: int, total: int) -> None:
        if done == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        build_book(TINY, path, executor="inline", on_game=stop)
    assert not path.exists() and Path(journal_path(path)).exists()
    finished = build_book(TINY, path, executor="inline")
    assert finished.provenance["games_played_now"] == TINY.games - 2
    assert finished.same_games(inline_book)
    assert not Path(journal_path(path)).exists()


def test_a_journal_of_other_settings_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "book.json"
    Path(journal_path(path)).write_text("0123456789abcdef\n")
    with pytest.raises(OpeningsError, match="games of other settings"):
        build_book(TINY, path, executor="inline")


def test_the_book_file_carries_its_provenance_and_reads_back(inline_book: Book,
                                                              tmp_path: Path) -> None:
    path = tmp_path / "book.json"
    inline_book.write(path)
    doc = json.loads(path.read_text())
    prov = doc["provenance"]
    assert prov["players"] == {"white": TINY.player, "black": TINY.player}
    assert prov["seed"] == 5 and prov["settings_hash"] == TINY.hash() == doc["settings_hash"]
    assert prov["code_version"] and prov["date"]
    assert Book.read(path).same_games(inline_book)
    assert all(len(g.moves) <= TINY.keep_plies for g in inline_book.games)
    doc["settings"]["seed"] = 9
    path.write_text(json.dumps(doc))
    with pytest.raises(OpeningsError, match="do not match its settings hash"):
        Book.read(path)


def test_a_book_is_indexed_like_any_games(inline_book: Book) -> None:
    index = build_index(book=inline_book, depth=4)
    start = index.entry_after("")
    assert start is not None and start.tally.games == TINY.games
    results = [g.result for g in inline_book.games]
    assert start.tally.white == results.count("1-0")
    assert start.tally.black == results.count("0-1")


def test_a_move_is_called_better_only_when_the_holm_corrected_test_says_so() -> None:
    index = OpeningIndex(depth=2)
    from tavrei_lab import Game

    def games(first: str, result: str, n: int) -> list[Game]:
        out = []
        for _ in range(n):
            g = Game()
            g.play(first)
            g.tags["Result"] = result
            out.append(g)
        return out

    index.add_games(games("e2-e3", "1-0", 30) + games("d2-d3", "0-1", 30)
                    + games("c2-c3", "1-0", 3) + games("c2-c3", "0-1", 2)
                    + games("b2-b3", "1-0", 2) + games("b2-b3", "0-1", 3))
    (verdict,) = what_the_book_says(index, min_games=5)
    family = [c.p for c in verdict.comparisons]
    assert [c.p_holm for c in verdict.comparisons] == holm(family)
    called = {(c.first, c.second) for c in verdict.better()}
    assert ("e2-e3", "d2-d3") in called
    assert ("c2-c3", "b2-b3") not in called            # 3/5 against 2/5: not established
    for c in verdict.comparisons:
        assert c.established == (c.p_holm < 0.05)
    pair = next(c for c in verdict.comparisons if (c.first, c.second) == ("e2-e3", "d2-d3"))
    assert pair.p == score_test(30, 30, 0, 30)
    assert verdict.moves[0].move == "e2-e3"
    mine = [c for c in verdict.comparisons if "e2-e3" in (c.first, c.second)]
    assert all(c.established and c.first == "e2-e3" for c in mine)
    assert verdict.best_established() == "e2-e3"        # established against every other
    del index.entries[(verdict.entry.rules, verdict.entry.key)].moves["e2-e3"]
    (without,) = what_the_book_says(index, min_games=5)
    assert without.best_established() is None           # d2-d3 is beaten, not beating


def test_the_shipped_book_is_small_and_says_how_it_was_made() -> None:
    book = shipped_book()
    assert book.games and len(book.games) == book.settings.games
    assert book.provenance["command"].startswith("tavrei-lab openings book")
    assert book.provenance["settings_hash"] == book.settings.hash()


def test_a_book_grows_by_playing_only_its_new_games(inline_book: Book, tmp_path: Path) -> None:
    path = tmp_path / "book.json"
    small = build_book(BookSettings(**{**TINY.__dict__, "games": 3}), path, executor="inline")
    assert small.games == inline_book.games[:3]          # game i does not depend on the size
    grown = build_book(TINY, path, executor="inline")
    assert grown.provenance["games_played_now"] == TINY.games - 3
    assert grown.same_games(inline_book)
    assert [run["games"] for run in grown.provenance["runs"]] == [3, TINY.games - 3]


def test_a_time_limit_stops_a_build_that_the_same_call_finishes(inline_book: Book,
                                                                 tmp_path: Path) -> None:
    from tavrei_lab.openings.book import BookStopped
    path = tmp_path / "book.json"
    with pytest.raises(BookStopped, match="the same command goes on"):
        build_book(TINY, path, executor="processes", workers=1, time_limit=0)
    assert not path.exists()
    finished = build_book(TINY, path, executor="inline")
    assert finished.same_games(inline_book)
    runs = finished.provenance["runs"]
    assert len(runs) == 2 and runs[0]["workers"] == 1 and runs[0]["cpu_seconds"] > 0
    assert sum(r["games"] for r in runs) == TINY.games
