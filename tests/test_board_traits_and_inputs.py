"""The Board from Python: its traits link and observe like any widget's (``ply`` set
to show that ply, ``flipped``, ``arrows``, ``highlights``), squares are taken by
name or index, and a wrong argument is one clear ``TavreiError`` line."""

from __future__ import annotations

import ipywidgets
import networkx as nx
import pytest

from tavrei_lab import Game
from tavrei_lab.errors import TavreiError
from tavrei_lab.widgets import Board, TreeView


def played(*moves: str) -> Board:
    game = Game("orthodox")
    for move in moves:
        game.push(move)
    return Board(game)


# -- traits ----------------------------------------------------------------------------
def test_ply_links_both_ways_with_a_slider() -> None:
    board = played("e2-e4", "e7-e5", "g1-f3")
    slider = ipywidgets.IntSlider(min=0, max=3)
    ipywidgets.link((board, "ply"), (slider, "value"))
    assert slider.value == 3
    slider.value = 1                               # the slider moves the board
    assert board.ply == 1 and board.game.ply == 1
    assert board.game.can_redo() and "ply 1 of 3" in board.message
    board.step(1)                                   # the board moves the slider
    assert slider.value == 2


def test_jslink_accepts_ply_and_flipped() -> None:
    board = Board()
    ipywidgets.jslink((board, "ply"), (ipywidgets.IntSlider(), "value"))
    ipywidgets.jslink((board, "flipped"), (ipywidgets.Checkbox(), "value"))
    assert board.trait_metadata("ply", "sync") and board.trait_metadata("flipped", "sync")


def test_flipped_is_a_trait_that_turns_the_board() -> None:
    board = Board()
    box = ipywidgets.Checkbox()
    ipywidgets.link((box, "value"), (board, "flipped"))
    before = board.view.svg
    box.value = True
    assert board.flipped and board.session.flipped and board.view.svg != before
    board.flip()                                    # the button's way: the trait follows
    assert not board.flipped and not box.value


def test_arrows_and_highlights_are_observable_traits() -> None:
    board = Board()
    seen: list[tuple[str, object]] = []
    board.observe(lambda change: seen.append((change["name"], change["new"])),
                  ["arrows", "highlights"])
    board.arrows = [["e2", "e4"]]
    board.highlights = "d5"
    assert seen == [("arrows", [("e2", "e4")]), ("highlights", ["d5"])]
    assert 'class="arrow' in board.view.svg or "marker" in board.view.svg
    with pytest.raises(TavreiError):
        board.arrows = [("e2", "z9")]
    assert board.arrows == [("e2", "e4")]          # the bad one changed nothing
    board.set_game(Game())                          # marks belong to the old position
    assert board.arrows == [] and board.highlights == [] and seen[-1] == ("highlights", [])


# -- squares and arguments --------------------------------------------------------------
def test_click_square_takes_names_and_refuses_squares_off_the_board() -> None:
    board = Board(Game("orthodox"))
    board.click_square("e2")
    assert board.selected == board.game.position.geometry.parse("e2")
    board.click_square("e4")
    assert board.game.ply == 1
    for bad in (10**6, -1):
        with pytest.raises(TavreiError, match="off the board"):
            board.click_square(bad)
    board.drop_tower("e7", "e5")
    assert board.game.ply == 2


def test_wrong_arguments_are_one_clear_line() -> None:
    with pytest.raises(TavreiError, match=r"Board\(variant='orthodox'\)"):
        Board("orthodox")  # type: ignore[arg-type]
    board = Board()
    with pytest.raises(TavreiError, match="a position string is text, not 12345"):
        board.set_position(12345)  # type: ignore[arg-type]
    with pytest.raises(TavreiError, match="networkx DiGraph"):
        TreeView(nx.path_graph(5))
    with pytest.raises(TavreiError, match="node 0 has no position"):
        TreeView(nx.DiGraph([(0, 1)]))


def test_python_chess_orientation_words_are_accepted() -> None:
    assert Board(orientation="black").flipped
    assert not Board(orientation="white").flipped
    assert Board(flip=True).flipped
    with pytest.raises(TavreiError, match="flipped=True"):
        Board(orientation="up")
