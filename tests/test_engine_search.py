"""Search: alpha-beta agrees with plain minimax; the table changes node counts only;
Star1 agrees with plain expectiminimax; limits; evaluation."""

from __future__ import annotations

import random

import pytest

from tavrei_lab import Game
from tavrei_lab.engine.evaluate import MATE, evaluate, has_legal_move, quick_outcome
from tavrei_lab.engine.search import Limits, Searcher, game_history, minimax
from tavrei_lab.engine.zobrist import zobrist_hash
from tavrei_lab.errors import TavreiError

# Small positions (few towers) where depth 3 is affordable for plain minimax.
SMALL_POSITIONS = [
    # white volkhv and a tower (vsadnik on a ratnik) against a volkhv and a luchnik
    "4v3/8/3l4/8/8/2(P:SS)5/8/4V3 w - 0 1",
    # a white knyaz on a ratnik hunting a lone volkhv
    "v7/8/8/2(P:RK)5/8/8/8/4V3 b - 0 1",
]
# Larger ones, for the table test at depth 3.
TOWER_POSITIONS = [
    "2v5/2p:L5/8/8/3(p:SS)4/8/6(Rl)1/2V5 b - 0 40",
    "4v3/2r5/8/3(Sp:K)4/4(lP:L)3/8/5R2/4V3 w - 0 30",
]


def random_positions(variant: str, count: int, seed: int) -> list[Game]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        g = Game(variant, seed=rng.randrange(1000))
        for _ in range(rng.randrange(2, 40)):
            if g.is_game_over(claim_draw=True):
                break
            if g.is_chance_node():
                g.roll(rng)
                continue
            g.push(rng.choice(g.legal_moves()))
        if g.is_chance_node() and not g.is_game_over(claim_draw=True):
            g.roll(rng)
        if not g.is_game_over(claim_draw=True):
            out.append(g)
    return out


def history(g: Game) -> list[int]:
    return game_history(g)


def check_agrees(g: Game, depth: int, *configurations: dict) -> list[Searcher]:
    """Alpha-beta in each configuration (default: everything on) agrees with minimax."""
    value, best = minimax(g.rules, g.position, depth, history(g))
    searchers = []
    for options in configurations or ({},):
        searcher = Searcher(g.rules, **options)
        result = searcher.search(g.position, Limits(depth=depth), history(g))
        assert result.value == pytest.approx(value, abs=1e-9), (g.position.string, options)
        assert set(result.best_moves) == set(best), (g.position.string, options)
        searchers.append(searcher)
    return searchers


@pytest.mark.parametrize("variant", ["tavreli", "orthodox", "tavreli-no-split"])
def test_alphabeta_matches_minimax_depth_2(variant):
    for g in random_positions(variant, 2, seed=11):
        check_agrees(g, 2)


@pytest.mark.parametrize("text", SMALL_POSITIONS)
def test_alphabeta_matches_minimax_depth_3_with_and_without_table(text):
    g = Game("tavreli", text)
    with_table, without, unordered = check_agrees(
        g, 3, {}, {"use_table": False}, {"use_table": False, "ordering": False})
    assert with_table.nodes <= unordered.nodes
    assert without.nodes <= unordered.nodes


def test_table_changes_node_counts_not_results():
    """Same values and best moves with and without the table, fewer nodes with it."""
    total_with = total_without = hits = 0
    for text, depth in [(t, 4) for t in SMALL_POSITIONS] + [(t, 3) for t in TOWER_POSITIONS]:
        g = Game("tavreli", text)
        a = Searcher(g.rules).search(g.position, Limits(depth=depth), history(g))
        b = Searcher(g.rules, use_table=False).search(g.position, Limits(depth=depth),
                                                      history(g))
        assert a.value == b.value and set(a.best_moves) == set(b.best_moves)
        assert a.depth == b.depth
        assert b.tt_hits == 0
        hits += a.tt_hits
        total_with += a.nodes
        total_without += b.nodes
    assert total_with < total_without and hits > 0


