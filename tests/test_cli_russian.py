"""Every command of ``tavrei-lab`` speaks Russian under ``TAVREI_LANG=ru``: its typical output
holds no English word but the notation and the identifiers a user types (variant ids, option
names, agent specs, file names); Russian output survives a terminal that cannot write it; and
the words that name pieces and towers are chosen by language in one module only."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import tavrei_lab
from tavrei_lab.cli import COMMANDS
from tavrei_lab.core import speech
from tavrei_lab.i18n import speaking
from tavrei_lab.variant import load_variant, variants

PACKAGE = Path(tavrei_lab.__file__).parent
LATIN = re.compile(r"[A-Za-z][A-Za-z_'-]{2,}")

#: What a Russian user types or reads as a name, the same in both languages: commands and
#: options, agent specs and measures, file kinds, rule-module ids, record words.
TYPED = {"tavrei-lab", "tavreli", "orthodox", "random", "greedy", "alphabeta", "expectimax",
         "level", "play", "max-plies", "die", "tower-chess", "chess", "white_score", "decisive",
         "length", "jupyter", "lab", "json", "csv", "svg", "pgn", "toml", "cells", "pieces",
         "differences", "sprt", "out", "dir", "true", "false", *COMMANDS}


def english_left(text: str) -> set[str]:
    """The Latin words of ``text`` once paths, moves, position strings, variant ids,
    option names, agent specs (play:nodes=2000) and ``TYPED`` words are set aside."""
    names = set(variants()) | {o.name for v in variants() for o in load_variant(v).OPTIONS}
    text = re.sub(r"\S+\.(?:pgn|svg|json|csv|toml|ipynb|md)\b", " ", text)
    for word in sorted(names, key=len, reverse=True):
        text = text.replace(word, " ")
    text = re.sub(r"\S*/\S*", " ", text)                  # paths and position strings
    text = re.sub(r"\b[a-z]+:[\w=,.]+", " ", text)         # agent specs as typed
    text = re.sub(r"'[^'\n]*'|\"[^\"\n]*\"", " ", text)   # values as typed, quoted
    text = re.sub(r"--[\w-]+|\[\w+\]", " ", text)            # options, TOML tables
    return {w.lower() for w in LATIN.findall(text)} - TYPED


def run_ru(*argv: str, stdin: str = "", encoding: str | None = None,
           cwd: Path | None = None, columns: int = 100) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "TAVREI_LANG": "ru", "PYTHONPATH": str(PACKAGE.parent),
           "COLUMNS": str(columns)}
    if encoding is not None:
        env["PYTHONIOENCODING"] = encoding
    return subprocess.run([sys.executable, "-m", "tavrei_lab", *argv], input=stdin.encode(),
                          capture_output=True, env=env, timeout=120, cwd=cwd)


def said(*argv: str, stdin: str = "", cwd: Path | None = None) -> str:
    done = run_ru(*argv, stdin=stdin, cwd=cwd)
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout.decode() + done.stderr.decode()


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The typical output of every command, under ``TAVREI_LANG=ru``, on small inputs."""
    tmp = tmp_path_factory.mktemp("ru")
    record = tmp / "game.pgn"
    record.write_text("1. e2-e4 e7-e5 *\n", encoding="utf-8")
    two = tmp / "two.pgn"
    two.write_text('[Event "a"]\n\n1. e2-e4 e7-e5 *\n\n[Event "b"]\n\n1. d2-d4 d7-d5 *\n',
                   encoding="utf-8")
    variant = PACKAGE.parent / "variants" / "tavreli-no-split.toml"
    runs: dict[str, tuple[str, ...]] = {
        "replay": ("replay", str(record)),
        "perft": ("perft", "1"),
        "show": ("show", "--moves", "e2-e4 d7-d5 e4xd5"),
        "variants": ("variants", "-v"),
        "play": ("play", "--seed", "1", "--agent", "random", "--max-plies", "10",
                     "--out", str(tmp / "p.pgn")),
        "search": ("search", "--depth", "1"),
        "compare": ("compare", "--games", "2", "--agents", "random,random",
                        "--max-plies", "20", "--executor", "inline", "--no-progress"),
        "sweep": ("sweep", "--grid", "splits=true,false", "--games", "2", "--agents",
                      "random", "--max-plies", "20", "--executor", "inline",
                      "--no-progress"),
        "svg": ("svg", "--out", str(tmp / "a.svg")),
        "tree": ("tree", "--depth", "1"),
        "soak": ("soak", "--games", "2", "--variants", "tavreli", "--max-plies", "20",
                     "--no-progress"),
        "lessons": ("lessons", str(tmp / "lessons")),
        "tune": ("tune", "--generations", "1", "--games", "2", "--gate-games", "2",
                     "--nodes", "20", "--executor", "inline", "--no-progress", "--out",
                     str(tmp / "w.json")),
        "human": ("play", "--human", "white", "--seed", "1", "--out", str(tmp / "h.pgn")),
        "error": ("show", "--moves", "e2-e4 zz"),
        "missing": ("replay", str(tmp / "nothing.pgn")),
        "second game": ("replay", "--game", "2", str(two)),
        "several games": ("replay", str(two)),
        "no such game": ("replay", "--game", "3", str(two)),
        "lessons nowhere": ("lessons", str(record / "lessons")),    # under a file
    }
    typed = {"human": "ходы\nсдаюсь\n"}     # the Russian prompt words: list, then resign
    if variant.exists():
        runs["check"] = ("check", str(variant))
    with ThreadPoolExecutor(4) as pool:      # the commands' start-up overlaps
        done = {name: pool.submit(run_ru, *argv, stdin=typed.get(name, ""))
                for name, argv in runs.items()}
    out = {}
    for name, future in done.items():
        result = future.result()
        failed = name in ("error", "missing", "several games", "no such game",
                          "lessons nowhere")
        assert (result.returncode == 2) if failed else (result.returncode == 0), (
            name, result.stderr.decode())
        out[name] = result.stdout.decode() + result.stderr.decode()
    return out


