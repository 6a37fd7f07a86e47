"""Every word a user reads outside the board speaks the language in force: the charts of a
tournament and of a sweep (titles, axes, legends), words marked at import time with ``N_``
and said when shown, and the English stays as it was."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tavrei_lab.i18n import N_, catalogue, set_language, speaking
from tavrei_lab.i18n import gettext as _
from tavrei_lab.lab.plots import ENDINGS, RESULTS, tournament_plots
from tavrei_lab.lab.results import ADJUDICATED, GameResult

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
    cell names, option names, the option name max-plies) and the commands it names, as
    typed, are set aside."""
    text = re.sub(r"tavrei-lab(?: [a-z][\w-]*)?(?: --[\w-]+)*", " ", text)
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
    assert "Доля результативных партий по ячейкам" in said["decisive_rate"]
    assert "Чем кончались партии по ячейкам" in said["endings"]
    assert "под ними: 95-процентный интервал Стьюдента" in said["heat_map"]
    cells = [str(c) for c in res.table.column("cell")]
    for name, text in said.items():
        assert not english_left(text, *cells, "splits", "castling", "true", "false",
                                "tavreli", "max-plies"), (name, text)


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


def test_a_store_failure_is_explained_in_russian(tmp_path: Path) -> None:
    """The SQLite failure's advice, what failed and what is kept, in the language in force;
    SQLite's own words (quoted from the library), the --store option and file names stay as
    written."""
    import sqlite3

    from tavrei_lab.lab.store import ResultsStore
    store = ResultsStore(tmp_path / "s.sqlite")
    full = sqlite3.OperationalError("database or disk is full")
    set_language("ru")
    said = str(store._fail(full, _("registering a setting")))
    assert "не удалось (запись настройки): database or disk is full" in said, said
    assert "освободите место на диске и выполните ту же команду снова" in said, said
    assert "(в хранилище остаются 0 сохранённых партий)" in said, said
    assert not english_left(said.split(": ", 1)[1], "database or disk is full",
                            "s.sqlite-wal"), said
    locked = str(store._fail(sqlite3.OperationalError("database is locked"), "x"))
    assert "хранилище занято другим процессом" in locked, locked
    set_language("en")
    english = str(store._fail(full, _("registering a setting")))
    assert "registering a setting failed" in english and "(0 games stored are kept)" in english
    assert "free some disk space and run the same command again" in english
    store.close()


def test_a_soak_reports_in_russian() -> None:
    from tavrei_lab.qa.soak import SoakReport, Violation
    report = SoakReport(games=2, plies=40, rolls=0, checks=240, seconds=0.5, tallest_tower=3)
    report.per_variant["tavreli"] = 2
    report.plies_per_variant["tavreli"] = 40
    report.endings["checkmate"] = 1
    report.endings["max-plies"] = 1
    report.violations.append(Violation("hash", "tavreli", 1, 7, 12, "after e2-e4: x", "8/8 w"))
    english = report.summary()
    assert english.startswith("soak: 2 games, 40 plies, 0 rolls, 240 invariant checks")
    assert "  tavreli: 2 games, 40 plies" in english
    assert "  VIOLATION [hash] tavreli game 1" in english
    set_language("ru")
    said = report.summary()
    assert said.startswith("прогон: партий — 2, полуходов — 40, бросков кубика — 0"), said
    assert "  tavreli: партий — 2, полуходов — 40" in said
    assert "  НАРУШЕНИЕ [hash] tavreli, партия 1 (зерно 7), после действия 12" in said
    assert not english_left(said, "tavreli", "checkmate", "max-plies", "[hash]",
                            "after e2-e4: x"), said


def test_a_tables_title_and_note_speak_russian_and_its_columns_stay_typed() -> None:
    from tavrei_lab.lab.table import pairs_table, variants_table
    english = variants_table(GAMES)
    assert english.title == "Per variant" and "Hover a column name" in english._repr_html_()
    with speaking("ru"):
        table, pairs = variants_table(GAMES), pairs_table(GAMES)
        page = table._repr_html_()
    assert table.title == "По вариантам" and pairs.title == "По парам программ (со стороны A)"
    assert "Наведите указатель на название столбца" in page and "Hover" not in page
    assert table.columns == english.columns          # the CSV's names: typed, not translated


