"""Russian on the research side: variant files refused, the research commands' words and
their ``--help``, and the lab's result sentences read in Russian under ``TAVREI_LANG=ru``,
with no English word of the catalogue left; the English stays as it was."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import tavrei_lab
from tavrei_lab import Game, VariantError
from tavrei_lab.i18n import catalogue, set_language
from tavrei_lab.variant import check_variant_file

PACKAGE = Path(tavrei_lab.__file__).parent
PLACEHOLDER = re.compile(r"\{(\w*)[^{}]*\}")
WORD = re.compile(r"[A-Za-z]{3,}")


@pytest.fixture(autouse=True)
def _english_after() -> object:
    yield
    set_language(None)


#: What is typed, not said: quoted input, ``code``, {placeholders}, paths, key=value and
#: agent:spec tokens, --flags, snake_case names and upper-case metavars (FILE, N).
TYPED = re.compile(r"'[^']*'|\"[^\"]*\"|`[^`]*`|\{[^{}]*\}|\S*/\S*|\S*[:=]\S*|--?[\w-]+"
                   r"|\b\w+_\w+\b|\b[A-Z][A-Z0-9_|.,]+\b")


def said_words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(TYPED.sub(" ", text))}


def english_words() -> set[str]:
    """The words the Russian catalogue replaced: those of the English ids that no Russian
    text says too. (Option names, TOML keys, ``true``/``false`` and the like are written
    the same in both languages: a Russian text showing them is not English.)"""
    kept: set[str] = set()
    ids: set[str] = set()
    for msgid, text in catalogue("ru").messages.items():
        ids |= said_words(msgid)
        for form in (text if isinstance(text, tuple) else (text,)):
            kept |= said_words(form)
    return ids - kept


def english_left(text: str, *allowed: str) -> set[str]:
    """The catalogue's English words in ``text``, what is typed (see ``TYPED``) and the
    ``allowed`` words (the names a run was given) aside."""
    for word in allowed:
        text = text.replace(word, " ")
    return said_words(text) & english_words()


def cli(*argv: str, language: str = "ru", cwd: Path | None = None, columns: int = 100,
        timeout: float = 240) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TAVREI_LANG": language, "PYTHONPATH": str(PACKAGE.parent),
           "COLUMNS": str(columns)}
    return subprocess.run([sys.executable, "-m", "tavrei_lab", *argv], capture_output=True,
                          text=True, env=env, timeout=timeout, cwd=cwd)


def test_the_checker_sees_english() -> None:
    words = english_words()
    assert {"cell", "file", "expected", "unknown", "established"} <= words
    assert "true" not in words and "die" not in words        # kept as written in Russian
    assert english_left("ключ 'options.splits': expected true") == {"expected"}


# -- variant files -------------------------------------------------------------------

BAD_VARIANTS = [  # (file text, English, Russian)
    ('extends = "tavreli"\n[options]\nsplits = 3\n',
     "key 'options.splits': expected true or false, got 3",
     "ключ 'options.splits': ожидается true или false, а указано 3"),
    ('extends = "tavreli"\nfoo = 1\n', "unknown key 'foo'; expected one of: board",
     "неизвестный ключ 'foo'; допустимые ключи: board"),
    ('extends = "tavreli"\n[board]\nwidth = 99\n',
     "key 'board.width': expected 2..26 (the board limit), got 99",
     "ключ 'board.width': ожидается от 2 до 26 (пределы доски), а указано 99"),
    ('extends = "tavreli"\n[options]\nno_such = 1\n',
     "key 'options.no_such': unknown option for rule module 'tower-chess'",
     "ключ 'options.no_such': у модуля правил 'tower-chess' такой опции нет"),
    ('extends = "nowhere"\n', "key 'extends': no variant 'nowhere'",
     "ключ 'extends': варианта 'nowhere' нет"),
    ('extends = "gavrilov-die"\n[die]\nfaces = ["K", "K"]\n',
     "key 'die.faces': face 'K' appears twice", "ключ 'die.faces': грань 'K' указана дважды"),
    ('extends = "tavreli"\n[setup]\nback_rank = "RSL"\n',
     "key 'setup.back_rank': expected 8 letters (one per file), got 3",
     "ключ 'setup.back_rank': ожидается букв по числу вертикалей (8), а их 3"),
]


@pytest.mark.parametrize(("text", "english", "russian"), BAD_VARIANTS)
def test_a_bad_variant_file_is_explained_in_russian(tmp_path: Path, text: str, english: str,
                                                    russian: str) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(VariantError, match=re.escape(f"{path}: {english}")):
        check_variant_file(path)
    set_language("ru")
    with pytest.raises(VariantError) as caught:
        check_variant_file(path)
    said = str(caught.value)
    assert said.startswith(f"{path}: {russian}"), said
    listed = re.split("допустимые ключи:|есть такие:", said)   # the names a file may use
    keys = re.findall(r"\b[a-z_]+\b", listed[-1]) if len(listed) > 1 else []
    assert not english_left(said, "tower-chess", *keys), said


def test_an_unknown_variant_and_a_missing_file_in_russian() -> None:
    set_language("ru")
    with pytest.raises(VariantError, match="неизвестный вариант 'tavrel'; есть такие: .*tavreli"):
        Game("tavrel")
    with pytest.raises(VariantError, match="nowhere.toml: такого файла варианта нет"):
        Game("nowhere.toml")


def test_check_and_a_bad_move_on_the_command_line_in_russian(tmp_path: Path) -> None:
    """``tavrei-lab check`` of a good and a bad file, and a bad move, under TAVREI_LANG=ru:
    Russian sentences, one line, exit 2 on the bad ones; the English unchanged."""
    good = cli("check", str(PACKAGE / "variants" / "tavreli.toml"))
    assert good.returncode == 0, good.stderr
    assert good.stdout.endswith(": всё верно — Таврели (tower-chess, 8×8, 39 допустимых "
                                "первых ходов)\n"), good.stdout
    english = cli("check", str(PACKAGE / "variants" / "tavreli.toml"), language="en")
    assert english.stdout.endswith(": ok -- Tavreli (tower-chess, 8x8, 39 legal first "
                                   "moves)\n"), english.stdout
    bad = tmp_path / "bad.toml"
    bad.write_text(BAD_VARIANTS[0][0], encoding="utf-8")
    refused = cli("check", str(bad))
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
    assert refused.stderr == (f"tavrei-lab check: ошибка: {bad}: {BAD_VARIANTS[0][2]}\n")
    move = cli("show", "--moves", "e2-e4 e7-e5 g1-h5")
    assert move.returncode == 2 and move.stderr.count("\n") == 1, move.stderr
    assert move.stderr.startswith("tavrei-lab show: ошибка: "), move.stderr
    assert not english_left(move.stderr, "show"), move.stderr


# -- the research commands' --help and argparse's own words ---------------------------

@pytest.mark.parametrize("command", ["sweep", "tune", "compare", "perft", "search", "tree",
                                     "svg", "soak", "check", "play", "replay", "show",
                                     "variants", "lessons"])
def test_help_of_a_research_command_in_russian(command: str) -> None:
    """Every option's help, the description and argparse's own words ("usage:",
    "options:", "show this help message and exit") in Russian; option names, metavars
    (FILE, N) and choices stay as they are typed."""
    shown = cli(command, "--help", columns=2000)     # no line wrapped inside a --flag
    assert shown.returncode == 0, shown.stderr
    text = shown.stdout
    assert text.startswith(f"использование: tavrei-lab {command}"), text[:80]
    assert "\nпараметры:\n" in text and "показать эту справку и выйти" in text
    from tavrei_lab.engine.agents import AGENTS
    from tavrei_lab.tree.filters import FILTERS
    typed = {"tree": [*FILTERS], "play": [*AGENTS]}.get(command, [])   # names, as typed
    assert not english_left(text, f"tavrei-lab {command}", *typed, "tavrei-lab", "Texel",
                            "Lan-DeMets", "O'Brien-Fleming", "SQLite", "dask", "perft",
                            "README", "JSON", "SVG", "CSV", "FEN", "UTF"), text
    english = cli(command, "--help", language="en").stdout
    assert english.startswith(f"usage: tavrei-lab {command}") and "\noptions:\n" in english


def test_sweep_and_tune_help_say_the_words_of_a_statistician() -> None:
    sweep = cli("sweep", "--help").stdout
    assert "95-процентный интервал очков белых" in sweep
    assert "функции Лана — ДеМетса типа О'Брайена — Флеминга" in " ".join(sweep.split())
    tune = " ".join(cli("tune", "--help").stdout.split())
    assert "подобрать веса игровой оценки для варианта" in tune
    top = cli("--help").stdout
    assert "Таврели (русские башенные шахматы)" in " ".join(top.split())


def test_argparse_errors_in_russian_and_argparse_left_as_it_was() -> None:
    import argparse
    import gettext

    bad = cli("sweep", "--strength-games", "0", "--measure", "foo")
    assert bad.returncode == 2
    assert bad.stderr.splitlines()[-1] == (
        "tavrei-lab sweep: ошибка: аргумент --measure: недопустимое значение: 'foo' "
        "(выберите из: 'white_score', 'decisive', 'draw', 'length')")
    none = cli()
    assert none.stderr.splitlines()[-1] == ("tavrei-lab: ошибка: не хватает обязательных "
                                            "аргументов: COMMAND")
    english = cli("perft", "x", language="en").stderr.splitlines()[-1]
    assert english == "tavrei-lab perft: error: argument DEPTH: invalid int value: 'x'"
    russian = cli("perft", "x").stderr.splitlines()[-1]
    assert russian == ("tavrei-lab perft: ошибка: аргумент DEPTH: недопустимое значение типа "
                       "int: 'x'")
    from tavrei_lab.cli import build_parser
    set_language("ru")
    assert "показать эту справку" in build_parser().format_help()
    assert argparse._ is gettext.gettext and argparse.ngettext is gettext.ngettext  # type: ignore[attr-defined]


def test_argparse_messages_keep_their_percent_placeholders() -> None:
    """argparse fills its messages with ``%``: a translation must keep each one."""
    percent = re.compile(r"%(?:\(\w+\))?[sr]")
    checked = 0
    for msgid, text in catalogue("ru").messages.items():
        want = sorted(percent.findall(msgid))
        if not want:
            continue
        for form in (text if isinstance(text, tuple) else (text,)):
            assert sorted(percent.findall(form)) == want, (msgid, form)
        checked += 1
    assert checked >= 12


# -- a small sweep and the lab's sentences ------------------------------------------------

def test_a_small_sweep_reads_in_russian(tmp_path: Path) -> None:
    """The tables' headings, the verdicts, the "established" sentence and the
    run's last line in Russian; measure names and cell names as typed."""
    argv = ("sweep", "--strength-games", "0",
            "--grid", "splits=true,false", "--agents", "random", "--games", "4",
            "--max-plies", "40", "--executor", "inline", "--workers", "1", "--no-progress",
            "--store", str(tmp_path / "s.sqlite"))
    ran = cli(*argv)
    assert ran.returncode == 0, ran.stderr
    out = ran.stdout
    assert "По ячейкам (random v random); все показатели: --out cells.csv" in out
    assert "очки белых" in out and "установлено" in out and "p по Холму" in out
    assert "Ни одно из различий (всего 3) не установлено" in out
    assert "8 партий в 2 ячейках: сыграно сейчас — 0, из хранилища — 8" not in out
    assert "8 партий в 2 ячейках: сыграно сейчас — 8, из хранилища — 0" in out
    measures = ["white_score", "decisive", "length", "tavreli", "random"]
    assert not english_left(out, *measures), out
    again = cli(*argv, language="en")          # the same store: all from it, in English
    assert "8 games in 2 cells: 0 played now, 8 from the store" in again.stdout
    assert "None of the 3 differences is established" in again.stdout


