"""The message catalogue: every id the code uses has a Russian translation with
the same placeholders, the plural forms follow Russian grammar, the language is
chosen as documented, and a Russian board shows no English word of the catalogue."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import tavrei_lab
from tavrei_lab import Game, TavreiError
from tavrei_lab.core.tavrel import KING, KNIGHT, PAWN, ROOK
from tavrei_lab.i18n import (
    catalogue,
    get_language,
    language_from_environment,
    ngettext,
    read_po,
    set_language,
    speaking,
)
from tavrei_lab.i18n import (
    gettext as _,
)
from tavrei_lab.render.board import ROLE_LETTERS_RU, board_svg, role_letters, strip_legend

PACKAGE = Path(tavrei_lab.__file__).parent
PO_FILES = sorted(PACKAGE.rglob("*.po"))
PLACEHOLDER = re.compile(r"\{(\w*)[^{}]*\}")


@pytest.fixture(autouse=True)
def _english_after() -> object:
    yield
    set_language(None)


def used_ids() -> dict[str, str]:
    """Every literal message id passed to ``_``/``ngettext`` in the package, or marked
    with ``N_`` to be translated where it is shown, with where."""
    found: dict[str, str] = {}
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and (
                    node.func.id in ("_", "N_", "ngettext")):
                arg = node.args[0] if node.args else None
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    found[arg.value] = f"{path.relative_to(PACKAGE)}:{node.lineno}"
                    if node.func.id == "ngettext" and len(node.args) > 1 and isinstance(
                            node.args[1], ast.Constant):
                        found.setdefault("plural of " + arg.value, found[arg.value])
    return found


def test_the_catalogue_has_every_id_the_code_uses() -> None:
    ru = catalogue("ru").messages
    ids = {k: v for k, v in used_ids().items() if not k.startswith("plural of ")}
    assert len(ids) >= 4
    missing = {k: where for k, where in ids.items() if not ru.get(k)}
    assert not missing, f"ids with no Russian translation: {missing}"


def test_no_entry_is_untranslated_or_fuzzy() -> None:
    assert PO_FILES, "no .po file shipped"
    for po in PO_FILES:
        text = po.read_text(encoding="utf-8")
        assert "#, fuzzy" not in text, f"{po.name} has fuzzy entries"
        cat = read_po(text, "ru", po.name)
        empty = [k for k, v in cat.messages.items()
                 if not v or (isinstance(v, tuple) and (len(v) != 3 or not all(v)))]
        assert not empty, f"{po.name}: untranslated {empty}"
        if shutil.which("msgfmt"):          # the gettext tools agree, where installed
            out = subprocess.run(["msgfmt", "--check", "--statistics", "-o", "/dev/null",
                                  str(po)], capture_output=True, text=True, check=True)
            assert "untranslated" not in out.stderr and "fuzzy" not in out.stderr, out.stderr


def test_placeholders_match_between_id_and_translation() -> None:
    for msgid, text in catalogue("ru").messages.items():
        want = set(PLACEHOLDER.findall(msgid))     # a translation may say a name once
        for form in (text if isinstance(text, tuple) else (text,)):
            assert set(PLACEHOLDER.findall(form)) == want, (msgid, form)


def test_russian_plural_forms() -> None:
    forms = {n: ngettext("{square}: tower of {count}, bottom → top:",
                         "{square}: tower of {count}, bottom → top:", n, language="ru")
             for n in (1, 2, 4, 5, 11, 12, 21, 22, 25, 101, 111)}
    one, few = forms[1], forms[2]
    assert "таврели," in one and "таврелей," in few
    assert [forms[n] == one for n in (21, 101)] == [True, True]
    assert forms[11] != one and forms[111] != one and forms[5] != one


def test_read_po_skips_fuzzy_and_joins_continued_lines() -> None:
    cat = read_po('msgid ""\nmsgstr ""\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
                  '#, fuzzy\nmsgid "a"\nmsgstr "А"\n\nmsgid "b"\nmsgstr "Б"\n"б"\n', "ru")
    assert cat.gettext("a") == "a" and cat.gettext("b") == "Бб"
    with pytest.raises(TavreiError, match="x.po:1"):
        read_po("msgid nonsense", "ru", "x.po")


def test_language_is_chosen_as_documented(monkeypatch: pytest.MonkeyPatch) -> None:
    assert language_from_environment({}) == "en"
    assert language_from_environment({"LANG": "ru_RU.UTF-8"}) == "ru"
    assert language_from_environment({"TAVREI_LANG": "en", "LANG": "ru_RU.UTF-8"}) == "en"
    assert language_from_environment({"TAVREI_LANG": "ru", "LANG": "C"}) == "ru"
    assert language_from_environment({"LC_ALL": "de_DE.UTF-8"}) == "en"
    monkeypatch.setenv("TAVREI_LANG", "ru")
    assert get_language() == "ru" and _("king") == "король"
    assert tavrei_lab.set_language("en") == "en" and _("king") == "king"
    with speaking("ru"):
        assert _("rook") == "ладья"
    assert _("rook") == "rook"
    with pytest.raises(TavreiError, match="unknown language 'fr'"):
        set_language("fr")
    assert get_language() == "en"            # refused: left as it was


def visible_text(svg: str) -> str:
    return " ".join(re.findall(r"<(?:text|title)[^>]*>([^<]*)<", svg))


def english_words() -> set[str]:
    words: set[str] = set()
    for msgid in catalogue("ru").messages:
        words.update(w.lower() for w in re.findall(r"[A-Za-z]{3,}", PLACEHOLDER.sub("", msgid)))
    return words


def test_a_russian_board_shows_no_english_word_of_the_catalogue() -> None:
    game = Game()
    for text in ("e2-e4", "d7-d5", "e4xd5", "d8xd5"):      # a tower of 2 and of 3
        game.push(text)
    english = english_words()
    assert {"white", "tower", "king"} <= english
    svg = board_svg(game.position, language="ru")
    shown = visible_text(svg)
    assert "ратник белых (пешка)" in shown and "башня из 3 таврелей" in shown
    assert not (set(re.findall(r"[a-z]{3,}", shown.lower())) & english), shown
    assert get_language() == "en"                  # language= spoke for the picture only
    assert "white ratnik" in visible_text(board_svg(game.position))


def test_russian_strip_letters_are_cyrillic_and_tell_every_role_apart() -> None:
    pieces = Game().rules.pieces
    letters = role_letters(pieces, "ru")
    assert letters is ROLE_LETTERS_RU
    assert len(set(letters.values())) == len(letters)       # ратник and ратоборец differ
    assert letters[ROOK] == "Р" and letters[PAWN] == "П" and letters[KING] == "В"
    assert letters[KNIGHT] == "С"
    assert all("\u0410" <= ch <= "\u042f" for ch in letters.values())
    assert [letter for letter, _kind in strip_legend(pieces, language="ru")][:2] == ["В", "К"]
    game = Game()
    for text in ("e2-e4", "d7-d5", "e4xd5"):
        game.push(text)
    letters_drawn = re.findall(r'font-weight="bold"[^>]*>([^<]+)<', board_svg(
        game.position, language="ru"))
    assert "П" in letters_drawn and "P" not in letters_drawn
    # a set with chess names keeps the international letters (the king needs one)
    assert role_letters(Game("orthodox").rules.pieces, "ru")[KING] == "K"


def test_every_shipped_piece_analogue_is_in_the_catalogue() -> None:
    """Tooltips translate ``PieceKind.english`` at run time (not a literal id)."""
    ru = catalogue("ru").messages
    for variant in tavrei_lab.variants():
        for kind in Game(variant).rules.pieces.by_kind.values():
            assert ru.get(kind.english), (variant, kind.english)


def test_every_lesson_puzzle_reads_in_russian() -> None:
    """Titles, prompts and hints are data, not literal ids: each must be in the catalogue,
    and an empty answer's feedback in Russian names what to type in Russian."""
    from tavrei_lab.exercises import EXERCISES

    ru = catalogue("ru").messages
    english = english_words()
    for key, ex in EXERCISES.items():
        for text in (ex.title, ex.prompt, ex.hint):
            assert not text or ru.get(text), (key, text)
        with speaking("ru"):
            said = str(ex.check(None))
            page = ex._repr_html_(board_size=120)
        assert said.startswith("Ответа пока нет.") and "Впишите ответ" in said, said
        assert not (set(re.findall(r"[a-z]{3,}", said.lower())) & english), (key, said)
        assert _(ex.title, language="ru") in page
    with speaking("ru"):
        assert str(EXERCISES["first-prisoner"].check("e4xd5")).startswith("Верно!")


