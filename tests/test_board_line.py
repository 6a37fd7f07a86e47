"""The board's line (``MoveLine``): kept in step with the game, rebuilt only where it changed.

Reported: on a 20,000-ply game the End key took ~1.3 s, because every step wrote
the text of every move of the line again. The reproduction kept here counts the
move texts written: stepping writes none, a new move writes its own. The speed
itself is measured in ``benchmarks/bench_board.py``. The incremental line is held
to a from-scratch rebuild (the board's old way) through random play, undo, redo
and die rolls.
"""

from __future__ import annotations

import random

import pytest

from tavrei_lab import Game
from tavrei_lab.core.tavrel import WHITE
from tavrei_lab.errors import TavreiError
from tavrei_lab.widgets import Board
from tavrei_lab.widgets.line import MoveLine

SHUFFLE = "g1-f3 g8-f6 f3-g1 f6-g8"


def rebuilt(game: Game) -> tuple[list[str], list[tuple[str, int]]]:
    """The line's texts and move-list entries written from scratch: redo a copy to the end."""
    future = game.copy()
    while future.can_redo():
        future.redo()
    texts = future.action_texts()
    entries: list[tuple[str, int]] = [("start", 0)]
    roll: tuple[str, int] | None = None
    for i, (pos, text) in enumerate(zip(future.positions, texts)):
        dots = "." if pos.turn == WHITE else "..."
        if text.startswith("@"):
            if roll is not None:
                entries.append(roll)
            roll = (f"{pos.fullmove_number}{dots} {text}", i + 1)
            continue
        entries.append((f"{roll[0]} {text}" if roll else f"{pos.fullmove_number}{dots} {text}",
                        i + 1))
        roll = None
    if roll is not None:
        entries.append(roll)
    return texts, entries


