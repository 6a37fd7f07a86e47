"""The board without a page: a ``BoardSession`` plays whole games -- clicks, drops,
undo, a side line, the computer, the die -- and each action returns what the view
must show. The first test runs with every widget library unimportable."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tavrei_lab import Game
from tavrei_lab.errors import ArgumentError, NotationError, TavreiError
from tavrei_lab.session import BoardSession, Update

ROOT = Path(__file__).resolve().parents[1]

WHOLE_GAME = textwrap.dedent("""
    import sys
    for name in ("ipywidgets", "anywidget", "traitlets", "IPython"):
        sys.modules[name] = None          # import raises ImportError
    from tavrei_lab import Game
    from tavrei_lab.session import BoardSession

    s = BoardSession(Game("orthodox"))
    u = s.click("e2")
    assert s.selected == s.square("e2") and "e3, e4" in u.message, u
    u = s.click("e4")
    assert u.effects["slide"] == [["e2", "e4"]] and s.game.ply == 1, u
    u = s.drop("e7", "e5")                     # a drop: the tower is there, no slide
    assert s.game.ply == 2 and "slide" not in u.effects, u
    u = s.drop("e4", "e6")                     # refused: flash, reason, nothing changes
    assert u.effects["flash"] == ["e6"] and u.message.startswith("Illegal"), u
    assert s.game.ply == 2
    s.play("g1-f3")
    s.play("b8-c6")
    u = s.undo()
    assert s.game.ply == 3 and u.message.startswith("Took back"), u
    u = s.go_to(2)                            # step back, then a new move: a side line
    u = s.play("d2-d4")
    assert s.main_game is not None and "side line" in u.message, u
    u = s.back_to_game()
    assert s.main_game is None and s.game.ply == 2 and s.game.can_redo(), u
    s.go_to(len(s.line()))
    assert s.game.ply == 4
    s.set_player(1, "greedy", go_on=False)      # black: the computer
    u = s.computer_move()                        # white's move by the computer, black replies
    assert s.game.ply == 6 and u.message.count("played by the computer") == 2, u
    u = s.play(s.game.move_text(s.legal_moves()[0]))   # white moves, black answers at once
    assert s.game.ply == 8 and "played by the computer" in u.message, u
    u = s.best_move("alphabeta:1")
    assert s.hint is not None and u.message.startswith("Engine"), u

    d = BoardSession(Game("gavrilov-die", seed=3))
    u = d.click("e2")
    assert "roll the die first" in u.message, u
    for _ in range(12):                          # roll and move until six plies stand
        if d.game.is_chance_node():
            u = d.roll()
            assert u.effects.get("roll"), u
        else:
            d.play(d.game.move_text(d.legal_moves()[0]))
        if d.game.ply >= 4:
            break
    assert d.game.ply >= 4, d.game.record()
    record = d.game.record()
    r = BoardSession()
    u = r.load_record(record)
    assert u.new_game and r.game.ply == d.game.ply, u
    import tavrei_lab.session, sys as s2
    assert not [m for m in ("ipywidgets", "anywidget", "traitlets") if s2.modules.get(m)]
    print("played", s.game.ply, d.game.ply)
""")


def test_a_whole_game_plays_through_the_session_without_widget_libraries() -> None:
    done = subprocess.run([sys.executable, "-c", WHOLE_GAME], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.startswith("played 8 ")


def test_every_action_returns_an_update() -> None:
    s = BoardSession(Game("orthodox"))
    for action in (lambda: s.click("e2"), lambda: s.choose_count(1), lambda: s.click("e4"),
                   s.undo, s.redo, lambda: s.step(-1), lambda: s.go_to_ply(1), s.flip,
                   s.roll, lambda: s.set_position(Game("orthodox").position.string)):
        assert isinstance(action(), Update)


def test_squares_by_name_or_index_and_bad_ones_refused() -> None:
    s = BoardSession(Game("orthodox"))
    assert s.click("E2").message == s.click(s.square("e2")).message or s.selected is None
    with pytest.raises(ArgumentError, match="off the board"):
        s.click(10**6)
    with pytest.raises(ArgumentError, match="off the board"):
        s.click(-1)                  # not the last square
    with pytest.raises(NotationError, match="not a square name"):
        s.click("e22x")
    with pytest.raises(ArgumentError, match="a square is a name"):
        s.drop(1.5, "e4")
    assert s.game.ply == 0


def test_go_to_ply_counts_moves_not_rolls() -> None:
    s = BoardSession(Game("gavrilov-die", seed=3), auto_roll=True)
    s.roll()                                  # then every roll comes by itself
    while s.game.ply < 3:
        s.play(s.game.move_text(s.legal_moves()[0]))
    assert len(s.line()) > s.game.ply         # rolls are actions too
    s.go_to_ply(1)
    assert s.game.ply == 1
    s.go_to_ply(0)
    assert s.game.action_count == 0
    with pytest.raises(TavreiError, match="ply 9 is not in this game"):
        s.go_to_ply(9)


def test_a_listener_that_rejects_leaves_its_reason_and_the_flash() -> None:
    s = BoardSession(Game("orthodox"))
    s.on_move(lambda owner, move: s.reject(move, "Not that one."))
    u = s.play("e2-e4")
    assert u.message == "Not that one." and s.game.ply == 0
    assert u.effects["flash"] == ["e4"] and u.effects["slide"] == [["e4", "e2"]]


def test_a_non_text_position_is_refused_in_one_line() -> None:
    s = BoardSession()
    with pytest.raises(ArgumentError, match="a position string is text, not 12345"):
        s.set_position(12345)  # type: ignore[arg-type]