def test_every_command_says_no_english_word_in_russian(outputs: dict[str, str]) -> None:
    left = {name: english_left(text) for name, text in outputs.items()}
    assert not {name: words for name, words in left.items() if words}, left


def test_variants_list_options_explained_in_russian_with_yes_and_no(
        outputs: dict[str, str]) -> None:
    text = outputs["variants"]
    assert "splits = да  (Ход может снять с башни только верхние k таврелей" in text, text[:2000]
    assert "= нет" in text and "True" not in text and "False" not in text


def test_search_compare_and_play_say_words_not_keys(outputs: dict[str, str]) -> None:
    assert "лучший ход" in outputs["search"] and "главный вариант" in outputs["search"]
    assert "best" not in outputs["search"].split()
    assert "white_wins_rate" not in outputs["compare"] and "fma_lo" not in outputs["compare"]
    assert "доля партий, выигранных белыми" in outputs["compare"]
    assert "(ничья по пределу полуходов)" in outputs["play"], outputs["play"]
    human = outputs["human"]
    assert "e2-e4" in human and "(сдача)" in human      # the Russian words list and resign


def test_os_failures_and_raw_errors_are_said_in_russian(outputs: dict[str, str]) -> None:
    assert "нет такого файла или папки" in outputs["missing"], outputs["missing"]
    assert "No such file" not in outputs["missing"]
    assert outputs["error"].startswith("tavrei-lab show: ошибка: "), outputs["error"]


def test_help_says_replay_as_reproduce_not_lose() -> None:
    text = said("--help")
    assert "воспроизвести запись партии" in text and "проиграть" not in text


@pytest.mark.parametrize("encoding", ["ascii", "cp1251"])
def test_russian_output_survives_a_stdout_that_cannot_write_it(encoding: str) -> None:
    """A character the output cannot encode becomes a stand-in (``?``), never a
    ``UnicodeEncodeError`` traceback; an error line on stderr survives too."""
    done = run_ru("variants", "-v", encoding=encoding)
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr
    shown = done.stdout.decode(encoding)
    if encoding == "cp1251":            # Cyrillic fits; the sign x of "6x6" does not
        assert "доска 6?6" in shown and "правила" in shown
    else:
        assert "?????" in shown and "gavrilov-die" in shown
    bad = run_ru("show", "--moves", "e2-e5", encoding=encoding)
    assert bad.returncode == 2 and b"Traceback" not in bad.stderr
    assert bad.stderr.decode(encoding).startswith("tavrei-lab show: ")


def test_language_is_chosen_only_in_the_speech_module() -> None:
    """No module but ``core.speech`` and the catalogue compares the language in force
    with a language code: a name is said one way wherever it is made."""
    allowed = {PACKAGE / "core" / "speech.py", PACKAGE / "i18n" / "__init__.py"}
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path in allowed:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare) and any(
                    isinstance(c, ast.Constant) and c.value in ("ru", "en")
                    for c in [node.left, *node.comparators]):
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert not found, found