def count_move_texts(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the moves any game writes to text from now on (``calls[0]``)."""
    calls = [0]
    write = Game.move_text

    def counting(self, move, position=None):  # type: ignore[no-untyped-def]
        calls[0] += 1
        return write(self, move, position)

    monkeypatch.setattr(Game, "move_text", counting)
    return calls


@pytest.mark.parametrize("variant, seed", [("tavreli", 1), ("tavreli", 2),
                                           ("gavrilov-die", 3), ("gavrilov-die", 4)])
def test_the_line_matches_a_rebuild_through_random_play_undo_and_redo(variant: str,
                                                                     seed: int) -> None:
    rng = random.Random(seed)
    game = Game(variant, seed=seed)
    line = MoveLine()
    for _ in range(400):
        op = rng.random()
        if op < 0.45 and not game.is_game_over():
            if game.is_chance_node():
                game.roll()
            else:
                game.push(rng.choice(game.legal_moves()))
        elif op < 0.7 and game.action_count:
            game.pop()
        elif op < 0.9 and game.can_redo():
            game.redo()
        elif op < 0.95:
            game.clear_redo()
        else:                          # a refused play restores the game, redo line included
            with pytest.raises(TavreiError):
                game.play("a1-a1")
        line.follow(game)
        texts, entries = rebuilt(game)
        assert line.texts == texts
        assert line.entries == entries
        assert line.plies == sum(1 for t in texts if not t.startswith("@"))
        played = game.action_count
        assert line.entry_at(played) == min(v for _, v in entries if v >= played)


def test_stepping_writes_no_move_text_and_a_new_move_writes_its_own(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game()
    game.play(" ".join([SHUFFLE] * 100))           # 400 plies
    board = Board(game)
    calls = count_move_texts(monkeypatch)
    for key in ("Home", "End", "ArrowLeft", "ArrowLeft", "ArrowRight", "Home", "ArrowRight"):
        board.view.simulate_key(key)
    board.move_list.value = board.move_list.options[150][1]     # a click on the list
    board.undo()
    board.redo()
    assert calls[0] == 0
    assert game.action_count == 150
    # a new move from the middle starts a side line: only its text is written
    board.play("e2-e4")
    assert board.game.action_count == 151 and not board.game.can_redo()
    assert calls[0] == 2                  # the move list's text and the status line's
    labels = [label for label, _ in board.move_list.options]
    assert labels[-2:] == ["75... g8-f6", "\u21b3 76. e2-e4"]
    assert "(ply 151 of 151)" in board.session.where_text()


def test_a_new_game_on_the_board_gets_its_own_line() -> None:
    board = Board()
    board.play("e2-e4")
    other = Game()
    other.play("d2-d4 d7-d5")
    board.set_game(other)
    assert [label for label, _ in board.move_list.options] == ["start", "1. d2-d4", "1... d7-d5"]
    board.view.simulate_key("Home")
    board.view.simulate_key("End")
    assert board.game.action_texts() == ["d2-d4", "d7-d5"]


def test_a_game_changed_behind_the_boards_back_is_followed() -> None:
    board = Board()
    board.play("e2-e4")
    board.game.push("e7-e5")               # from a notebook cell, not through the board
    board.view.simulate_key("ArrowLeft")
    assert [label for label, _ in board.move_list.options] == ["start", "1. e2-e4", "1... e7-e5"]
    assert board.move_list.value == 1


def test_a_move_off_the_line_starts_a_side_line_and_the_game_keeps_its_moves() -> None:
    # reported while comparing with lichess's analysis board: trying a move from an
    # earlier point of a game threw the rest of the game away (only a reload brought it back)
    game = Game()
    game.play("e2-e4 e7-e5 g1-f3 b8-c6 f1-c4 g8-f6")
    board = Board(game)
    board.go_to(2)
    board.play("g1-f3")                     # the game's own move: the board steps along
    assert board.game is game and game.can_redo() and game.action_count == 3
    board.play("d7-d6")                     # off the line: a side line on a copy
    assert board.game is not game
    assert "the game's own 2... b8-c6 is kept" in board.message
    assert game.action_count == 3 and len(board.line()) == 4
    assert [label for label, _ in board.move_list.options][3:] == ["2. g1-f3", "\u21b3 2... d7-d6"]
    assert board.game_button.layout.display == ""
    board.play("d2-d4")
    board.step(-1)
    assert "Your side line: the game went 2... b8-c6." in board.message
    assert game.action_texts() == ["e2-e4", "e7-e5", "g1-f3"]      # the game is untouched
    board.back_to_game()
    assert board.game is game and game.action_count == 3
    assert "Back to the game: it went on with 2... b8-c6." in board.message
    assert board.game_button.layout.display == "none"
    board.view.simulate_key("End")
    assert game.action_texts() == ["e2-e4", "e7-e5", "g1-f3", "b8-c6", "f1-c4", "g8-f6"]
    assert all("\u21b3" not in label for label, _ in board.move_list.options)
    board.back_to_game()
    assert "There is no side line" in board.message


def test_the_computer_answers_along_the_line_with_the_game_s_own_reply() -> None:
    game = Game()
    game.play("e2-e4 e7-e5 g1-f3 b8-c6")
    board = Board(game, black="random")
    board.go_to(0)
    board.play("e2-e4")                     # white's own move: black's reply is the game's
    assert board.game is game and game.action_texts() == ["e2-e4", "e7-e5"]
    assert "e7-e5 played, as in the game" in board.message
    board.play("d2-d4")                     # off the line: the computer answers for itself
    assert board.game is not game and board.game.action_count == 4
    assert game.action_texts() == ["e2-e4", "e7-e5"] and game.can_redo()


def test_a_new_roll_where_the_line_goes_on_starts_a_side_line() -> None:
    board = Board(variant="gavrilov-die", seed=3, auto_roll=True)
    for _ in range(3):
        board.play(board.game.legal_moves()[0])
    game, played = board.game, board.game.action_texts()
    board.go_to(0)
    board.roll()                            # the die may fall otherwise: the game is kept
    assert board.game is not game
    board.back_to_game()
    board.view.simulate_key("End")
    assert board.game is game and game.action_texts() == played


def test_the_move_list_finds_entries_by_bisection_with_ipywidgets_checks() -> None:
    import traitlets

    from tavrei_lab.widgets.line import MoveListSelect
    entries = [("start", 0), ("1. e2-e4", 1), ("1... @Q e7-e5", 3), ("2. @-", 4)]
    select = MoveListSelect(options=entries, value=0)
    select.value = 3
    assert (select.index, select.label) == (2, "1... @Q e7-e5")
    select.label = "2. @-"
    assert (select.index, select.value) == (3, 4)
    select.index = 1
    assert (select.value, select.label) == (1, "1. e2-e4")
    for bad in ({"value": 2}, {"value": 9}, {"label": "3. e2-e4"}):
        with pytest.raises(traitlets.TraitError):
            select.set_trait(*bad.popitem())
        assert (select.index, select.value, select.label) == (1, 1, "1. e2-e4")
    select.options = [("start", 0), ("1. d2-d4", 1)]
    assert select.value == 0
    # the board's own list, stepping through a long game, stays in step with the game
    game = Game()
    game.play(" ".join([SHUFFLE] * 50))
    board = Board(game)
    board.view.simulate_key("Home")
    for played in range(1, 201):
        board.view.simulate_key("ArrowRight")
        assert board.move_list.value == played == board.move_list.index
