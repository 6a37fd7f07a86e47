"""``--until-decided`` on grids of more than two cells.

The differences of interest are every pair of the grid (or the ``between`` pair);
each look's increment of alpha (Lan-DeMets, O'Brien-Fleming type) is split over the
pairs by Holm's method, a pair once decided keeps its verdict, and a cell stops
playing once every pair it is in is decided.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from tavrei_lab.errors import TavreiError
from tavrei_lab.lab import differences as D
from tavrei_lab.lab.planning import look_at, until_decided

TINY = dict(agents="greedy", seed=4, max_plies=30, executor="inline", progress=False)
GRID3 = {"promotion": ["destiny", "choice", "queen"]}


def _row(cell: str, n: int, wins: int, draws: int, mean: float, sd: float) -> dict:
    return {"cell": cell, "agents": "x v x", "games": n, "white_wins": wins, "draws": draws,
            "black_wins": n - wins - draws, "length_mean": mean, "length_sd": sd}


def test_one_look_splits_its_alpha_over_the_pairs_by_holm():
    rows = {("a", "x v x"): _row("a", 400, 200, 0, 80.0, 10.0),
            ("b", "x v x"): _row("b", 400, 200, 0, 80.2, 10.0),   # a - b tiny, n large
            ("c", "x v x"): _row("c", 400, 200, 0, 95.0, 10.0)}   # far from both
    keys = list(rows)
    pairs = [(keys[0], keys[1]), (keys[0], keys[2]), (keys[1], keys[2])]
    out = look_at(rows, pairs, "length", effect=5.0, look_alpha=0.01)
    raw = [d.p_value for d, *_ in out]
    assert [p for _, p, *_ in out] == pytest.approx(D.holm(raw))
    assert [v for *_, v in out] == ["excluded", "established", "established"]
    # the exclusion interval is at 1 - alpha/m: wider than the look's own
    d, _, lo, hi, _ = out[0]
    alone = look_at(rows, pairs[:1], "length", effect=5.0, look_alpha=0.01)[0]
    assert lo < alone[2] and alone[3] < hi
    # a verdict reached at an earlier look is kept
    kept = look_at(rows, pairs, "length", effect=5.0, look_alpha=0.01, decided={1: "excluded"})
    assert kept[1][4] == "excluded"
    # too little evidence for either: undecided
    few = {k: {**r, "games": 6, "white_wins": 3} for k, r in rows.items()}
    few[keys[2]]["length_sd"] = 40.0
    assert look_at(few, pairs[1:2], "length", 5.0, 0.01)[0][4] == "undecided"


def test_until_decided_on_a_three_cell_grid():
    dec = until_decided("tavreli", GRID3, measure="length", effect=15, games=24, batch=8,
                        **TINY)
    assert len(dec.pairs) == 3 and dec.verdict in ("decided", "undecided")
    assert dec.verdict == ("decided" if all(p.verdict != "undecided" for p in dec.pairs)
                           else "undecided")
    total = 0.0
    for k, look in enumerate(dec.looks, 1):
        total += look["alpha"]
        assert total == pytest.approx(D.obrien_fleming_spent(min(1.0, 8 * k / 24)), abs=1e-12)
        assert len(look["pairs"]) == 3
        ps = [q["p"] for q in look["pairs"]]
        assert [q["p_holm"] for q in look["pairs"]] == pytest.approx(D.holm(ps))
    assert total <= 0.05 + 1e-12
    for pair in dec.pairs:
        look = dec.looks[pair.look - 1]
        q = next(q for q in look["pairs"] if (q["a"], q["b"]) == (pair.difference.a,
                                                                pair.difference.b))
        assert q["verdict"] == pair.verdict
        if pair.verdict == "established":
            assert q["p_holm"] < look["alpha"]
        elif pair.verdict == "excluded":
            assert -15 < q["low"] and q["high"] < 15
    # each cell played until its last pair was decided, no longer
    played = {u.cell.name: u.limit for u in dec.result.units}
    for cell, limit in played.items():
        mine = [p for p in dec.pairs if cell in (p.difference.a, p.difference.b)]
        assert limit == max(p.games for p in mine) or limit == dec.games
    text = str(dec)
    assert "3 differences decided" in text or "of 3 differences decided" in text
    assert "Holm" in text and "O'Brien-Fleming" in text


def test_a_decided_pair_stops_its_cells(monkeypatch):
    """Rigged looks: the pair (destiny, choice) is excluded at the first look; the
    cell no undecided pair needs stops there while the others play on."""
    import tavrei_lab.lab.planning as P
    real = P.look_at

    def rigged(rows, pairs, measure, effect, look_alpha, decided=None):
        out = real(rows, pairs, measure, effect, look_alpha, decided)
        verdicts = ["excluded", "excluded", "undecided"]
        return [(d, p, lo, hi, (decided or {}).get(i, verdicts[i]))
                for i, (d, p, lo, hi, _) in enumerate(out)]
    monkeypatch.setattr(P, "look_at", rigged)
    dec = until_decided("tavreli", GRID3, measure="length", effect=15, games=12, batch=4,
                        **TINY)
    played = {u.cell.name: u.limit for u in dec.result.units}
    assert played == {"tavreli[promotion=choice]": 12, "tavreli[promotion=queen]": 12}
    assert [p.verdict for p in dec.pairs] == ["excluded", "excluded", "undecided"]
    assert [p.games for p in dec.pairs] == [4, 4, 12]
    assert dec.verdict == "undecided" and dec.games == 12


def test_between_plays_only_the_two_cells():
    dec = until_decided("tavreli", GRID3, measure="length", effect=15, games=8, batch=4,
                        between=["tavreli[promotion=destiny]", "tavreli[promotion=queen]"],
                        **TINY)
    assert sorted(u.cell.name for u in dec.result.units) == [
        "tavreli[promotion=destiny]", "tavreli[promotion=queen]"]
    assert len(dec.pairs) == 1 and dec.verdict in ("established", "excluded", "undecided")
    assert "p_holm" not in dec.looks[0] and "p" in dec.looks[0]
    with pytest.raises(TavreiError, match="no cell 'tavreli\\[promotion=rook\\]'"):
        until_decided("tavreli", GRID3, measure="length", effect=15, games=8, batch=4,
                      between=["tavreli[promotion=destiny]", "tavreli[promotion=rook]"],
                      **TINY)


def test_until_decided_three_cells_on_the_command_line():
    base = [sys.executable, "-m", "tavrei_lab", "sweep", "--strength-games", "0", "--grid",
            "promotion=destiny,choice,queen", "--agents", "greedy", "--max-plies", "30",
            "--no-progress", "--executor", "inline", "--until-decided", "--effect", "15",
            "--measure", "length", "--games", "8", "--batch", "4"]
    ok = subprocess.run(base, capture_output=True, text=True, timeout=300)
    assert ok.returncode == 0, ok.stderr
    assert "over 3 pairs (Holm)" in ok.stdout and "differences decided" in ok.stdout
    pair = subprocess.run(base + ["--between", "tavreli[promotion=destiny],"
                                               "tavreli[promotion=queen]"],
                          capture_output=True, text=True, timeout=300)
    assert pair.returncode == 0, pair.stderr
    assert "interval at that level" in pair.stdout
    bad = subprocess.run([a for a in base if a != "--until-decided"] + ["--between", "a,b"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "--between needs --until-decided" in bad.stderr


def test_a_look_decides_nothing_from_games_without_spread():
    """`--until-decided` stopped after 2 games a cell: white_score +1.000, p = 0 (two wins
    against two losses) and a length difference "excluded" (every game at the ply cap)."""
    a, b = ("a", "x v x"), ("b", "x v x")
    rows = {a: _row("a", 2, 2, 0, 60.0, 0.0), b: _row("b", 2, 0, 0, 60.0, 0.0)}
    for measure in ("white_score", "length"):
        d, p, lo, hi, verdict = look_at(rows, [(a, b)], measure, 0.1, 1e-12)[0]
        assert verdict == "undecided" and (lo, hi) == (float("-inf"), float("inf"))
    # with the games to decide and no spread still: undecided (a player repeating one game)
    rows = {a: _row("a", 40, 40, 0, 60.0, 0.0), b: _row("b", 40, 40, 0, 60.0, 0.0)}
    assert look_at(rows, [(a, b)], "length", 5.0, 0.01)[0][4] == "undecided"
    # too few games a cell: undecided, however small the p-value
    rows = {a: _row("a", 3, 3, 0, 20.0, 1.0), b: _row("b", 3, 0, 3, 80.0, 1.0)}
    d, p, *_rest, verdict = look_at(rows, [(a, b)], "length", 5.0, 0.01)[0]
    assert p < 0.01 and verdict == "undecided"
    rows = {a: _row("a", 4, 3, 0, 20.0, 1.0), b: _row("b", 4, 0, 4, 80.0, 1.0)}
    assert look_at(rows, [(a, b)], "length", 5.0, 0.01)[0][4] == "established"


def test_until_decided_plays_on_while_every_game_hits_the_ply_cap():
    dec = until_decided("tavreli", {"splits": [True, False]}, measure="length", effect=5,
                        games=4, batch=2, **{**TINY, "max_plies": 10})
    assert dec.verdict == "undecided" and len(dec.looks) == 2 and dec.games == 4
    assert "nan" in str(dec)