def test_a_piece_values_note_speaks_russian() -> None:
    """Why a piece has no value (the pieces table's note): too rare, in Russian."""
    from tavrei_lab.lab.piece_values import piece_values
    samples = [([0, 0, 0, 0, 0, 1 if i < 3 else 0, (i % 3) - 1], float(i % 2), i)
               for i in range(60)]
    names = {5: "vsadnik", 6: "ratnik"}
    english = {v.name: v.note for v in piece_values(samples, names, kinds=[5, 6])[0]}
    assert english["vsadnik"].startswith("too rare to estimate: unbalanced in 3 of 60")
    set_language("ru")
    said = {v.name: v.note for v in piece_values(samples, names, kinds=[5, 6])[0]}
    assert said["vsadnik"] == ("слишком редка для оценки: неравный счёт лишь в 3 позициях "
                               "из 60 (меньше 20)")
    for note in said.values():
        assert not english_left(note), note


def test_a_directory_or_a_silent_pipe_given_as_input_is_refused_in_russian(
        tmp_path: Path) -> None:
    import os

    from tavrei_lab import RecordError
    from tavrei_lab.cli.common import read_input
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    set_language("ru")
    with pytest.raises(OSError) as caught:
        read_input(str(tmp_path))
    assert caught.value.strerror == "это папка"
    with pytest.raises(RecordError, match="канал или устройство ничего не прислал за 0.2 с"):
        read_input(str(fifo), wait=0.2)


# the names a reader of a column's meaning meets as written: the data keys of the measures
# and endings, the column p_holm and its value yes, the option max-plies
KEYS = ("white_score", "decisive", "draw", "length", "p_holm", "yes", "undecided", "max-plies")


def test_the_compare_tables_columns_mean_in_russian_and_english_stays() -> None:
    """Every column's meaning (the tooltip, the JSON's description) of the per-variant,
    per-pair and per-game tables; the column names, CSV header and JSON names unchanged."""
    import json

    from tavrei_lab.lab.table import pairs_table, tournament_games_table, variants_table
    makers = (variants_table, pairs_table, tournament_games_table)
    english = [maker(GAMES) for maker in makers]
    said = english[0].descriptions
    assert said["white_wins"] == "games won by white"
    assert said["white_wins_rate"] == "share of games won by white"
    assert said["draws_lo"] == "Wilson 95 % interval of that share: lower end"
    assert said["end_checkmate"] == "games ended by checkmate"
    assert said["end_max-plies"] == ("games ended by max-plies (adjudicated as a draw: not a "
                                     "rules ending)")
    assert said["fma_hi"] == ("t 95 % interval of the first-move advantage, on per-game scores: "
                              "upper")
    assert english[1].descriptions["a_losses"] == "games won by agent B"
    assert english[2].descriptions["seconds"] == "wall-clock time"
    with speaking("ru"):
        tables = [maker(GAMES) for maker in makers]
    ru = tables[0].descriptions
    assert ru["white_wins"] == "сколько партий выиграли белые"
    assert ru["white_wins_rate"] == "доля партий, выигранных белыми"
    assert ru["end_checkmate"] == "сколько партий закончилось матом"
    assert tables[1].descriptions["a_score"] == "очки программы A за партию"
    for table, before in zip(tables, english):
        assert table.columns == before.columns
        assert table.to_csv() == before.to_csv()        # a program's file: the same bytes
        for name, meaning in table.descriptions.items():
            assert not english_left(meaning, *KEYS, *table.columns), (table.title, name, meaning)
        data = json.loads(table.to_json())
        assert [c["name"] for c in data["columns"]] == before.columns
        assert data["columns"][0]["description"] == table.descriptions[table.columns[0]]
        assert f'<th title="{table.descriptions[table.columns[0]]}">' in table._repr_html_()
    # an ending the table does not know is named in a whole sentence, as it is recorded
    odd = game("tavreli", 9, "white", "resignation")
    with speaking("ru"):
        assert variants_table([odd]).descriptions["end_resignation"] == (
            "сколько партий закончилось так: resignation")
    assert variants_table([odd]).descriptions["end_resignation"] == "games ended by resignation"