def test_a_russian_puzzle_widget_speaks_russian() -> None:
    from tavrei_lab.exercises import EXERCISES
    from tavrei_lab.widgets.puzzle import PuzzleWidget

    with speaking("ru"):
        widget = PuzzleWidget(EXERCISES["count-prisoners"])
    labels = {widget.hint_button.description, widget.reset_button.description,
              widget.check_button.description, widget.solutions_button.description}
    assert labels == {"Подсказка", "Ещё раз", "Проверить", "Показать решения"}
    assert "Сосчитайте пленников" in widget.header.value
    widget.show_hint()
    assert "Подсказка: Загляните внутрь" in widget.hint_text.value
    assert widget.answer_box.placeholder == "ваш ответ"


def test_checkers_explain_in_russian() -> None:
    """A right and a wrong answer's explanation in Russian, the tavrel's name included,
    and the plural of the replies (1 защита, 2 защиты, 5 защит) chosen by count."""
    from tavrei_lab.exercises import EXERCISES

    english = english_words() - {"move"}       # squares and move text stay as written
    with speaking("ru"):
        said = [str(EXERCISES["first-prisoner"].check("e4xd5")),
                str(EXERCISES["first-prisoner"].check("e4-e5")),
                str(EXERCISES["luchnik-analogue"].check("слон")),
                str(EXERCISES["check-through-your-own"].check("a1-a8"))]
    assert said[0] == ("Верно! e4xd5: в плен попадает ратник чёрных на d5. Пленник остаётся "
                       "на доске, под взявшей его таврелью.")
    assert said[1].startswith("Пока нет. e4-e5 ведёт на пустое поле")
    assert said[2] == "Верно! Так и есть: лучник ходит как слон."
    assert "волхв противника под боем" in said[3]
    for text in said:
        assert not (set(re.findall(r"[a-z]{3,}", text.lower())) & english), text
    forms = [ngettext("{move} gives check, but {count} reply gets out of it (for example "
                      "{sample}).", "{move} gives check, but {count} replies get out of it "
                      "(for example {sample}).", n, language="ru") for n in (1, 3, 7)]
    assert [f.split(" (")[0].split()[-1] for f in forms] == ["защита", "защиты", "защит"]


