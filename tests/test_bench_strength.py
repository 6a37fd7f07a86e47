"""The strength benchmark's match gives the same figures on one process or on a pool.

The 100-game match runs for hours, so it runs on worker processes; these tests
hold the pooled run to the one-process run on cheap agents (every game seeded by
its number alone, results combined in game order), so the two cannot drift apart.
"""

from __future__ import annotations

import math
import os

import pytest

from benchmarks import bench_strength as bs

CHEAP = ("greedy", "random")


def _games(m: bs.MatchSummary) -> tuple:
    """Everything of a summary but the move times (which no two runs share)."""
    return (m.scores, m.total, m.percent, m.elo, m.elo_low, m.elo_high, m.adjudicated)


def test_plan_seeds_each_game_by_its_number_and_alternates_colours():
    games = bs.plan("greedy", "random", 4, seed=1000)
    assert [(g.number, g.seed_a, g.seed_b, g.game_seed, g.a_white) for g in games] == [
        (0, 1000, 1001, 1000, True), (1, 1002, 1003, 1001, False),
        (2, 1004, 1005, 1002, True), (3, 1006, 1007, 1003, False)]
    # a game of a longer match is the same game as in a shorter one
    assert bs.plan("greedy", "random", 7, seed=1000)[:4] == games


def test_a_pooled_match_equals_the_one_process_match(capsys):
    one = bs.match(*CHEAP, games=6, seed=77, label="one", jobs=1, max_plies=24)
    out_one = capsys.readouterr().out
    pooled = bs.match(*CHEAP, games=6, seed=77, label="two", jobs=2, max_plies=24)
    out_two = capsys.readouterr().out
    assert _games(pooled) == _games(one)
    # every game is printed as it ends, and the final line carries the same figures
    for out, label in ((out_one, "one"), (out_two, "two")):
        lines = [ln for ln in out.splitlines() if f"{label} game" in ln]
        assert len(lines) == 6
        assert sorted(int(ln.split("game")[1].split(":")[0]) for ln in lines) == list(range(1, 7))
    # each game's line says how long it was and what each side spent a move
    assert all(" plies, s/move " in ln for ln in out_one.splitlines() if "one game" in ln)
    tail = f"{one.total:g}/6 = {100 * one.percent:.1f} %"
    assert tail in out_one and tail in out_two
    # the games are not all alike (else the comparison proves little): greedy beats random
    # or gets adjudicated ahead in some, and short games make adjudications happen
    assert one.adjudicated > 0 and len(set(one.scores)) > 1


def test_each_pooled_game_is_the_game_one_process_plays():
    planned = bs.plan(*CHEAP, 3, seed=5, max_plies=16)
    alone = [bs.play_planned(g) for g in planned]
    pooled = list(bs._played(planned, jobs=2))
    key = lambda r: (r.number, r.a_white, r.score_a, r.how, len(r.times_a), len(r.times_b))  # noqa: E731
    assert sorted(map(key, pooled)) == sorted(map(key, alone))
    assert {r.number for r in pooled} == {0, 1, 2}


def test_summary_combines_in_game_order_whatever_order_games_end_in():
    results = [bs.GameResult(i, i % 2 == 0, s, "checkmate", (0.1 * (i + 1),), (1.0,))
               for i, s in enumerate([1.0, 0.5, 0.0, 1.0, 1.0])]
    forward = bs.summarise(results)
    backward = bs.summarise(list(reversed(results)))
    assert forward == backward
    assert forward.scores == (1.0, 0.5, 0.0, 1.0, 1.0)
    assert forward.total == 3.5 and forward.percent == pytest.approx(0.7)
    assert forward.elo == pytest.approx(-400 * math.log10(1 / 0.7 - 1))
    assert forward.elo_low < forward.elo < forward.elo_high
    assert forward.seconds_a == pytest.approx(0.3) and forward.seconds_b == 1.0


def test_main_reads_the_number_of_processes(monkeypatch, capsys):
    seen = {}

    def fake_match(spec_a, spec_b, games, seed, label, jobs=1, max_plies=bs.MAX_PLIES):
        seen.update(spec_a=spec_a, spec_b=spec_b, games=games, seed=seed, jobs=jobs)
        return bs.summarise([bs.GameResult(0, True, 1.0, "checkmate", (), ())])

    monkeypatch.setattr(bs, "match", fake_match)
    monkeypatch.setattr(os, "environ", {"TAVREI_STRENGTH_PART": "match",
                                        "TAVREI_STRENGTH_GAMES": "100",
                                        "TAVREI_STRENGTH_JOBS": "2"})
    bs.main()
    assert seen == {"spec_a": "play", "spec_b": "alphabeta:3", "games": 100, "seed": 1000,
                    "jobs": 2}
    out = capsys.readouterr().out
    assert "2 process(es)" in out
    assert "score 100.0 % (met)" in out


def test_elo_interval_of_a_clean_sweep_is_not_a_point():
    """4 wins in 4 games: the per-game spread is 0, but the interval must still be wide."""
    e, lo, hi = bs.elo(1.0, [1.0] * 4)
    assert e == pytest.approx(1200, abs=1)          # the clipped point estimate
    # Wilson: the true score is above 4 / (4 + 1.96^2) = 0.51 with 95 % confidence
    assert lo == pytest.approx(-400 * math.log10(1 / (4 / (4 + 1.96 ** 2)) - 1), abs=0.5)
    assert lo < 50 and hi >= e
    e0, lo0, hi0 = bs.elo(0.0, [0.0] * 4)
    assert (e0, lo0, hi0) == pytest.approx((-e, -hi, -lo), abs=1e-6)
    # a mixed match keeps the normal approximation over the per-game scores
    scores = [1.0, 1.0, 0.5, 0.0, 1.0]
    mean = 0.7
    sd = math.sqrt(sum((x - mean) ** 2 for x in scores) / 4)
    _, lo_m, _ = bs.elo(mean, scores)
    assert lo_m == pytest.approx(-400 * math.log10(1 / (mean - 1.96 * sd / math.sqrt(5)) - 1))