def test_a_sweeps_tables_mean_and_name_their_methods_in_russian() -> None:
    """The cells table's measures (lab.measures), the differences table's meanings and its
    method column, the pieces and games tables; English as it was."""
    from tavrei_lab.lab import sweep
    from tavrei_lab.lab.differences import MEASURES, difference_of
    from tavrei_lab.lab.table import ResultsTable
    res = sweep("tavreli", {"splits": [True, False]}, executor="inline", agents="greedy",
                games=2, seed=5, max_plies=30, progress=False)

    def tables() -> list[ResultsTable]:
        return [res.table, res.differences(), res.pieces(), res.table_of("games")]

    def methods(cells: ResultsTable) -> list[str]:
        a, b = cells.rows[:2]
        return [difference_of(a, b, m).method for m in MEASURES]

    english = tables()
    cells = english[0].descriptions
    assert cells["branching_by_stage"] == ("legal moves per decision in plies 1-10, 11-20, ... "
                                           "(the branching factor over the game)")
    assert cells["openings"] == "different first 4 plies"
    assert cells["opening_entropy"] == "Shannon entropy of the first 4 plies, bits"
    assert cells["lead_changes"] == ("times per game the side ahead by more than 0.5 ratnik "
                                     "changed")
    assert cells["end_max-plies"] == ("share of games ended by max-plies (adjudicated as a "
                                      "draw: not a rules ending)")
    assert cells["comeback_rate"] == ("share of games decided, in which the winner trailed at "
                                      "some point (of decided games)")
    assert english[1].descriptions["p_holm"] == ("p_bound adjusted by Holm's method over "
                                                 "every row of this table")
    assert methods(english[0]) == ["Welch t on per-game scores",
                                   "Newcombe hybrid score interval; score (pooled z) test",
                                   "Newcombe hybrid score interval; score (pooled z) test",
                                   "Welch t on per-game plies"]
    assert english[2].descriptions["value_se"] == "its standard error (delta method)"
    set_language("ru")
    said = tables()
    ru = said[0].descriptions
    assert ru["openings"] == "сколько разных начал партии (первые 4 полухода)"
    assert ru["lead_changes"] == ("сколько раз за партию сменялась сторона, впереди больше "
                                  "чем на 0,5 ратника")
    assert ru["length_sd"] == "стандартное отклонение длины партии (для t-критерия Уэлча)"
    assert said[1].descriptions["p_holm"] == ("p_bound с поправкой Холма по всем строкам "
                                              "этой таблицы")
    assert methods(said[0])[:2] == [
        "t-критерий Уэлча по очкам каждой партии",
        "гибридный интервал Ньюкомба (из интервалов Уилсона); z-критерий равенства двух "
        "долей (с объединённой долей)"]
    assert {r["method"] for r in said[1].rows} <= set(methods(said[0]))
    assert said[1].rows and all(r["established"] in ("yes", "no", "no (alike)", "undecided")
                                for r in said[1].rows)     # a value a program reads
    for table, before in zip(said, english):
        assert table.columns == before.columns
        for name, meaning in table.descriptions.items():
            assert not english_left(meaning, *KEYS, *table.columns), (table.title, name, meaning)
    for method in methods(said[0]):
        assert not english_left(method), method
    assert said[0].to_csv() == english[0].to_csv()      # a program's file: the same bytes


