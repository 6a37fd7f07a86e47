"""The opening index counts what a direct count over the same games counts: games,
moves, white's score and its interval, draws, lengths; transpositions share one
entry; games of other rules are kept apart."""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path

import pytest

from tavrei_lab import Game
from tavrei_lab.lab import sweep
from tavrei_lab.lab.statistics import wilson_interval
from tavrei_lab.lab.store import ResultsStore
from tavrei_lab.openings import OpeningIndex, OpeningsError, build_index, rules_identity


@pytest.fixture(scope="module")
def store_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small real store: two cells (splits on and off), greedy against random."""
    path = tmp_path_factory.mktemp("openings") / "lab.sqlite"
    sweep(base="tavreli", grid={"splits": [True, False]}, agents="greedy,random", games=6,
          seed=3, max_plies=40, executor="inline", progress=False, store=str(path))
    return path


def _direct(store_path: Path, plies: int) -> dict[tuple[str, str], dict[str, Counter]]:
    """For every (cell, key of the position after ``plies`` plies): per move played
    there, the results; counted straight from the stored games."""
    out: dict[tuple[str, str], dict[str, Counter]] = defaultdict(lambda: defaultdict(Counter))
    with ResultsStore(store_path) as store:
        for stored in store.games():
            game = stored.replay()
            if game.ply <= plies:
                continue
            pos = game.positions[plies]
            text = game.move_text(game.moves[plies], pos)
            out[(stored.cell, pos.key())][text][stored.result.result] += 1
            out[(stored.cell, pos.key())][text]["plies"] += stored.result.plies
    return out


@pytest.mark.parametrize("plies", [0, 1, 2])
def test_counts_and_scores_equal_a_direct_count_over_the_store(store_path: Path,
                                                               plies: int) -> None:
    index = build_index(store=store_path, depth=4)
    direct = _direct(store_path, plies)
    assert direct
    rules = {"tavreli[splits=true]": Game("tavreli", splits=True).rules,
             "tavreli[splits=false]": Game("tavreli", splits=False).rules}
    for (cell, key), moves in direct.items():
        entry = index.entries[(rules_identity(rules[cell]), key)]
        assert set(entry.moves) == set(moves)
        for text, results in moves.items():
            tally = entry.moves[text]
            wins, draws, losses = results["1-0"], results["1/2-1/2"], results["0-1"]
            n = wins + draws + losses
            assert (tally.white, tally.draws, tally.black, tally.games) == (wins, draws,
                                                                            losses, n)
            assert tally.score == pytest.approx((wins + draws / 2) / n)
            assert tally.interval() == wilson_interval(wins + draws / 2, n)
            assert tally.draw_rate == pytest.approx(draws / n)
            assert tally.mean_length == pytest.approx(results["plies"] / n)
        assert entry.tally.games == sum(sum(r[k] for k in ("1-0", "1/2-1/2", "0-1"))
                                        for r in moves.values())


def test_another_variants_games_are_kept_apart(store_path: Path) -> None:
    index = build_index(store=store_path, depth=2)
    with_splits = index.entry_after("", "tavreli", splits=True)
    without = index.entry_after("", "tavreli", splits=False)
    assert with_splits is not None and without is not None and with_splits is not without
    assert with_splits.key == without.key                  # one board, other rules
    assert with_splits.tally.games == without.tally.games == 6
    assert index.games() == 12
    assert index.entry_after("", "orthodox") is None


def test_transpositions_share_one_entry() -> None:
    a, b, c = Game(), Game(), Game()
    a.play("e2-e3 e7-e6 d2-d3 d7-d6 g1-f3")
    a.tags["Result"] = "1-0"
    b.play("d2-d3 e7-e6 e2-e3 d7-d6 b1-c3")
    b.tags["Result"] = "0-1"
    c.play("d2-d3 d7-d6 e2-e3 e7-e6 g1-f3")
    index = OpeningIndex(depth=6)
    assert index.add_games([a, b, c]) == 3
    entry = index.entry_after("e2-e3 e7-e6 d2-d3 d7-d6")
    assert entry is not None and entry.tally.games == 3
    assert entry is index.entry_after("d2-d3 d7-d6 e2-e3 e7-e6")
    assert {m: t.games for m, t in entry.moves.items()} == {"g1-f3": 2, "b1-c3": 1}
    assert entry.moves["g1-f3"].unknown == 1 and entry.moves["g1-f3"].white == 1
    assert entry.tally.score == pytest.approx(0.5)          # one win, one loss, one unknown


def test_the_tournament_games_start_from_one_entry_and_unknown_results_score_nothing() -> None:
    index = build_index(tournament=True, depth=3)
    start = index.entry_after("")
    assert start is not None and start.tally.games == 20
    assert sum(t.games for t in start.moves.values()) == 20
    assert start.tally.unknown + start.tally.scored == 20 and start.tally.unknown > 0


def test_an_index_survives_json_and_a_damaged_one_is_said_in_one_line(store_path: Path) -> None:
    index = build_index(store=store_path, depth=2, eval_nodes=50, eval_min_games=6)
    assert any(e.evaluation is not None for e in index)
    again = OpeningIndex.from_json(index.to_json())
    assert again.to_json() == index.to_json()
    doc = index.to_json()
    doc["positions"][0]["tally"] = [1, 2]
    with pytest.raises(OpeningsError, match="position 1: a tally is five whole numbers"):
        OpeningIndex.from_json(doc)
    with pytest.raises(OpeningsError, match="not an openings index"):
        OpeningIndex.from_json({"positions": []})


def test_the_engines_figure_is_the_same_however_often_it_is_asked() -> None:
    one = build_index(tournament=True, depth=2, eval_nodes=60)
    two = build_index(tournament=True, depth=2, eval_nodes=60)
    figures = {(e.rules, e.key): e.evaluation for e in one}
    assert all(figures.values())
    assert figures == {(e.rules, e.key): e.evaluation for e in two}


def test_rules_that_play_alike_share_their_positions() -> None:
    a, b = Game("tavreli", splits=False), Game("tavreli-no-split")
    a.play("e2-e3")
    b.play("d2-d3")
    index = OpeningIndex(depth=2)
    index.add_games([a, b])
    start = index.entry_after("", "tavreli-no-split")
    assert start is not None and start.tally.games == 2
    assert start is index.entry_after("", "tavreli", splits=False)
    assert index.entry_after("", "tavreli") is None
