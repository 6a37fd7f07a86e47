"""Every tutorial notebook runs top to bottom; none is stored with outputs.

Each notebook runs in a fresh kernel in a scratch directory, so a notebook
that reads ``../shared`` or a file beside it fails here as it would on
mybinder or in JupyterLite. A cell that raises fails the test, and so does a
picture that failed to draw: IPython only prints a traceback on stderr when
a ``_repr_svg_`` breaks, so the test looks for that too.

The kernel is described by a kernelspec written into the scratch directory
(``python_kernel``), pointing at a given interpreter: this interpreter here,
the fresh binder virtual environment's in ``test_binder.py``.
"""

from __future__ import annotations

import json
import os
import re
import signal
import sys
from pathlib import Path
from typing import Any

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient

NOTEBOOK_DIR = Path(__file__).resolve().parent.parent / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
#: Seconds any one cell may take: the tutorials keep tournaments and trees tiny.
CELL_TIMEOUT = 120


def python_kernel(python: str, where: Path) -> KernelManager:
    """A kernel manager for a kernelspec running ``python``, written under ``where``."""
    spec_dir = where / "kernels" / "tavrei-test"
    spec_dir.mkdir(parents=True, exist_ok=True)
    (spec_dir / "kernel.json").write_text(json.dumps({
        "argv": [python, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "tavrei_lab test kernel",
        "language": "python",
    }))
    ksm = KernelSpecManager(kernel_dirs=[str(where / "kernels")])
    return KernelManager(kernel_name="tavrei-test", kernel_spec_manager=ksm)


def run_notebook(path: Path, workdir: Path, python: str = sys.executable,
                 extra_cells: list[str] = ()) -> Any:
    """Execute a copy of the notebook at ``path`` in ``workdir``; return the executed
    notebook. Raises ``nbclient.exceptions.CellExecutionError`` when a cell fails."""
    nb = nbformat.read(path, as_version=4)
    for source in extra_cells:
        nb.cells.append(nbformat.v4.new_code_cell(source))
    workdir.mkdir(parents=True, exist_ok=True)
    km = python_kernel(python, workdir / ".kernel")
    client = NotebookClient(nb, km=km, timeout=CELL_TIMEOUT,
                            resources={"metadata": {"path": str(workdir)}})
    try:
        client.execute()
    finally:
        shut_down(client, km)
    return nb


def shut_down(client: NotebookClient, km: KernelManager) -> None:
    """End the kernel and everything it started, now. nbclient shuts down only a kernel
    whose manager it made itself; given one (as here, for the kernelspec), it leaves the
    kernel running until the interpreter exits -- a whole test run later. The kernel
    runs in a session of its own, so its process group is its children too."""
    provisioner = getattr(km, "provisioner", None)
    pgid = getattr(provisioner, "pgid", None)
    if client.kc is not None:
        client.kc.stop_channels()
    if km.has_kernel:
        km.shutdown_kernel(now=True)
    if pgid and pgid != os.getpgid(0):
        try:
            os.killpg(pgid, signal.SIGKILL)
        except OSError:          # already gone with the kernel
            pass


def stderr_tracebacks(nb: Any) -> list[str]:
    """Tracebacks printed on stderr (a picture that failed to draw, a warning)."""
    found = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            if out.get("name") == "stderr" and "Traceback" in out.get("text", ""):
                found.append(out["text"])
    return found


#: Printed facts the prose around them relies on: if the engine ever disagrees, the
#: text of the tutorial is wrong too, and this says where.
PROSE_FACTS = {
    "00_quick_start": ["the knyaz on d1 cannot move to d8", "checkmate (white wins)"],
    "02_towers_and_prisoners": ["white tavrels: 16   black tavrels: 16",
                                "black ratnik  /  white ratnik  /  black knyaz  /  white vsadnik",
                                "nothing may be placed on a volkhv (e1)"],
    "03_splitting_towers": ["e4(1)-a4 refused", "e2 -> helgi", "black in check: True",
                            "b8: white ratnik  /  black vsadnik", "b8: white helgi"],
    "04_the_volkhv": ["legal moves: g1xg2 g1xh2 g1xf2", "0-0 is refused", "0-0-0 is legal",
                      "threefold-repetition"],
    "05_chess_die_game": ["B: the turn passes (skip)", "king   on d1: 17%",
                          "round 2: the first player rolls N, the second P",
                          "king-capture (black wins)",
                          "same final position: True"],
    "06_comparing_variants": ["splits=False: 14 moves of the d4 tower",
                              "length, tavreli - tavreli-no-split: -10.8 plies "
                              "[-43.8, +22.1], p = 0.44",
                              "checks in ordinary Tavreli: []"],
    "07_tree_tactics": ["nodes per depth: [1, 39, 1519]", "perft 1 and 2:   [39, 1519]",
                        "principal variation: e2(1)-"],
    "08_recorded_games": ["becomes a black helgi -- mate!", "checkmate (black wins)",
                          "tallest tower 11"],
    "10_which_rule_is_better": ["played now: 0", "cells in the store",
                                "first stored game replays to",
                                "made with {'evaluation_version': 4, 'fit_version': "
                                "'evaluation-4/fit-6'}",
                                "| stale: nothing",
                                "tune of 20 self-play games: proven False",
                                "cell tavreli[splits=false]: the fit of this cell's tune is "
                                "not played, no gated match tested it",
                                "strength of play:nodes=150,weights=fit,noise=10 in "
                                "tavreli[splits=true]: Elo below +113 against the reference "
                                "player play:nodes=2000",
                                "play:nodes=50: decisive with splits - without = "
                                "+0.094 [-0.011, +0.204], p = 0.069",
                                "play:nodes=150: decisive with splits - without = "
                                "+0.062 [-0.018, +0.155], p = 0.094",
                                "p = 0.0688  Holm 0.2065  established: no",
                                "p = 0.0944  Holm 0.2832  established: no",
                                "(64 games a cell): the budget is spent and neither is shown",
                                "(64 games a cell): a difference as large as the one asked "
                                "about is excluded",
                                "2% stopped at the ply limit",
                                "The question at 50, 150 nodes a move, side by side:",
                                "50: +0.094 [-0.011, +0.204] established: no; 150: +0.062 "
                                "[-0.018, +0.155] established: no => stable",
                                "games a rule set, about",
                                "the same sweep again: cells tuned now: 0 | games played now: 0"],
    "11_openings": ["287 games, both sides played by play:nodes=100,noise=10",
                    "first moves in the book: 39, each played in 7-8 games",
                    "pairs of moves tested in 1 positions; established: 0",
                    "Holm p = 1: not established",
                    "but no test established it as better"],
    "09_your_own_variant": ["volkhv_stacks=False: outcome checkmate",
                            "tavreli-capped   c2xd4 legal: False",
                            "mates in ordinary Tavreli: []"],
}


def printed_text(nb: Any) -> str:
    """Everything the notebook printed, in order."""
    return "".join(out.get("text", "") for cell in nb.cells
                   for out in cell.get("outputs", []) if out.get("output_type") == "stream")


def test_the_tutorial_series_is_complete() -> None:
    names = {p.stem for p in NOTEBOOKS}
    expected = {"00_quick_start", "01_meet_the_tavrels", "02_towers_and_prisoners",
                "03_splitting_towers", "04_the_volkhv", "05_chess_die_game",
                "06_comparing_variants", "07_tree_tactics", "08_recorded_games",
                "09_your_own_variant", "10_which_rule_is_better", "11_openings",
                "classroom_demo"}
    assert expected <= names, f"missing: {sorted(expected - names)}"


TUTORIALS = [p for p in NOTEBOOKS if p.stem[:2].isdigit()]


@pytest.mark.parametrize("path", TUTORIALS, ids=[p.stem for p in TUTORIALS])
def test_every_tutorial_ends_with_a_puzzle_on_the_board(path: Path) -> None:
    """The README's promise: each tutorial ends with a checked puzzle (an exercise's
    ``widget()``) in one of its last two code cells (the second may be a look at it)."""
    nb = nbformat.read(path, as_version=4)
    code = [c.source for c in nb.cells if c.cell_type == "code"]
    assert any("EXERCISES[" in s or "puzzle" in s for s in code[-2:]), path.name
    assert any(".widget(" in s for s in code[-2:]), f"{path.name} ends without a puzzle"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_is_stored_without_outputs(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            assert not cell.outputs, f"{path.name} cell {i} has stored outputs"
            assert cell.execution_count is None, f"{path.name} cell {i} has a count"
        assert "../shared" not in cell.source, f"{path.name} cell {i} reads ../shared"


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs_top_to_bottom(path: Path, tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # notebook 10 plays a sweep: a handful of games here, sixty in a classroom
    monkeypatch.setenv("TAVREI_LAB_QUICK", "1")
    nb = run_notebook(path, tmp_path)
    assert not stderr_tracebacks(nb), stderr_tracebacks(nb)[0]
    text = printed_text(nb)
    for fact in PROSE_FACTS.get(path.stem, []):
        assert fact in text, f"{path.name}: the text relies on {fact!r}, which was not printed"


def test_classroom_demo_speaks_to_voila_and_jupyterlab_alike() -> None:
    """The Voila page runs itself: no menu path a Voila teacher cannot follow."""
    nb = nbformat.read(NOTEBOOK_DIR / "classroom_demo.ipynb", as_version=4)
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert "Run All" not in text and "Run →" not in text
    assert "Voila" in text
    # it sends the teacher to mybinder by the address the classroom page gives, not by a
    # README link that does not exist (the README has no badge until it is published)
    address = "urlpath=voila/render/notebooks/classroom_demo.ipynb"
    classroom = (NOTEBOOK_DIR.parent / "docs" / "classroom.md").read_text(encoding="utf-8")
    assert address in text and address in classroom
    assert "link in the README" not in " ".join(text.split())


@pytest.mark.slow
def test_classroom_slider_counts_moves_as_the_record_does(tmp_path: Path) -> None:
    """The champion-game slider stops at every move of either side, labelled as the
    record numbers them: white's 15th move is "15. d2-d3", black's "15... c5xe3"."""
    nb = run_notebook(NOTEBOOK_DIR / "classroom_demo.ipynb", tmp_path, extra_cells=[
        "step.value = '15. d2-d3'\nprint('index', step.index, '|', words.value)\n"
        "step.value = '15... c5xe3'\nprint('index', step.index, '|', words.value)\n"
        "print('stops', len(step.options), 'plies', famous.ply)\n"
        # a tower of 7 has no room for 7 letters in the picture; the
        # inspector beside it names every layer of the tower under the pointer
        "step.index = 36\nprint('inspector', picture.inspector, len(picture.towers['f2']),"
        " sorted(row['name'] for row in picture.towers['f2'])[:1])"])
    text = printed_text(nb)
    assert "inspector True 7 ['knyaz']" in text
    assert "index 29 | <p" in text and "15. d2-d3: the white" in text
    assert "index 30 | <p" in text and "15... c5xe3: the black" in text
    assert "takes the tower of 3 on e3 prisoner" in text
    assert "stops 53 plies 52" in text


RU_NOTEBOOKS = sorted((NOTEBOOK_DIR / "ru").glob("*.ipynb"))


@pytest.mark.parametrize("path", RU_NOTEBOOKS, ids=[p.stem for p in RU_NOTEBOOKS])
def test_russian_notebook_is_stored_without_outputs_and_speaks_russian(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    assert any('set_language("ru")' in c.source for c in nb.cells if c.cell_type == "code")
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            assert not cell.outputs and cell.execution_count is None, f"{path.name} cell {i}"


#: What each Russian notebook must show in Russian, by an extra cell run at its end.
RU_CHECKS = {
    "00_quick_start": ("print(puzzle.hint_button.description, '|', "
                       "puzzle.check_button.description)", ["Компьютер играет", "Подсказка |"]),
    "01_meet_the_tavrels": (
        "print(EXERCISES['luchnik-analogue'].check('слон'))\n"
        "print(moves_from(\"v7/8/8/5r2/3V4/2P:L'5/8/8 w - 0 1\", 'd4'))",
        ["В  (в записи V)  волхв      ходит как король", "Л  (в записи L)  лучник",
         "Верно! Так и есть: лучник ходит как слон.", "с d4: c3"]),
    "02_towers_and_prisoners": (
        "print(puzzle.check(2))",
        ["(снизу вверх; башня чёрных)", "белых таврелей: 16   чёрных таврелей: 16",
         "на e1 стоит волхв, а на него ничего ставить нельзя", "башни, снизу вверх:",
         "Верно! У белых в плену 2 таврели"]),
    "03_splitting_towers": (
        "print(EXERCISES['free-the-vsadnik'].check('c3-c4'))",
        ["e4(1)-a4 не принят: 'e4(1)-a4': после такого хода волхв окажется под боем",
         "e2 -> хелги", "чёрным шах: да", "b8: ратник белых  /  всадник чёрных",
         "b8: хелги белых", "Пока нет. c3-c4 переносит на c4 всю башню"]),
    "04_the_volkhv": (
        "print(EXERCISES['escape-onto-a-tower'].check('g1xf2'))",
        ["допустимые ходы: g1xg2 g1xh2 g1xf2", "0-0 — нельзя: короткая рокировка",
         "0-0-0 — можно", "-> троекратное повторение (ничья)", "Верно! g1xf2 спасает от шаха"]),
    "05_chess_die_game": (
        "print(EXERCISES['die-save-the-king'].check('K'))",
        ["B: ход переходит к противнику (пропуск)", "король  на d1: 17%",
         "бросок 2: у первого игрока N, у второго P", "король взят в плен (победа чёрных)",
         "та же конечная позиция: да", "Q, R, N — этих граней не хватает"]),
    "06_comparing_variants": (
        "print(result.table.title, '|', d.method)\n"
        "print(puzzle.check('a1-a6'))",
        ["tavreli-no-split               Таврели без разделения башен",
         "без разделения: ходов башни с d4 — 14", "записей партий: 18, таблиц: 6",
         "tavreli - tavreli-no-split: -10.8 [-43.8, +22.1], p = 0.44",
         "шахи в обычных таврелях: []", "По вариантам | t-критерий Уэлча",
         "Пока нет. a1-a6: волхв противника не под боем, шаха нет."]),
    "07_tree_tactics": (
        "print(tactics.fork(escape), '|', per_face.notes['@B'], '|',"
        " show(G).buttons.children[2].description)\n"
        "import re\n"
        "print(re.findall(r'оценка [+-][0-9.]+ \\([^)]*\\)', picture(G)._repr_svg_())[:1])",
        ["узлов на каждой глубине: [1, 39, 1519]", "листьев на глубине 1 и 2: [39, 1519]",
         "главный вариант: e2(1)-", "открытый шах разделением башни: e2(1)-",
         "взятие высокой башни: c5(1)xe3: берёт башню высотой 3 на e3: в плен попадают 3",
         "@B (вероятность 0.17): ход переходит к противнику   оценка -2.19",
         "вилка: ничего не найдено | @B: ход переходит к противнику | главный вариант",
         "['оценка +", " (точно)']"]),
    "08_recorded_games": (
        "print(EXERCISES['kupreichik-mate'].check('e1-e2'))",
        ["Источник: tavreli.narod.ru (партии 1–4)",
         "самая высокая башня: 11  мат (победа белых)",
         "открылся на последней горизонтали и превращается: теперь это хелги чёрных — мат!",
         "мат (победа чёрных)", "пленников у чёрных: 7",
         "Пока нет. e1-e2 — даже не шах"]),
    "09_your_own_variant": (
        "print(CappedTowers.OPTIONS[-1].explained, '|', puzzle.check('a8-a7'))",
        ["`volkhv_stacks`, по умолчанию `True`: Волхв может вставать на башни",
         "`volkhv_stacks = False`: итог — мат (победа чёрных)",
         "ключ 'options.split': у модуля правил 'tower-chess' такой опции нет",
         "`tavreli-capped`: c2xd4 — нельзя", "мат в один ход в обычных таврелях: []",
         "Ни один ход не может сделать башню выше этого. | Пока нет. a8-a7 — даже не шах"]),
    "10_which_rule_is_better": (
        "print(EXERCISES['no-own-towers'].check('c2 e2'))",
        ["проверка на 64 партиях в ячейке: p = 0.0688 (уровень значимости этой проверки 0.0444)",
         "После 2 проверок (партий в ячейке: 64): бюджет исчерпан",
         "play:nodes=150: результативность с разделением минус без него = +0.062 "
         "[-0.018, +0.155], p = 0.094",
         "p = 0.0688  с поправкой Холма 0.2065  установлено: нет",
         "подбор по 20 партиям с собой: доказан — нет",
         "ячейка tavreli[splits=false]: веса подбора этой ячейки не играют, их не проверял ни "
         "один матч с порогом",
         "сила play:nodes=50,weights=fit,noise=10 в tavreli[splits=true]: Эло ниже +113 "
         "относительно эталонного игрока play:nodes=2000",
         "Вопрос при 50, 150 узлах на ход, рядом:", "=> устойчиво",
         "остановлено на пределе полуходов: 2%", "Чтобы обнаружить разницу 0.1",
         "тот же перебор ещё раз: ячеек с подобранными сейчас весами: 0 | "
         "партий сыграно сейчас: 0",
         "сыграно сейчас: 0", "первая сохранённая партия при повторе заканчивается так:",
         "князь", "На e2 пойти нельзя: там стоит ваша таврель, а при выключенной опции "
         "own_towers на свои вставать нельзя."]),
    "11_openings": (
        "print(puzzle.exercise.check(puzzle.move))",
        ["партий: ", "проверено пар ходов: ", "лучший первый ход книги: ",
         "p с поправкой Холма = ", "Верно! "]),
    "classroom_demo": ("print(words.value); print(picker.choice.description, "
                       "picker.puzzle.hint_button.description)\n"
                       "step.value = '15... c5xe3'; print(words.value)",
                       ["Начальная позиция. Первыми ходят белые.", "Задача Подсказка",
                        "15... c5xe3: лучник чёрных с c5 уводит за собой башню высотой 2 и "
                        "берёт в плен башню высотой 3 на e3"]),
}


#: Notation a Russian notebook prints as it is, beside the names, options and commands
#: the test leaves out anyway: the lab's measures (the values of --measure).
RU_NOTATION = {"10_which_rule_is_better": {"decisive", "length"}}
#: A command line, an option, a name with [=_] in it (a cell, an agent, a column), a file.
NOTATION = re.compile(r"tavrei-lab [^\n]*|--\S+|\S*[\[\]=_]\S*|\w+\.(?:csv|json|sqlite)\b")


def without_data(text: str) -> str:
    """``text`` without what a Russian notebook prints in Latin letters as data, not as
    English to translate: `code` spans and 'quoted' keys, variant files, and the names a
    variant file is written in (variants, rule modules, options and their values)."""
    from tavrei_lab.rules.registry import rule_module, rule_modules
    from tavrei_lab.variant import variants
    names = set(variants()) | set(rule_modules())
    for module in rule_modules():
        for option in rule_module(module).OPTIONS:
            names |= {option.name, *map(str, option.choices)}
    text = re.sub(r"`[^`\n]*`|'[^'\s]*'|\S+\.toml\b", "", text)
    alternatives = "|".join(map(re.escape, sorted(names, key=len, reverse=True)))
    return re.sub(rf"(?<![\w-])(?:{alternatives})(?![\w-])", "", text)


@pytest.mark.slow
@pytest.mark.parametrize("path", RU_NOTEBOOKS, ids=[p.stem for p in RU_NOTEBOOKS])
def test_russian_notebook_runs_top_to_bottom(path: Path, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Each Russian notebook runs, and what it shows is in Russian (the language it set)."""
    monkeypatch.setenv("TAVREI_LAB_QUICK", "1")     # notebook 10: a handful of games
    extra, expected = RU_CHECKS[path.stem]
    nb = run_notebook(path, tmp_path, extra_cells=[extra])
    assert not stderr_tracebacks(nb), stderr_tracebacks(nb)[0]
    text = printed_text(nb)
    for words in expected:
        assert words in text, (words, text[-500:])
    # nothing it prints is English from the catalogue (a record's tags are notation,
    # a variant file's names data)
    from tavrei_lab.i18n import catalogue
    english = {w.lower() for msgid in catalogue("ru").messages
               for w in re.findall(r"[A-Za-z]{3,}", re.sub(r"\{[^{}]*\}", "", msgid))}
    # nor are a web address or a repository's name (08 names where its games come from;
    # first, before a variant's id inside one -- sirdyf/tavreli -- is taken out alone)
    prose = re.sub(r"\b[a-z][\w-]*/[a-z][\w.-]*|[\w.-]+\.ru\b", "", text)
    prose = re.sub(r"<[^>]*>", "", without_data(re.sub(r'^\[\w+ "[^"]*"\]$', "", prose,
                                                       flags=re.M)))
    prose = NOTATION.sub("", prose)
    prose = re.sub(r"\b[A-Z]\w*Error\b", "", prose)   # an exception's name is code
    found = set(re.findall(r"[a-z]{3,}", prose.lower())) & english
    assert not found - RU_NOTATION.get(path.stem, set()), found - RU_NOTATION.get(path.stem, set())