def test_lab_sentences_in_russian_by_plural() -> None:
    from tavrei_lab.i18n import ngettext
    forms = [ngettext("{count} games of this sweep are kept", "{count} games of this sweep are "
                      "kept", n, language="ru").format(count=n) for n in (1, 3, 5)]
    assert forms == ["1 партия этого перебора сохранена", "3 партии этого перебора сохранены",
                     "5 партий этого перебора сохранено"]
    from tavrei_lab.lab.planning import _duration
    set_language("ru")
    assert [_duration(30), _duration(600), _duration(9000)] == ["30 с", "10 мин", "2.5 ч"]
    with pytest.raises(tavrei_lab.TavreiError, match="неизвестная программа 'nobody'"):
        from tavrei_lab.engine.agents import make_agent
        make_agent("nobody")


def test_the_shipped_study_says_its_looks_in_the_language_in_force() -> None:
    """Tutorial 10 prints the lines the study's command printed, kept in English in the
    shipped file: lab_study says them again in Russian, numbers and names as printed."""
    import json
    from importlib import resources

    from tavrei_lab.data import lab_study
    stored = json.loads(resources.files("tavrei_lab.data").joinpath("lab_splits.json")
                        .read_text(encoding="utf-8"))
    assert lab_study() == stored                       # English: the file as it is
    set_language("ru")
    looks = lab_study()["decision"]["play:nodes=150"]
    assert looks == [
        "проверка на 32 партиях в ячейке: p = 0.151 (уровень значимости этой проверки "
        "0.00557), интервал на этом уровне от -0.138 до +0.283",
        "проверка на 64 партиях в ячейке: p = 0.0944 (уровень значимости этой проверки "
        "0.0444), интервал на этом уровне от -0.021 до +0.158",
        "После 2 проверок (партий в ячейке: 64): разница такой величины, как спрошено, "
        "исключена. decisive tavreli[splits=true] - tavreli[splits=false] = +0.062, "
        "p = 0.0944 при уровне значимости этой проверки 0.0444 (расходование уровня "
        "значимости по проверкам функцией Лана — ДеМетса типа О'Брайена — Флеминга, общий "
        "уровень 0.05)."]
    spent = lab_study()["decision"]["play:nodes=50"][-1]
    assert spent.startswith("После 2 проверок (партий в ячейке: 64): бюджет исчерпан")
    assert not said_words(" ".join([*looks, spent])) & {"look", "looks", "games", "alpha"}