def test_plays_record_comments_speak_russian_and_english_stays() -> None:
    """The comment ``play`` writes where a game stops: adjudicated at the cap (Russian
    plural of полуход), a resignation, a player who stopped; English as it was."""
    import io

    from tavrei_lab.cli.play import play_game
    from tavrei_lab.engine.agents import make_agent
    from tavrei_lab.game import Game

    def stopped(max_plies: int, human: str | None = None) -> str:
        g = Game("tavreli", seed=1)
        agents = [make_agent("random", seed=c) for c in (0, 1)]
        if human is not None:
            agents[0] = None
        play_game(g, agents, max_plies, stdin=io.StringIO(human or ""), stdout=io.StringIO())
        return g.comments[len(g.history)]

    assert stopped(6) == "adjudicated a draw: no result after 6 plies"
    assert stopped(21) == "adjudicated a draw: no result after 21 plies"
    assert stopped(6, "resign\n") == "white resigns"
    assert stopped(6, "") == "white stopped playing"
    set_language("ru")
    assert stopped(6) == "присуждена ничья: за 6 полуходов результата нет"
    assert stopped(21) == "присуждена ничья: за 21 полуход результата нет"
    assert stopped(22) == "присуждена ничья: за 22 полухода результата нет"
    assert stopped(6, "resign\n") == "белые сдались"
    assert stopped(6, "") == "белые прекратили игру"
    g = Game("tavreli", seed=1)
    tags = play_game(g, [make_agent("random", seed=0), make_agent("random", seed=1)], 3)
    assert tags["Result"] == "1/2-1/2"
    assert "{присуждена ничья: за 3 полухода результата нет}" in g.record(**tags)


def test_a_game_stopped_by_max_plies_says_how_many_half_moves_it_played() -> None:
    """``play --max-plies 40`` stops after move 20; "за 40 ходов" said twice as many (a
    Russian ход is white's and black's together), "за 40 полуходов" is what was played."""
    from tavrei_lab.cli.play import play_game
    from tavrei_lab.engine.agents import make_agent
    from tavrei_lab.game import Game

    set_language("ru")
    g = Game("tavreli", seed=1)
    play_game(g, [make_agent("random", seed=0), make_agent("random", seed=1)], 40)
    record = g.record(Result="*")
    assert len(g.history) == 40
    assert re.search(r"\b20\. ", record) and not re.search(r"\b21\. ", record)
    assert "{присуждена ничья: за 40 полуходов результата нет} *" in record


#: English that counts plies in other words: a turn (one side's move, or a die roll that
#: passes) and "moves" where each side's move is counted.
PLIES_IN_OTHER_WORDS = (
    "adjudicated: no result after {max_plies} turns",
    "adjudicate after N turns (default {default_max_plies})",
    "adjudicated a draw: no result after {plies} ply",
    "stop a game after N moves (default {default_max_plies})",
    "search to this depth in moves",
    "record has more than {limit} moves and rolls",
)
#: A ply named in English, once option names (--max-plies, max_plies) are set aside.
PLY_SAID = re.compile(r"(?<![-_\w])(?:ply|plies|half-moves?)(?![-_\w])", re.IGNORECASE)
#: A count of plies said as ходы in Russian: "N ходов", "{max_plies} хода".
KHODY_COUNTED = re.compile(r"(?:\bN|\{\w*pl(?:y|ies)\w*\})\s+ход", re.IGNORECASE)


def test_a_ply_count_is_never_called_khody_in_russian() -> None:
    """A Russian ход is a move of white and black together, so a count of plies said as
    ходы is read as twice as many: wherever the English counts plies (by that name, or
    as turns or moves), the Russian says полуход, and no ply count stands before ход."""
    russian = catalogue("ru").messages
    for msgid in PLIES_IN_OTHER_WORDS:
        assert msgid in russian, msgid
    for msgid, text in russian.items():
        forms = text if isinstance(text, tuple) else (text,)
        for form in forms:
            assert not KHODY_COUNTED.search(form), (msgid, form)
        if msgid in PLIES_IN_OTHER_WORDS or PLY_SAID.search(re.sub(r"\{[^{}]*\}", "", msgid)):
            for form in forms:
                assert "полуход" in form, (msgid, form)


def test_games_kept_in_memory_only_agree_with_their_count_in_russian() -> None:
    """"5 сыгранных партий были" was the plural of 2 to 4; with 5 or more (and 11 to 14)
    the verb goes to the neuter singular, as it does after "5 партий"."""
    from tavrei_lab.i18n import ngettext

    said = [ngettext("{count} finished games were in memory only (no store), so none is kept",
                     "{count} finished games were in memory only (no store), so none is kept",
                     n, language="ru").format(count=n).split(" только")[0]
            for n in (1, 3, 5, 11, 21, 22)]
    assert said == ["1 сыгранная партия была", "3 сыгранные партии были",
                    "5 сыгранных партий было", "11 сыгранных партий было",
                    "21 сыгранная партия была", "22 сыгранные партии были"]
