"""Players fit to a die variant: the die's threats as evaluation terms.

The die search reaches a ply or two at 300 nodes and has no quiescence, so its leaves
(chance nodes) are often positions where the side about to roll can take the enemy
volkhv if the die allows the attacker. The terms ``die_hit_volkhv`` & co. price that
by the die's face probabilities; they are 0 by default, so the untuned player is the
old one node for node.
"""

from __future__ import annotations

import random

import pytest

from tavrei_lab import Game
from tavrei_lab.engine.agents import PlayAgent
from tavrei_lab.engine.play import PlaySearcher
from tavrei_lab.engine.play_eval import die_faces, evaluate_for_side, tables_for
from tavrei_lab.engine.search import Limits
from tavrei_lab.engine.weights import DEFAULT_WEIGHTS, NAMES
from tavrei_lab.lab.texel import features, linear_value
from tavrei_lab.lab.tune import TuneGame, play_tune_game
from tavrei_lab.variant import load_variant, variant_data

DIE = DEFAULT_WEIGHTS.with_(die_hit_volkhv=2000.0, die_hit_volkhv_waiting=700.0,
                            die_threat=0.6, die_threat_waiting=0.3)


def _threats(variant: str, fen: str) -> tuple[float, float, float, float]:
    pos = Game(variant, fen).position
    kings = (pos.king_square(0), pos.king_square(1))
    faces = die_faces(pos.rules)
    assert faces is not None
    return tables_for(pos.geometry).die_threats(pos.board, kings, pos.turn, faces)


def test_die_faces_are_the_piece_faces_with_their_probabilities():
    six = die_faces(load_variant("gavrilov-die"))
    # K Q R (B absent: it skips) N P, a sixth each
    assert six is not None and [r for r, _ in six] == [6, 5, 4, 2, 1]
    assert all(p == pytest.approx(1 / 6) for _, p in six)
    assert die_faces(load_variant("tavreli")) is None


@pytest.mark.parametrize("variant", ["gavrilov-die", "gavrilov-die-skip-face"])
def test_a_rook_on_the_volkhv_hits_on_the_faces_that_allow_it(variant):
    # white to roll, its rook on d3 attacks the black volkhv d6: K, Q and R allow it
    hit, threat, hit_w, threat_w = _threats(variant, "3k2/6/6/3R2/6/K5 w - 0 1")
    assert hit == pytest.approx(3 / 6) and threat == 0
    assert hit_w == 0 and threat_w == 0
    # the same with black to roll: the threat is the waiting side's
    hit, threat, hit_w, threat_w = _threats(variant, "3k2/6/6/3R2/6/K5 b - 0 1")
    assert hit == 0 and hit_w == pytest.approx(3 / 6)


def test_a_capture_counts_its_gain_on_the_faces_that_allow_the_attacker():
    # white's knight c2 attacks the black knyaz d4 (K Q R N allow a knight: 4 in 6);
    # its pawn e3 attacks d4 too (every piece face: 5 in 6); the gain is the knyaz taken
    # prisoner by the default values (9 + 0.1 of 9 its owner loses, the square bonus)
    only_knight = _threats("gavrilov-die", "k5/6/3q2/6/2N3/5K w - 0 1")
    gain = only_knight[1] / (4 / 6)
    assert 900 < gain < 1100
    with_pawn = _threats("gavrilov-die", "k5/6/3q2/4P:N1/2N3/5K w - 0 1")
    # the pawn adds the P face (1 in 6); on the others the best capture is the same
    assert with_pawn[1] == pytest.approx(only_knight[1] * 5 / 4, rel=0.05)