def test_expectimax_star1_matches_plain_expectiminimax():
    for g in random_positions("gavrilov-die", 2, seed=5):
        assert not g.is_chance_node()
        check_agrees(g, 2, {}, {"chance_pruning": False, "use_table": False})


def test_die_skips_use_up_depth():
    """A skip face passes the turn; search must still end (skip after skip)."""
    g = Game("gavrilov-die-skip-face", seed=2)
    while g.is_chance_node():
        g.roll()
    result = Searcher(g.rules).search(g.position, Limits(depth=2), history(g))
    assert result.best_moves and result.depth == 2


def test_node_limit_keeps_the_last_finished_depth():
    g = Game()
    g.play("e2-e4 e7-e5 g1-f3")
    full = Searcher(g.rules).search(g.position, Limits(depth=2), history(g))
    limited = Searcher(g.rules).search(g.position, Limits(depth=5, nodes=full.nodes + 5),
                                       history(g))
    assert limited.depth == 2
    assert limited.value == full.value and limited.best_moves == full.best_moves
    assert not limited.complete


def test_time_limit_stops_and_answers():
    g = Game()
    r = Searcher(g.rules).search(g.position, Limits(time=0.05), history(g))
    assert r.depth >= 1 and r.best_moves and r.seconds < 5


@pytest.mark.parametrize("kw", [{}, {"depth": 0}, {"nodes": 0}, {"time": -1.0}])
def test_bad_limits_are_refused(kw):
    with pytest.raises(TavreiError):
        Limits(**kw)


def test_search_refuses_chance_node():
    g = Game("gavrilov-die", seed=1)
    with pytest.raises(TavreiError, match="roll"):
        Searcher(g.rules).search(g.position, Limits(depth=1))


def test_mate_found_and_scored_by_distance():
    g = Game("orthodox")
    g.play("f2-f3 e7-e5 g2-g4")
    r = Searcher(g.rules).search(g.position, Limits(depth=3), history(g))
    assert [g.move_text(m) for m in r.best_moves] == ["d8-h4"]
    assert r.value == MATE - 1
    assert r.depth == 1                   # a mate in one ends the deepening


def test_repetition_is_a_draw_in_search():
    """A rook down, black heads for the third repetition: a draw (automatic, A9.4)."""
    g = Game("orthodox", "k'7/8/8/8/8/8/8/K'6R w - 0 1")   # kings have moved: no rights
    g.play("a1-b1 a8-b8 b1-a1 b8-a8 a1-b1 a8-b8 b1-a1")
    for use_table in (True, False):
        r = Searcher(g.rules, use_table=use_table).search(g.position, Limits(depth=2),
                                                          history(g))
        assert [g.move_text(m) for m in r.best_moves] == ["b8-a8"]
        assert r.value == 0.0
    value, best = minimax(g.rules, g.position, 2, history(g))
    assert value == 0.0 and [g.move_text(m) for m in best] == ["b8-a8"]
    # without the history the same move is just a king move, and black is lost
    fresh = Searcher(g.rules).search(g.position, Limits(depth=2))
    assert fresh.value < -3


def test_history_counts_positions_after_moves_only():
    g = Game("gavrilov-die-skip-face", seed=2)
    moves = 0
    while moves < 6:
        if g.is_chance_node():
            g.roll()
        else:
            g.push(g.legal_moves()[0])
            moves += 1
    assert len(g.history) > moves
    assert len(history(g)) == moves + 1
    assert history(g)[-1] == zobrist_hash(g.position)


def test_evaluation_is_symmetric_and_cheap_paths_agree():
    g = Game()
    assert evaluate(g.position) == 0.0
    for game in random_positions("tavreli", 6, seed=3) + random_positions("orthodox", 4, 2):
        pos = game.position
        assert has_legal_move(game.rules, pos) == bool(game.rules.legal_moves(pos))
        assert quick_outcome(game.rules, pos) == game.rules.outcome(pos)
