"""Agents: specs, seeding, die games, and the mates in one of the recorded games."""

from __future__ import annotations

import pytest

from tavrei_lab import Game
from tavrei_lab.engine.agents import (
    AGENTS,
    AlphaBetaAgent,
    ExpectimaxAgent,
    GreedyAgent,
    RandomAgent,
    make_agent,
    parse_limits,
)
from tavrei_lab.errors import IllegalMoveError, TavreiError


def mated_games(games_data: dict) -> list[tuple[int, Game]]:
    """Every recorded game that ends in checkmate, replayed up to its last ply."""
    out = []
    for rec in games_data["games"]:
        g = Game()
        g.play(" ".join(rec["moves"]))
        outcome = g.outcome()
        expected = rec.get("expected_at_end", {})
        if expected.get("checkmate") is not None:
            assert (outcome is not None and outcome.termination == "checkmate") == \
                expected["checkmate"]
        if outcome is not None and outcome.termination == "checkmate":
            g.pop()
            out.append((rec["n"], g))
    return out


@pytest.mark.parametrize("spec", ["greedy", "alphabeta:1", "alphabeta:2", "alphabeta:3",
                                  "expectimax:2"])
def test_agents_find_the_recorded_mates_in_one(games_data, spec):
    games = mated_games(games_data)
    assert len(games) >= 5            # games 1, 2, 3, 11, 18 end in mate
    for n, g in games:
        move = make_agent(spec, seed=7).choose(g)
        g.push(move)
        outcome = g.outcome()
        g.pop()
        assert outcome is not None and outcome.termination == "checkmate", (
            f"game {n}: {spec} played {g.move_text(move)} instead of mating")


def test_specs_and_registry():
    assert {"random", "greedy", "alphabeta", "expectimax"} <= set(AGENTS)
    assert isinstance(make_agent("random", seed=1), RandomAgent)
    assert isinstance(make_agent("greedy"), GreedyAgent)
    ab = make_agent("alphabeta:2", seed=3)
    assert isinstance(ab, AlphaBetaAgent) and ab.limits.depth == 2
    lim = make_agent("alphabeta:nodes=500", seed=3).limits
    assert lim.nodes == 500 and lim.depth is None
    both = make_agent("alphabeta:depth=3,time=0.5").limits
    assert (both.depth, both.time) == (3, 0.5)
    assert isinstance(make_agent("expectimax:1"), ExpectimaxAgent)
    assert parse_limits("4") == {"depth": 4}


@pytest.mark.parametrize("spec, match", [
    ("minimax", "unknown agent"), ("random:3", "takes no argument"),
    ("greedy:2", "no argument"), ("alphabeta:x", "whole number"),
    ("alphabeta:speed=3", "expected depth"), ("alphabeta:0", "depth must be"),
    ("alphabeta:time=-1", "time must be"),
])
def test_bad_specs_say_what_is_wrong(spec, match):
    with pytest.raises(TavreiError, match=match):
        make_agent(spec)


@pytest.mark.parametrize("spec", ["random", "greedy", "alphabeta:2"])
def test_same_seed_same_game(spec):
    def play(seed: int) -> list[str]:
        a, b = make_agent(spec, seed=seed), make_agent(spec, seed=seed + 1)
        g = Game("orthodox")
        while g.ply < 12 and not g.is_game_over(claim_draw=True):
            g.push((a, b)[g.position.turn].choose(g))
        return g.action_texts()
    assert play(1) == play(1)


def test_ties_are_broken_by_the_seed():
    """Several first moves tie for greedy: different seeds may pick different ones,
    always among the tied moves; the same seed picks the same one."""
    g = Game()
    picks = {GreedyAgent(seed=s).choose(g) for s in range(12)}
    agent = GreedyAgent(seed=5)
    agent.choose(g)
    tied = agent.last.best_moves
    assert len(tied) > 1 and picks <= set(tied) and len(picks) > 1
    assert GreedyAgent(seed=5).choose(g) == GreedyAgent(seed=5).choose(g)


def test_agents_at_die_games_decision_nodes():
    g = Game("gavrilov-die", seed=3)
    with pytest.raises(IllegalMoveError, match="roll"):
        make_agent("expectimax:1").choose(g)
    agents = [make_agent("expectimax:2", seed=1), make_agent("alphabeta:1", seed=2),
              make_agent("greedy", seed=3), make_agent("random", seed=4)]
    turns = 0
    while turns < 16 and not g.is_game_over(claim_draw=True):
        if g.is_chance_node():
            g.roll()
            continue
        move = agents[turns % 4].choose(g)
        assert move in g.legal_moves()
        g.push(move)
        turns += 1
    assert turns == 16 or g.is_game_over(claim_draw=True)


def test_no_move_to_choose_when_the_game_is_over():
    g = Game("orthodox")
    g.play("f2-f3 e7-e5 g2-g4 d8-h4")
    for spec in ("random", "greedy", "alphabeta:2"):
        with pytest.raises(IllegalMoveError, match="game is over"):
            make_agent(spec).choose(g)


def test_the_game_is_not_changed_by_choosing():
    g = Game()
    g.play("e2-e4 e7-e5")
    before = (g.position.string, g.history)
    make_agent("alphabeta:2", seed=1).choose(g)
    assert (g.position.string, g.history) == before
