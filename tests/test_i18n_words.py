"""Every word a user reads outside the board speaks the language in force: the charts of a
tournament and of a sweep (titles, axes, legends), words marked at import time with ``N_``
and said when shown, and the English stays as it was."""

from __future__ import annotations

import re

import pytest

from tavrei_lab.compare.plots import ENDINGS, RESULTS, tournament_plots
from tavrei_lab.compare.results import ADJUDICATED, GameResult
from tavrei_lab.i18n import N_, catalogue, set_language, speaking
from tavrei_lab.i18n import gettext as _

WORD = re.compile(r"[A-Za-z]{3,}")


@pytest.fixture(autouse=True)
def _english_after() -> object:
    yield
    set_language(None)


def shown(svg: str) -> str:
    """What a reader sees of a chart: its text, title and tooltip elements."""
    return " ".join(re.findall(r"<(?:text|title)[^>]*>([^<]*)<", svg))


def english_left(text: str, *typed: str) -> set[str]:
    """The English words in ``text`` once the names a run was given (``typed``: variant and
    cell names, option names, the option name max-plies) are set aside."""
    for word in sorted(typed, key=len, reverse=True):
        text = text.replace(word, " ")
    return {w.lower() for w in WORD.findall(text)}


def game(variant: str, index: int, winner: str | None, termination: str) -> GameResult:
    return GameResult(variant=variant, white="greedy", black="random", seed=index,
                      index=index, agent_a="greedy", agent_b="random",
                      result={"white": "1-0", "black": "0-1", None: "1/2-1/2"}[winner],
                      winner=winner, termination=termination,
                      adjudicated=termination == ADJUDICATED, plies=20 + index,
                      mean_branching=30.0 + index, mean_tower_height=1.1,
                      max_tower_height=2 + index % 2, prisoners_taken=index, prisoners_freed=0,
                      captures=index, splits=index % 3, rolls=0, seconds=0.1)


GAMES = [game("tavreli", 0, "white", "checkmate"), game("tavreli", 1, None, ADJUDICATED),
         game("tavreli", 2, "black", "king-capture"), game("orthodox", 3, None, "stalemate"),
         game("orthodox", 4, "white", "checkmate")]


def test_a_tournaments_charts_speak_russian_and_english_stays() -> None:
    english = {name: shown(p.svg) for name, p in tournament_plots(GAMES).items()}
    assert "Results by colour" in english["results"] and "white wins" in english["results"]
    assert "plies (half-moves)" in english["game_length"]
    assert "max-plies (adjudicated)" in english["endings"]
    with speaking("ru"):
        plots = tournament_plots(GAMES)
    said = {name: shown(p.svg) for name, p in plots.items()}
    assert "Результаты за белых и за чёрных" in said["results"]
    assert {"победа белых", "ничья", "победа чёрных"} <= set(
        re.findall(r">([^<>]+)</text>", plots["results"].svg))
    assert "Длина партии" in said["game_length"] and "полуходы" in said["game_length"]
    assert "мат" in said["endings"] and "пат" in said["endings"]
    assert "король взят в плен" in said["endings"]
    assert plots["results"].title == "Результаты за белых и за чёрных"
    for name, text in said.items():
        assert not english_left(text, "tavreli", "orthodox", "max-plies"), (name, text)
    # what a program reads keeps its own names: the file names, the data-category keys
    assert set(plots) == set(english)
    assert 'data-category="white wins"' in plots["results"].svg
    assert f'data-category="{ADJUDICATED}"' in plots["endings"].svg


def test_a_sweeps_charts_speak_russian() -> None:
    from tavrei_lab.lab import sweep
    res = sweep("tavreli", {"splits": [True, False], "castling": [True, False]},
                executor="inline", agents="greedy", games=2, seed=5, max_plies=30,
                progress=False)
    english = {name: shown(p.svg) for name, p in res.plots().items()}
    assert "White's score per cell (95 % interval; dashed: an even game)" in english[
        "white_score"]
    set_language("ru")
    said = {name: shown(p.svg) for name, p in res.plots().items()}
    assert "Очки белых по ячейкам (95-процентный интервал; пунктир — равная игра)" in said[
        "white_score"]
    assert "очки белых за партию" in said["white_score"]
    assert "Длина партии по ячейкам" in said["game_length"]
    assert "Очки белых в зависимости от castling и splits" in said["heat_map"]
    assert "под ними: 95-процентный интервал Уилсона" in said["heat_map"]
    cells = [str(c) for c in res.table.column("cell")]
    for name, text in said.items():
        assert not english_left(text, *cells, "splits", "castling", "true", "false",
                                "tavreli"), (name, text)


def test_words_marked_at_import_are_said_in_the_language_in_force_when_shown() -> None:
    """``N_`` gives the id back untouched; ``_`` of it at use time follows a language
    chosen after the import, so a notebook switched to Russian reads Russian."""
    assert N_("white wins") == "white wins"
    ru = catalogue("ru").messages
    for word in [*ENDINGS.values(), *RESULTS.values()]:
        assert ru.get(word), word
    assert _(RESULTS["draw"]) == "draw"
    set_language("ru")
    assert _(RESULTS["draw"]) == "ничья"
    assert _(ENDINGS[ADJUDICATED]) == "max-plies (ничья присуждена)"
