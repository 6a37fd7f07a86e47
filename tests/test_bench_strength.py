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


def _fish_result(number: int, score: float) -> bs.SunfishResult:
    return bs.SunfishResult(number, number % 2 == 0, score, "checkmate", 40, (0.9, 1.0),
                            (0.8,), "e2e4 e7e5")


def test_sunfish_games_saved_as_they_end_are_read_back_and_summarised(tmp_path, capsys):
    """A long match's file (TAVREI_SUNFISH_OUT): each line a game with its settings;
    read back, only the games of the same settings count, and a partial file gives
    its score, Elo and time use (sunfish-report)."""
    import json
    from dataclasses import asdict
    path = tmp_path / "match.jsonl"
    settings = {"budget": 1.0, "clock": "cpu", "max_plies": 200, "nodes": None}
    other = {**settings, "budget": 0.1}
    with open(path, "w", encoding="utf-8") as f:
        for n, score, where in ((0, 1.0, settings), (1, 0.5, settings), (2, 0.0, other)):
            f.write(json.dumps({**where, **asdict(_fish_result(n, score)), "opening": "x"}) + "\n")
    read = bs.read_sunfish_results(str(path), settings)
    assert [r.number for r in read] == [0, 1] and read[0] == _fish_result(0, 1.0)
    assert len(bs.read_sunfish_results(str(path))) == 3
    m = bs.sunfish_summary(read, 1.0, None)
    assert m.total == 1.5 and m.percent == 0.75
    out = capsys.readouterr().out
    assert "1.5/2 = 75.0 %" in out and "time use: package 95 %" in out
    assert "not decided by this run" in out          # 2 games are not the 100 the goal needs
    assert bs.read_sunfish_results(str(tmp_path / "none.jsonl")) == []


def test_a_sunfish_match_resumes_from_its_file(tmp_path, monkeypatch, capsys):
    """Games already in the file are not played again; the new ones are appended."""
    played = []

    def fake_play(game: bs.SunfishGame) -> bs.SunfishResult:
        played.append(game.number)
        return _fish_result(game.number, 1.0)

    monkeypatch.setattr(bs, "play_sunfish_game", fake_play)
    path = str(tmp_path / "m.jsonl")
    bs.sunfish_match(2, 1.0, out=path)
    assert played == [0, 1]
    m = bs.sunfish_match(4, 1.0, out=path)
    assert played == [0, 1, 2, 3] and m.total == 4 and len(m.scores) == 4
    assert len(bs.read_sunfish_results(path)) == 4
    assert "2 games already in" in capsys.readouterr().out


def test_a_side_down_six_pawns_for_eight_plies_resigns(monkeypatch):
    """The stated early adjudication: python-chess's material count, a lead of
    SUNFISH_RESIGN held SUNFISH_RESIGN_PLIES plies in a row, wins for the side ahead."""
    pytest.importorskip("chess")
    line = ("d5d2 c1d2 g8f6 g1f3 f6g4 f3g5 g4h6 g5h3 h6g8 h3g1 b8c6 g1f3 c6b4 f3g5 b4a6 "
            "g5h3").split()
    script = iter(line)

    class Scripted:
        def __init__(self, clock: str, nodes: int | None) -> None:
            pass

        def push(self, uci: str) -> None:
            pass

        def choose(self, budget: float) -> str:
            return next(script)

    monkeypatch.setattr(bs, "_OurPlayer", Scripted)
    monkeypatch.setattr(bs, "_SunfishPlayer", Scripted)
    game = bs.SunfishGame(0, "test", "e2e4 d7d5 e4d5 d8d5 b1c3", True, 0.01, "cpu")
    r = bs.play_sunfish_game(game)
    # white is 8 ahead from c1d2 (ply 2) on: the eighth ply in a row ends it
    assert r.score == 1.0 and r.how.startswith("adjudicated (resigns: material +8")
    assert r.plies == 1 + bs.SUNFISH_RESIGN_PLIES
