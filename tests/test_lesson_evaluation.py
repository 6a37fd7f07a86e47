"""The lesson evaluation counts faster and still gives the very same numbers.

``engine.evaluate`` once built both sides' move lists at every leaf to count
mobility, and asked ``is_attacked`` square by square around each volkhv. It now
counts moves without building them (``pseudo_move_count``) and walks the
attackers once (``attacked_count``). The lesson search is exact -- trees, lessons
and the reference tests rely on its values and tied best moves -- so the new
evaluation must not differ in a single bit. The old formula is kept here, written
as it was, as the oracle.
"""

from __future__ import annotations

import importlib
import json
import random
from pathlib import Path

import pytest

from tavrei_lab import Game
from tavrei_lab.core.tavrel import acting_kind
from tavrei_lab.engine.agents import make_agent
from tavrei_lab.engine.search import Limits, Searcher, game_history
from tavrei_lab.rules.base import Outcome
from tavrei_lab.rules.stacking import TowerChessRules
from tavrei_lab.variant import variants
from tests.conftest import load_games

#: the module (``tavrei_lab.engine.evaluate`` the name is also its main function's)
ev = importlib.import_module("tavrei_lab.engine.evaluate")

# -- the oracle: the evaluation as it was written before it was made faster ------------------


def old_material(position) -> float:
    score = 0.0
    values = [ev.VALUES.get(k, 0.0) for k in range(8)]
    for tower in position.board:
        if not tower:
            continue
        top = tower[-1]
        owner = top & 1
        for t in tower:
            v = values[acting_kind(t) if t is top else (t >> 1) & 7]
            sign = 1.0 if t & 1 == 0 else -1.0
            if t & 1 == owner:
                score += sign * v
            else:
                score -= sign * v * ev.PRISONER
                score += sign * v * ev.HELD
    return score


def old_volkhv_danger(rules, position, color) -> int:
    ks = position.king_square(color)
    if ks is None:
        return 0
    g = position.geometry
    return sum(1 for s in (ks, *g.king[ks]) if rules.is_attacked(position, s, 1 - color))


def old_positional_score(position, rules, mobility=None) -> float:
    me = position.turn
    white_view = old_material(position)
    score = white_view if me == 0 else -white_view
    tower_rules = rules.inner or rules
    if type(tower_rules) is TowerChessRules:
        pseudo = tower_rules.pseudo_moves
        other = position.replace(turn=1 - me, ep_square=None)
        mine = len(pseudo(position)) if mobility is None else mobility
        score += ev.MOBILITY * (mine - len(pseudo(other)))
    elif not rules.is_chance_node(position):
        score += ev.MOBILITY * len(rules.legal_moves(position))
    score += ev.VOLKHV_THREAT * (old_volkhv_danger(rules, position, 1 - me)
                                 - old_volkhv_danger(rules, position, me))
    return score


def old_leaf_evaluation(position, rules):
    if type(rules) is not TowerChessRules or rules.king_capture:
        outcome = rules.outcome(position)
        return outcome, 0.0 if outcome is not None else old_positional_score(position, rules)
    pseudo = rules.pseudo_moves(position)
    if not rules.has_legal_move(position):
        if rules.is_check(position):
            return Outcome("checkmate", 1 - position.turn), 0.0
        return Outcome("stalemate"), 0.0
    return None, old_positional_score(position, rules, len(pseudo))


def old_evaluate(position) -> float:
    rules = position.rules
    outcome = rules.outcome(position)
    if outcome is not None:
        if outcome.winner is None:
            return 0.0
        return ev.MATE if outcome.winner == position.turn else -ev.MATE
    return old_positional_score(position, rules)


# -- the positions ---------------------------------------------------------------------------

#: Variants with options the shipped files leave off (promotion by choice, taking the
#: volkhv wins, line pieces passing over their own towers, no prisoners).
EXTRA = [("tavreli", {"promotion": "choice"}), ("tavreli", {"win": "king-capture"}),
         ("tavreli", {"prisoners": False}), ("tavreli", {"own_towers": False}),
         ("tavreli", {"volkhv_stacks": False, "ratnik_onto_own": False})]

