"""Puzzles are data: the ready-made ones come from ``exercises/puzzles.toml``, and a
teacher's file adds one without any Python -- it appears, is checked by the named
checker, speaks Russian from its own texts, and a bad file is refused in one line."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tavrei_lab.errors import TavreiError
from tavrei_lab.exercises import EXERCISES, load_puzzles, puzzle_from_data
from tavrei_lab.i18n import speaking

ROOT = Path(__file__).resolve().parents[1]

TEACHERS_FILE = textwrap.dedent('''
    [[puzzle]]
    key = "my-first-move"
    title = "Open the centre"
    prompt = "White to move: push the king's ratnik two squares."
    answer = "move"
    checker = "accepted"
    accepted = ["e2-e4"]
    focus = ["e2"]
    hint = "The ratnik in front of the volkhv."

    [puzzle.ru]
    title = "Откройте центр"
    prompt = "Ход белых: продвиньте ратника на две клетки."
    hint = "Ратник перед волхвом."

    [[puzzle]]
    key = "my-mate"
    title = "Mate in one"
    prompt = "Black to move and mate."
    variant = "tavreli-king-never-stacks"
    position = "v3r3/8/8/8/8/8/5(P:LS)P:SP:R/6V1 b - 0 1"
    answer = "move"
    checker = "mate-in-one"
''')


def test_every_shipped_puzzle_is_read_from_the_data_file() -> None:
    shipped = load_puzzles(ROOT / "tavrei_lab" / "exercises" / "puzzles.toml")
    assert [p.key for p in shipped] == list(EXERCISES)[:len(shipped)]
    assert len(shipped) >= 16
    for puzzle in shipped:
        assert puzzle.texts["ru"]["title"] and puzzle.texts["ru"]["prompt"], puzzle.key
        assert puzzle.solutions(), puzzle.key      # each has an answer its checker accepts


def test_a_puzzle_added_as_data_only_appears_and_is_checked(tmp_path: Path) -> None:
    (tmp_path / "mine.toml").write_text(TEACHERS_FILE, encoding="utf-8")
    script = textwrap.dedent("""
        from tavrei_lab.exercises import exercise
        from tavrei_lab.i18n import speaking
        mine = exercise("my-first-move")
        assert mine.check("e2-e4") and not mine.check("d2-d4"), mine.check("d2-d4")
        assert "cannot" in mine.check("e2-e5").message
        assert mine.solutions() == ["e2-e4"]
        with speaking("ru"):
            assert mine.said("title") == "Откройте центр"
            assert "Откройте центр" in mine._repr_html_()
        mate = exercise("my-mate")
        assert mate.solutions() and all(mate.check(s) for s in mate.solutions())
        print("ok", len(mate.solutions()))
    """)
    env = {**os.environ, "TAVREI_PUZZLES": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("ok ")


def test_the_accepted_checker_reads_squares_and_words() -> None:
    squares = puzzle_from_data({"key": "k", "title": "t", "prompt": "p", "answer": "squares",
                                "accepted": ["c3 a3"]})
    assert squares.check("a3, c3") and not squares.check("a3")
    words = puzzle_from_data({"key": "w", "title": "t", "prompt": "p",
                              "accepted": ["Rook", "ladya"]})
    assert words.check("  rook ") and not words.check("bishop")
    with speaking("ru"):
        assert str(words.check(None)).startswith("Ответа пока нет.")


@pytest.mark.parametrize(("entry", "said"), [
    ({"title": "t", "prompt": "p", "checker": "mate-in-one"}, "key is required"),
    ({"key": "k", "title": "t", "prompt": "p", "checker": "mate-in-two"},
     "checker must be one of"),
    ({"key": "k", "title": "t", "prompt": "p", "checker": "frees", "args": {"square": "d4"}},
     "cannot take args"),
    ({"key": "k", "title": "t", "prompt": "p", "checker": "accepted"},
     "needs a list of accepted answers"),
    ({"key": "k", "title": "t", "prompt": "p", "accepted": ["x"], "anser": "move"},
     "unknown field(s) anser"),
    ({"key": "k", "title": "t", "prompt": "p", "accepted": ["x"], "answer": "click"},
     "answer must be one of"),
    ({"key": "k", "title": "t", "prompt": "p", "accepted": ["x"], "ru": {"titel": "x"}},
     "[puzzle.ru] holds title"),
])
def test_a_bad_puzzle_is_refused_naming_the_file_the_puzzle_and_the_field(
        entry: dict, said: str) -> None:
    with pytest.raises(TavreiError) as caught:
        puzzle_from_data(entry, "mine.toml")
    assert said in str(caught.value) and str(caught.value).startswith("mine.toml: puzzle")


def test_a_file_with_a_key_twice_or_bad_toml_is_refused_whole() -> None:
    with pytest.raises(TavreiError, match="given more than once"):
        load_puzzles("twice.toml", text=TEACHERS_FILE + TEACHERS_FILE)
    with pytest.raises(TavreiError, match="not a TOML file"):
        load_puzzles("broken.toml", text="[[puzzle]\nkey = 1")


def test_exercise_widget_opens_through_the_registered_front_end() -> None:
    """No import of the widgets in the exercises part; the front end registers itself."""
    script = textwrap.dedent("""
        import sys
        from tavrei_lab.exercises import EXERCISES
        assert "tavrei_lab.widgets" not in sys.modules
        widget = EXERCISES["first-prisoner"].widget()
        from tavrei_lab.widgets.puzzle import PuzzleWidget, open as open_puzzle
        assert isinstance(widget, PuzzleWidget)
        assert isinstance(open_puzzle(EXERCISES["ratnik-destiny"]), PuzzleWidget)
        print("ok")
    """)
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    imported = set()
    for path in (ROOT / "tavrei_lab" / "exercises").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                imported.add(node.module or "")
            elif isinstance(node, ast.Import):
                imported |= {alias.name for alias in node.names}
    assert not [m for m in imported if m.startswith("tavrei_lab.widgets")]