def test_die_features_reproduce_the_evaluation_with_the_die_terms():
    variant = load_variant("gavrilov-die")
    rng = random.Random(3)
    seen = set()
    for seed in range(6):
        game = Game(variant, seed=seed)
        while game.outcome() is None and game.ply < 30:
            if game.is_chance_node():
                pos = game.position
                white = evaluate_for_side(pos, DIE) * (1 if pos.turn == 0 else -1)
                feats = features(pos)
                seen |= {NAMES[i] for i, _ in feats}
                assert abs(linear_value(DIE.vector(), feats) - white) <= 1
                game.roll()
                continue
            game.push(rng.choice(game.legal_moves()))
    assert {"die_hit_volkhv", "die_hit_volkhv_waiting", "die_threat"} <= seen


def test_default_weights_leave_the_die_search_as_it_was():
    rules = load_variant("gavrilov-die")
    assert PlaySearcher(rules).die_faces is None
    assert PlaySearcher(rules, weights=DIE).die_faces is not None
    pos = Game(rules, "3k2/6/6/3R2/6/K5 w - 0 1").position
    assert evaluate_for_side(pos, DIE) - evaluate_for_side(pos) == round(2000 * 3 / 6)


def test_with_the_die_terms_one_ply_sees_the_volkhv_left_en_prise():
    # white rolled K; its volkhv a1 can take the black vsadnik b2, which black's ratnik
    # c3 defends: the ratnik takes the volkhv back on any piece face (5 in 6). One ply
    # with the old evaluation takes the vsadnik; with the die terms it sees the loss
    game = Game("gavrilov-die", "3k2/6/6/2p:n3/1n4/K5 w - 0 1")
    game.apply_roll("K")
    rules = game.rules
    names = rules.geometry.names
    pos = game.position
    take = next(m for m in rules.legal_moves(pos) if names[m.to_square] == "b2")
    after = rules.apply(pos, take)
    # black to roll after Kxb2 (its view): the ratnik's hit is priced at 5/6 of
    # die_hit_volkhv
    assert evaluate_for_side(after, DIE) - evaluate_for_side(after) >= round(2000 * 5 / 6)
    plain = PlaySearcher(rules).search(pos, Limits(depth=1)).best_moves[0]
    aware = PlaySearcher(rules, weights=DIE).search(pos, Limits(depth=1)).best_moves[0]
    assert plain == take
    assert aware != take


def test_a_die_tune_game_learns_at_the_chance_nodes():
    data = variant_data(load_variant("gavrilov-die"))
    row = play_tune_game(TuneGame(data, DIE.as_dict(), DEFAULT_WEIGHTS.as_dict(), 30,
                                  seed=2, index=0, max_plies=40, opening=0))
    assert row["positions"]
    names = {NAMES[int(i)] for p in row["positions"] for i, _ in p}
    assert "die_hit_volkhv" in names or "die_threat" in names or \
        "die_hit_volkhv_waiting" in names
    # the agents of a tune play with the die terms they were given
    assert PlayAgent(nodes=30, weights=DIE).searcher(load_variant("gavrilov-die")) \
        .die_faces is not None


def test_the_shipped_die_fit_counts_the_die_and_sees_the_volkhv_en_prise():
    # the file carries its proof (an SPRT that said "better" against the defaults): a fit
    # with the die terms, which one ply already keeps the volkhv safe with
    from tavrei_lab.engine.weights import (
        fit_proof_problem,
        fit_weights,
        load_weights_file,
        shipped_weights_dir,
    )
    rules = load_variant("gavrilov-die")
    fit = fit_weights(rules)
    assert fit.die_terms and fit.die_hit_volkhv > 0 and fit.die_hit_volkhv_waiting > 0
    weights, doc = load_weights_file(shipped_weights_dir() / "gavrilov-die.json")
    assert fit == weights and fit_proof_problem(doc, weights) is None
    assert doc["log"][0]["games"] >= 600 and doc["proof"]["decision"] == "better"
    assert doc["proof"]["low"] > 0.5
    game = Game(rules, "3k2/6/6/2p:n3/1n4/K5 w - 0 1")
    game.apply_roll("K")
    names = rules.geometry.names
    move = PlaySearcher(game.rules, weights=fit).search(game.position,
                                                        Limits(depth=1)).best_moves[0]
    assert names[move.to_square] != "b2"