#: Hand-set positions where the rarer counts happen: promotion by choice (every choice
#: and every split count is a move), castling both ways, en passant.
SET_POSITIONS = [
    ("orthodox", "7k/P7/8/8/8/8/8/K7 w - - 0 1"),
    ("orthodox", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"),
    ("orthodox", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 3"),
    ("tavreli", "4v3/8/3l4/8/8/2(P:SS)5/8/4V3 w - 0 1"),
    ("tavreli", "v7/8/8/2(P:RK)5/8/8/8/4V3 b - 0 1"),
]


def recorded_positions() -> list:
    """Every position of the 20 recorded games."""
    out = []
    for record in load_games()["games"]:
        g = Game()
        g.play(" ".join(record["moves"]))
        out += g.positions
    return out


def playout_positions(variant: str, games: int, seed: int, **options) -> list:
    """Every position of random games (die rolled as it comes), to the end or 160 plies."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        g = Game(variant, seed=rng.randrange(10_000), **options)
        for _ in range(160):
            if g.is_game_over(claim_draw=True):
                break
            if g.is_chance_node():
                g.roll(rng)
            else:
                g.push(rng.choice(g.legal_moves()))
        out += g.positions
    return out


def assert_same_evaluation(positions) -> int:
    checked = 0
    for pos in positions:
        rules = pos.rules
        for p in (pos, pos.replace(turn=1 - pos.turn, ep_square=None)):
            try:
                rules.validate(p)
            except Exception:
                if p is not pos:
                    continue     # the side not to move in check: not a position
                raise
            assert ev.positional_score(p, rules) == old_positional_score(p, rules), p.string
            assert ev.leaf_evaluation(p, rules) == old_leaf_evaluation(p, rules), p.string
            assert ev.evaluate(p) == old_evaluate(p), p.string
            assert ev.material(p) == old_material(p), p.string
            for color in (0, 1):
                assert ev.volkhv_danger(rules, p, color) == old_volkhv_danger(rules, p, color)
            checked += 1
    return checked


def test_new_evaluation_equals_the_old_formula_on_every_recorded_position():
    positions = recorded_positions()
    assert len(positions) == 713          # the 20 games' positions, their starts included
    assert assert_same_evaluation(positions) > 1000    # most also with the turn passed


@pytest.mark.parametrize("variant", variants())
def test_new_evaluation_equals_the_old_formula_in_random_games(variant):
    assert assert_same_evaluation(playout_positions(variant, 4, seed=7)) > 100


@pytest.mark.parametrize("variant, options", EXTRA)
def test_new_evaluation_equals_the_old_formula_with_other_options(variant, options):
    assert assert_same_evaluation(playout_positions(variant, 4, seed=8, **options)) > 100


@pytest.mark.parametrize("variant, text", SET_POSITIONS)
def test_new_evaluation_equals_the_old_formula_on_set_positions(variant, text):
    g = Game(variant, text)
    for m in g.legal_moves():          # the position and every position after one move
        g.push(m)
        assert_same_evaluation([g.position])
        g.pop()
    assert assert_same_evaluation([g.position]) >= 1


@pytest.mark.parametrize("variant", ["tavreli", "orthodox", "tavreli-pass-over-own",
                                     "gavrilov-die"])
def test_move_and_attack_counts_equal_the_listed_ones(variant):
    """The counters on their own, for both sides of many positions."""
    for i, pos in enumerate(playout_positions(variant, 3, seed=9)):
        family = pos.rules.inner or pos.rules
        for color in (0, 1):
            other = pos if color == pos.turn else pos.replace(turn=color, ep_square=None)
            assert family.pseudo_move_count(pos, color) == len(family.pseudo_moves(other))
            for s in range(i % 3, len(pos.board), 3):     # a third of the zones each time
                zone = (s, *pos.geometry.king[s])
                assert family.attacked_count(pos.board, zone, color) == sum(
                    1 for z in zone if family.attacked_by(pos.board, z, color))
        assert family.pseudo_move_count(pos) == len(family.pseudo_moves(pos))
        me = pos.turn
        other = pos.replace(turn=1 - me, ep_square=None)
        assert family.activity(pos) == (
            len(family.pseudo_moves(pos)), len(family.pseudo_moves(other)),
            old_volkhv_danger(pos.rules, pos, me), old_volkhv_danger(pos.rules, pos, 1 - me))


# -- the search on top of it: the same choices as recorded ------------------------------------

#: ``alphabeta:3``'s choices recorded by running the code as it was before the evaluation
#: was rewritten (main at 2932e5b, ``make_agent("alphabeta:3", seed=SEED).choose(game)``
#: after playing MOVES from the start; value, every tied best move, and nodes searched).
#: A regression check: the faster evaluation must leave every one of them as it was.
BEFORE = json.loads((Path(__file__).parent / "data" / "lesson_search_before.json")
                    .read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", BEFORE, ids=[c["source"] for c in BEFORE])
def test_alphabeta_3_chooses_as_before(case):
    g = Game(case["variant"])
    g.play(" ".join(case["moves"]))
    agent = make_agent("alphabeta:3", seed=case["seed"])
    move = agent.choose(g)
    result = agent.last
    assert g.move_text(move) == case["chosen"]
    assert result.value == case["value"]
    assert sorted(g.move_text(m) for m in result.best_moves) == case["best"]
    assert result.nodes == case["nodes"]


def test_a_search_with_the_old_formula_searches_the_same_tree():
    """Searching with the oracle as the evaluation visits as many nodes and finds the
    same answer (the benchmark compares the two speeds this way)."""
    g = Game()
    g.play(" ".join(BEFORE[0]["moves"]))
    new = Searcher(g.rules).search(g.position, Limits(depth=2), game_history(g))
    old = Searcher(g.rules, evaluation=old_positional_score).search(
        g.position, Limits(depth=2), game_history(g))
    assert (new.value, new.best_moves, new.nodes) == (old.value, old.best_moves, old.nodes)


def test_a_subclass_of_the_family_is_evaluated_through_its_own_methods():
    """A plugin subclassing the tower rules may change what is attacked or legal: the
    evaluation then asks its methods (the general path), and the one formula (mobility
    mine minus theirs) gives the parent's numbers where the plugin changes nothing."""

    class Plugin(TowerChessRules):
        asked = 0

        def is_attacked(self, position, square, by):
            Plugin.asked += 1
            return super().is_attacked(position, square, by)

    base = Game().rules
    plugin = Plugin(base.variant)
    positions = [p.replace(rules=plugin) for p in playout_positions("tavreli", 2, seed=10)]
    for p in positions:
        expected = ev.positional_score(p.replace(rules=base), base)
        Plugin.asked = 0
        assert ev.positional_score(p, plugin) == pytest.approx(expected, abs=1e-9)
        assert Plugin.asked >= 8       # each volkhv's zone, square by square (4 on a corner)