def test_speech_names_pieces_in_each_language() -> None:
    pieces = load_variant("tavreli").pieces
    knyaz = pieces.by_letter["K"]
    with speaking("en"):
        assert speech.kind_name(knyaz) == "knyaz"
        assert speech.tavrel_name(1, knyaz) == "black knyaz"
        assert speech.kind_glossed(knyaz) == "knyaz (князь)"
        assert speech.number(0.5) == "0.5"
        assert speech.ending_name("resignation") == "resignation"
    with speaking("ru"):
        assert speech.kind_name(knyaz) == "князь"
        assert speech.tavrel_name(1, knyaz) == "князь чёрных"
        assert speech.kind_glossed(knyaz) == "князь"
        assert speech.number(0.5) == "0,5"
        assert speech.ending_name("checkmate") == "мат"
        assert speech.ending_name("new-ending") == "new-ending"


def _formatted_in_place(node: ast.expr) -> bool:
    """An f-string, or one cut or joined to other text: a sentence made where it is
    raised, which the catalogue never sees."""
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, (ast.BinOp, ast.Subscript)):
        return any(isinstance(c, ast.expr) and _formatted_in_place(c)
                   for c in ast.iter_child_nodes(node))
    return False


def test_no_error_is_raised_with_a_sentence_the_catalogue_never_sees() -> None:
    """Every exception the package raises with a message made by an f-string passes
    the sentence through the catalogue instead. Set aside: ``AttributeError`` from a
    ``__getattr__``, worded as Python words its own, and the catalogue's reader
    (``read_po``), which cannot say what is wrong with a catalogue through that catalogue."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        reader = {n for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)
                  and path.parent.name == "i18n" and f.name in ("read_po", "_unquote")
                  for n in ast.walk(f)}
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)
                    and node.exc.args and _formatted_in_place(node.exc.args[0])):
                continue
            name = getattr(node.exc.func, "id", getattr(node.exc.func, "attr", ""))
            if name != "AttributeError" and node not in reader:
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {name}")
    assert not found, found


#: Names a help page gives that no language translates: programs, libraries, methods,
#: and a record tag as it is written in a file.
PROPER_NAMES = ("Stockfish", "UCI_Elo", "Texel", "Lan-DeMets", "O'Brien-Fleming", "SQLite",
                "dask", "README", "JSON", "SVG", "CSV", "FEN", "UTF", "python -m benchmarks",
                "tag Variant", "тега Variant")    # a record tag, as written in the file


def help_left(text: str) -> set[str]:
    """``english_left`` of a help page once what it shows to be typed is set aside as
    well: metavars (FILE, N), choices ({white,black}) wherever the page names them, agent
    specs (level:1,nodes=20000), the files a-h and the names in ``PROPER_NAMES``."""
    from tavrei_lab.engine.agents import AGENTS
    from tavrei_lab.tree.filters import FILTERS
    choices = {c for group in re.findall(r"\{([^{}]*)\}", text) for c in group.split(",")}
    pairings = {f"{w}-{b}" for w in AGENTS for b in AGENTS}     # soak's white-black pairs
    for name in sorted({*PROPER_NAMES, *AGENTS, *FILTERS, *choices, *pairings}, key=len,
                       reverse=True):
        text = re.sub(rf"(?<![\w-]){re.escape(name)}(?![\w-])", " ", text)
    text = re.sub(r"\{[^{}]*\}|\S*[:=]\S*|\b[A-Z][A-Z0-9_|.,-]+\b|\ba-h\b", " ", text)
    return english_left(text) - {"strength"}      # python -m benchmarks strength


def test_every_help_page_is_russian_but_what_is_typed() -> None:
    """Every command's --help, the strength levels under ``play --help`` included, says
    no English word but metavars, choices, specs, option names and proper names."""
    argvs = [("--help",)] + [(command, "--help") for command in COMMANDS]
    with ThreadPoolExecutor(4) as pool:
        done = list(pool.map(lambda argv: (argv, run_ru(*argv, columns=2000)), argvs))
    left = {}
    for argv, result in done:
        assert result.returncode == 0, (argv, result.stderr.decode())
        words = help_left(result.stdout.decode())
        if words:
            left[" ".join(argv)] = words
    assert not left, left
    play = dict(done)[("play", "--help")].stdout.decode()
    assert "Сила учебных уровней" in play and "уровень 1" in play, play
