"""The benchmark's simple Tavreli generator (written from RULES.md) counts what the package
counts: a yardstick that is wrong would make the movegen ratio meaningless."""

from __future__ import annotations

import pytest

from benchmarks import simple_tavreli
from tavrei_lab import Game
from tavrei_lab.engine.perft import perft


@pytest.mark.parametrize("moves, depth", [
    ("", 2),
    ("e2-e4 d7-d5 e4xd5 d8xd5 b1-c3 d5xa2 a1xa2", 2),      # towers and prisoners
    ("e2-e4 a7-a6 e4-e5 d7-d5", 1),                          # en passant is on
    ("g1-f3 g8-f6 g2-g3 g7-g6 f1-g2 f8-g7", 1),              # castling both ways
])
def test_simple_generator_counts_the_package_perft(moves, depth):
    g = Game()
    if moves:
        g.play(moves)
    state = simple_tavreli.from_position(g.position)
    assert simple_tavreli.perft(state, depth) == perft(g.rules, g.position, depth)


def test_the_benchmarks_time_the_pure_build_in_a_child_process():
    """bench_perft and bench_movegen share ``on_pure_build``: the child must really run
    the pure Python (else their compiled/pure ratios compare a build with itself)."""
    from benchmarks import on_pure_build
    assert on_pure_build("build_in_use", timeout=120) == {"compiled": False, "modules": []}


def test_a_failing_pure_build_run_is_said_not_raised(capsys):
    from benchmarks import on_pure_build
    assert on_pure_build("no_such_function", timeout=120) is None
    assert "the pure build's run failed" in capsys.readouterr().out
