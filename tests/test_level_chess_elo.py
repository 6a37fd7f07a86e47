"""Classroom levels say their measured chess Elo in their help (``tavrei-lab play --help``)."""

from __future__ import annotations

import pytest

from tavrei_lab.cli import main
from tavrei_lab.engine.agents import LEVEL_CHESS_ELO, LEVELS, chess_elo_text, make_agent
from tavrei_lab.i18n import get_language, set_language


def test_each_measured_figure_names_its_level_and_a_consistent_interval():
    assert LEVEL_CHESS_ELO, "no level's chess Elo is stated"
    for level, m in LEVEL_CHESS_ELO.items():
        assert make_agent(m.spec, seed=1).level == level      # measured as that level
        assert m.stockfish_elo >= 1350 and m.games >= 10
        assert m.low <= m.high
        if m.elo is not None:
            assert m.low <= m.elo <= m.high
        else:                                                  # a clean sweep: a bound only
            assert m.high < m.stockfish_elo
        text = chess_elo_text(level)
        assert str(m.high) in text and str(m.games) in text and m.date in text


def test_play_help_lists_every_level_with_its_chess_elo(capsys):
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = capsys.readouterr().out
    for level in LEVELS:
        assert chess_elo_text(level) in out
    for level in set(LEVELS) - set(LEVEL_CHESS_ELO):
        assert "not measured" in chess_elo_text(level)


def test_the_levels_chess_elo_is_said_in_russian():
    before = get_language()
    set_language("ru")
    try:
        for level in LEVELS:
            text = chess_elo_text(level)
            assert "рейтинг Эло" in text and "chess" not in text and "games" not in text
    finally:
        set_language(before)