def test_counting_checkers_explain_in_russian() -> None:
    from tavrei_lab.exercises import EXERCISES

    with speaking("ru"):
        held = str(EXERCISES["count-prisoners"].check(2))
        squares = str(EXERCISES["vsadnik-squares"].check("a3"))
        right = str(EXERCISES["vsadnik-squares"].check("a3 c3 d2"))
    assert held == "Верно! У белых в плену 2 таврели: ратник чёрных на a2, князь чёрных на a2."
    assert "Не хватает c3: поле пустое" in squares and "там стоит ратник белых" in squares
    assert right.startswith("Верно! Все 3 поля: a3, c3, d2.")
    assert str(EXERCISES["count-prisoners"].check(2)).startswith("Right! white holds 2")


# -- what a learner reads outside the board: refusals, outcomes, towers, commentary -------

def _refusal(game: Game, move: str) -> str:
    with pytest.raises(TavreiError) as caught:
        game.push(move)
    return str(caught.value)


REFUSALS = [   # (position or None, move, English, Russian)
    (None, "d1xe1", "nothing may be placed on a volkhv (e1)",
     "на e1 стоит волхв, а на него ничего ставить нельзя"),
    (None, "e7-e5", "the tower on e7 is black's; it is white's move",
     "на e7 стоят чёрные, а ход белых"),
    (None, "e2(2)-e4", "the tower on e2 has 1 tavrel(s); cannot take 2",
     "в башне на e2 всего 1 таврель — снять 2 нельзя"),
    (None, "d1-d5", "the knyaz on d1 cannot move to d5", "князь с d1 не может пойти на d5"),
    ("7v/8/8/8/4(rR)3/8/8/4V3 w - 0 1", "e4(1)-a4", "it would leave the volkhv attacked",
     "после такого хода волхв окажется под боем"),
    ("r3v2r/8/l7/8/8/8/8/R3V2R w - 0 1", "0-0", "short (0-0) castling is not legal here",
     "короткая рокировка (0-0) здесь невозможна"),
]