# -- no new user-facing English slips past the catalogue ----------------------------------

#: Where the research side speaks to a person: the commands, the lab, the tournaments, the
#: soak and the variant files' loader; and the parts below them whose refusals reach a
#: person too (``tree --depth 99``, ``svg --size 0``, ``search --time inf``, a notebook's
#: ``board_svg(arrows=...)``): the drawings, the trees, the engine.
SCANNED = ["cli", "lab", "compare", "qa/soak.py", "variant.py", "rules/registry.py",
           "render", "tree", "engine"]
#: Python's own errors say a program passed the wrong kind of thing (a learner's bad input
#: is a ``TavreiError``, by the house rule): read by a developer, left in English.
DEVELOPERS_ERRORS = ("TypeError", "ValueError")
#: Calls whose first argument a person reads, and argparse's words.
SPOKEN_CALLS = ("print", "say", "warn")
SPOKEN_KEYWORDS = ("help", "description", "epilog")


def _said(node: object) -> bool:
    """Is ``node`` English written in place: a literal, an f-string or a ``+`` of them,
    with a word of three letters or more outside its {placeholders}?"""
    import ast
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return bool(WORD.search(PLACEHOLDER.sub("", node.value)))
    if isinstance(node, ast.JoinedStr):
        return any(_said(v) for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _said(node.left) or _said(node.right)
    if isinstance(node, ast.IfExp):
        return _said(node.body) or _said(node.orelse)
    return False


def unrouted_literals(path: Path, root: Path = PACKAGE) -> list[str]:
    import ast
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else \
            func.attr if isinstance(func, ast.Attribute) else ""
        spoken = [kw.value for kw in node.keywords if kw.arg in SPOKEN_KEYWORDS]
        if node.args and (name in SPOKEN_CALLS or name == "SweepInterrupted"
                          or (name.endswith("Error") and name not in DEVELOPERS_ERRORS)):
            spoken.append(node.args[0])
        found += [f"{path.relative_to(root)}:{v.lineno}" for v in spoken if _said(v)]
    return found


def test_the_research_side_routes_every_sentence_through_the_catalogue() -> None:
    """A message, a printed line or an option's help written as an English literal in the
    research side's sources (SCANNED) fails here: write it as ``_("... {name} ...")``
    (``ngettext`` for a count) and add its Russian to ru.po."""
    files = [p for part in SCANNED for p in sorted((PACKAGE / part).rglob("*.py"))
             if (PACKAGE / part).is_dir()] + [PACKAGE / part for part in SCANNED
                                               if part.endswith(".py")]
    assert len(files) >= 30
    left = [where for path in files for where in unrouted_literals(path)]
    assert not left, f"English written in place, not through the catalogue: {left}"


@pytest.mark.parametrize(("argv", "russian"), [
    (["tree", "--depth", "99"], "глубина дерева — от 0 до 12 полуходов, а указано 99"),
    (["tree", "--filter", "bogus"], "неизвестный фильтр ходов 'bogus'; есть такие:"),
    (["tree", "--filter", "captures,,"], "пустой фильтр ходов в 'captures,,'"),
    (["svg", "--size", "0", "--out", "x.svg"], "--size: размер — положительное число пикселей"),
    (["search", "--depth", "13"], "пределы поиска: глубина — от 1 до 12, а указано 13"),
    (["search", "--time", "inf"], "пределы поиска: время — больше 0 и не больше 3600 с"),
])
def test_the_trees_drawings_and_searchs_refusals_speak_russian(
        tmp_path: Path, argv: list[str], russian: str) -> None:
    """These stayed English under TAVREI_LANG=ru ("tree depth must be between 0 and 12
    plies"): their sources were below the parts the scan read."""
    ran = cli(*argv, cwd=tmp_path, timeout=60)
    assert ran.returncode == 2 and russian in ran.stderr, ran.stderr
    from tavrei_lab.tree.filters import FILTERS
    assert not english_left(ran.stderr.partition("ошибка:")[2], *argv, *FILTERS), ran.stderr


def test_the_scan_finds_an_unrouted_sentence(tmp_path: Path) -> None:
    import shutil
    sample = PACKAGE / "cli" / "check.py"
    copy = tmp_path / "tavrei_lab" / "cli" / "check.py"
    copy.parent.mkdir(parents=True)
    shutil.copy(sample, copy)
    with copy.open("a", encoding="utf-8") as f:
        f.write('\n\ndef late() -> None:\n    print(f"checked {1} files")\n'
                '    raise LimitError("no " + "such file")\n'
                '    raise ValueError("a program\'s " + "mistake")\n')   # (for a developer)
    assert len(unrouted_literals(copy, tmp_path)) == 2
    assert unrouted_literals(sample) == []