@pytest.mark.parametrize(("position", "move", "english", "russian"), REFUSALS)
def test_a_refused_move_is_explained_in_the_language_in_force(
        position: str | None, move: str, english: str, russian: str) -> None:
    game = Game(position=position)
    before = game.position.string
    assert english in _refusal(game, move)
    set_language("ru")
    said = _refusal(game, move)
    assert russian in said, said
    assert not re.search(r"[a-z]{3,}", said.replace(move, "")), said   # no English left
    assert game.position.string == before                               # refused: unchanged


def test_russian_plural_of_a_tower_height_in_a_refusal() -> None:
    set_language("ru")
    game = Game(position="4v3/8/8/8/3(LsR)4/8/8/6V1 w - 0 1")
    assert "всего 3 таврели — снять 5 нельзя" in _refusal(game, "d4(5)-d6")
    game = Game(position="4v3/8/8/8/3(LsRSR)4/8/8/6V1 w - 0 1")
    assert "всего 5 таврелей — снять 6 нельзя" in _refusal(game, "d4(6)-d6")


def test_outcome_tower_and_reach_in_russian() -> None:
    from tavrei_lab.data import recorded_game
    from tavrei_lab.exercises import describe_tower, moves_from
    game = Game()
    game.play("e2-e4 d7-d5 e4xd5 d8xd5")
    mate = Game()
    mate.play(" ".join(recorded_game(3)["moves"]))
    assert str(mate.outcome()) == "checkmate (black wins)"
    assert describe_tower(game.position, "d5").endswith("(bottom -> top; black's tower)")
    set_language("ru")
    assert str(mate.outcome()) == "мат (победа чёрных)"
    assert describe_tower(game.position, "d5") == (
        "d5: ратник чёрных  /  ратник белых  /  князь чёрных    (снизу вверх; башня чёрных)")
    assert describe_tower(game.position, "d4") == "d4: пусто"
    assert describe_tower(game.position, "a1") == "a1: ратоборец белых (одна таврель, не башня)"
    assert str(moves_from(None, "b1")) == "с b1: d2 a3 c3"


def test_commentary_of_a_recorded_game_in_russian_by_plural() -> None:
    from tavrei_lab.data import recorded_game
    from tavrei_lab.exercises import commentary
    game = Game()
    game.play(" ".join(recorded_game(3)["moves"]))
    english = commentary(game, 30)
    assert english.endswith("takes the tower of 3 on e3 prisoner (3 enemy tavrels in it)")
    set_language("ru")
    lines = [commentary(game, ply) for ply in range(1, game.ply + 1)]
    assert lines[29] == ("15... c5xe3: лучник чёрных с c5 уводит за собой башню высотой 2 и "
                         "берёт в плен башню высотой 3 на e3 (в ней 3 неприятельские таврели)")
    assert lines[-1].endswith("теперь это хелги чёрных — мат!")
    for line in lines:                     # squares and moves aside, every word is Russian
        words = re.sub(r"[a-h][1-8]|\([0-9]\)|x|-", " ", line.split(": ", 1)[1])
        assert not re.search(r"[A-Za-z]{2,}", words), line


# -- the command line speaks the environment's language (TAVREI_LANG, then the locale) -----

def _cli_ru(*argv: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    import os
    import sys
    env = {**os.environ, "TAVREI_LANG": "ru", "PYTHONPATH": str(PACKAGE.parent)}
    return subprocess.run([sys.executable, "-m", "tavrei_lab", *argv], input=stdin,
                          capture_output=True, text=True, env=env, timeout=120)


def test_cli_in_russian_show_play_and_an_error() -> None:
    shown = _cli_ru("show", "--moves", "e2-e4 d7-d5 e4xd5")
    assert shown.returncode == 0, shown.stderr
    assert "ход чёрных\nбашни, снизу вверх:\n  d5: p:K' P:H'" in shown.stdout
    assert "допустимых ходов: " in shown.stdout and "позиция: " in shown.stdout
    played = _cli_ru("play", "--human", "white", "--seed", "1", stdin="d1xe1\nходы\nсдаюсь\n")
    assert played.returncode == 0, played.stderr
    out = played.stdout
    assert "белые — ваш ход (или 'ходы' — список ходов, 'сдаюсь' — сдаться): " in out
    assert "e2-e4" in out and "0-1" in out      # the Russian words list the moves and resign
    assert "недопустимо: 'd1xe1': на e1 стоит волхв, а на него ничего ставить нельзя" in out
    bad = _cli_ru("show", "--moves", "e2-e5")
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.startswith("tavrei-lab show: ошибка: ") and bad.stderr.count("\n") == 1
    assert "пешк" not in bad.stderr and "ратник с e2 не может пойти на e5" in bad.stderr


def test_tree_view_words_and_tactic_notes_in_russian() -> None:
    from tavrei_lab.tree import build, minimax
    from tavrei_lab.tree.tactics import capture_tall_tower, fork
    from tavrei_lab.widgets import TreeView
    set_language("ru")
    G = build(Game(position="4v3/8/8/8/3(LsR)4/8/7V/3r4 b - 0 1"), 1)
    minimax(G)
    view = TreeView(G)
    info = view.info.value
    assert "<b>узел 0</b>: выбор хода, ход чёрных" in info
    assert "оценка " in info and "в пользу белых (точно)" in info
    assert "ходы: (корень дерева)" in info
    assert not re.search(r"\b(node|moves|value|white|black)\b", info), info
    tactic = capture_tall_tower(Game(position="4v3/8/8/8/3(LsR)4/8/7V/3r4 b - 0 1"))
    # the kind stays the finder's name; its title is said in Russian (notebook 07)
    assert tactic.kind == "capture-tall-tower" and tactic.title == "взятие высокой башни"
    assert str(tactic) == ("взятие высокой башни: d1xd4: берёт башню высотой 3 на d4: в плен "
                           "попадают 2 неприятельские таврели, 1 своя таврель снова в своей "
                           "башне")
    assert str(fork(Game())) == "вилка: ничего не найдено"
    set_language("en")
    assert str(capture_tall_tower(Game(position="4v3/8/8/8/3(LsR)4/8/7V/3r4 b - 0 1"))) == (
        "capture-tall-tower: d1xd4: takes the tower of 3 on d4: 2 enemy tavrels become "
        "prisoners, 1 own tavrel is held by us again")
    assert str(fork(Game())) == "fork: nothing found"


TYPOS = [   # (variant, what is typed, English, Russian): Game.play's refusals of typed text
    ("tavreli", "e2-e9", "'e9' is off the board on a 8x8 board",
     "'e9' — такого поля на доске 8×8 нет"),
    ("tavreli", "hello", "'hello' is not a move", "ход 1: 'hello' — это не ход"),
    ("tavreli", "e2(0)-e4", "a move takes at least one tavrel, not 0",
     "ход уносит хотя бы одну таврель, а не 0"),
    ("gavrilov-die", "@Z", "@Z: the die has no such face; its faces are K Q R B N P",
     "@Z: у кубика нет такой грани; его грани: K Q R B N P"),
    ("gavrilov-die", "e2-e3", "'e2-e3': roll the die first", "'e2-e3': сначала бросьте кубик"),
]


@pytest.mark.parametrize(("variant", "typed", "english", "russian"), TYPOS)
def test_a_typo_or_a_roll_out_of_turn_is_explained_in_russian(
        variant: str, typed: str, english: str, russian: str) -> None:
    game = Game(variant, seed=1)
    with pytest.raises(TavreiError, match=re.escape(english)):
        game.play(typed)
    set_language("ru")
    with pytest.raises(TavreiError) as caught:
        game.play(typed)
    assert russian in str(caught.value), str(caught.value)
    assert game.ply == 0 and not game.history
    with pytest.raises(TavreiError, match="отменять нечего: партия в начальной позиции"):
        game.pop()


def test_a_set_up_the_rules_refuse_is_explained_in_russian() -> None:
    from tavrei_lab import PositionError
    bad = "4v3/8/8/8/8/8/8/4r1V1 b - 0 1"           # white, not to move, is in check
    with pytest.raises(PositionError, match=r"the side not to move \(white\) is in check"):
        Game(position=bad)
    set_language("ru")
    with pytest.raises(PositionError, match="белым, хотя сейчас не их ход, объявлен шах"):
        Game(position=bad)
    with pytest.raises(PositionError, match="у чёрных нет таврели «волхв»"):
        Game(position="8/8/8/8/8/8/8/4V3 w - 0 1")


def test_a_record_that_cannot_be_read_is_explained_in_russian() -> None:
    from tavrei_lab import RecordError
    twice = '[White "a"]\n[White "b"]\n\n*'
    with pytest.raises(RecordError, match="line 2: tag White given twice"):
        Game.from_record(twice)
    set_language("ru")
    with pytest.raises(RecordError, match="строка 2: тег White указан дважды"):
        Game.from_record(twice)
    with pytest.raises(RecordError, match="тег Seed: нужно целое число, а не 'x'"):
        Game.from_record('[Seed "x"]\n\n1. e2-e4 *')


def test_a_position_string_that_cannot_be_read_is_explained_in_russian() -> None:
    """Set position on a Russian board must not say 'position string: expected 5 fields
    ...' in English; every reading error is a catalogue sentence, English unchanged."""
    from tavrei_lab import PositionError
    from tavrei_lab.widgets import Board
    cases = [("xyz", "expected 5 fields", "нужно 5 полей"),
             ("", "position string: empty", "строка позиции: она пуста"),
             ("a/b/c w - 0 1", "3 ranks, but the board has 8", "горизонталей 3, а на доске их 8"),
             ("9/8/8/8/8/8/8/8 w - 0 1", "rank 8: bad count", "горизонталь 8: неверное число"),
             ("8/8/8/8/8/8/8/8 x - 0 1", "side to move", "чей ход, пишется"),
             ("8/8/8/8/8/8/8/(Vq) w - 0 1", "unknown piece letter", "неизвестная буква таврели"),
             ("8/8/8/8/8/8/8/4V3 w - 0 0", "fullmove number starts at 1",
              "номер хода начинается с 1")]
    for text, english, _russian in cases:
        with pytest.raises(PositionError, match=re.escape(english)):
            Game(position=text)
    board = Board(language="ru")
    before = board.game.position.string
    for text, _english, russian in cases:
        set_language("ru")
        with pytest.raises(PositionError, match=re.escape(russian)):
            Game(position=text)
        set_language("en")
        board.set_position(text)
        status = re.sub(r"<[^>]+>", "", board.status.value)
        assert russian in status and "position string" not in status, status
        assert board.game.position.string == before
