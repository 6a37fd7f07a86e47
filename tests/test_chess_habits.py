"""python-chess users' first guesses: each works, or fails naming the spelling here."""

from __future__ import annotations

import copy
import pickle
import re
from pathlib import Path

import pytest

import tavrei_lab
from tavrei_lab import (
    BLACK,
    WHITE,
    ChessHabitError,
    Game,
    Move,
    PositionError,
    RecordError,
    read_games,
)


def test_game_of_a_position_string_reads_it_as_chess_board_does() -> None:
    start = Game().position.string
    assert Game(start).position == Game().position
    fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    game = Game(fen)
    assert game.variant.id == "orthodox" and game.turn == BLACK
    with pytest.raises(PositionError, match=r"position=text"):
        Game("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNX b KQkq e3 0 1")


def test_a_move_prints_as_its_text_and_stays_a_plain_move() -> None:
    game = Game()
    played = game.push("e2-e4")
    assert str(played) == "e2-e4" and str(game.moves[0]) == "e2-e4"
    assert played == Move(12, 1, 28) and hash(played) == hash(Move(12, 1, 28))
    assert repr(played).startswith("Move(from_square=12")
    assert type(pickle.loads(pickle.dumps(played))) is Move
    assert sorted(str(m) for m in game.legal_moves)[:2] == ["a7-a5", "a7-a6"]
    assert game.legal_moves == game.legal_moves() and len(game.legal_moves) == 39
    assert copy.deepcopy(game).moves == [Move(12, 1, 28)]


def test_python_chess_board_names_that_mean_the_same_here() -> None:
    game = Game("orthodox")
    assert game.turn == WHITE and game.result() == "*" and game.move_stack == []
    game.play("f2-f3 e7-e5 g2-g4 d8-h4")
    assert game.is_checkmate() and not game.is_stalemate() and game.result() == "0-1"
    assert str(game.peek()) == "d8-h4" and len(game.move_stack) == 4
    with pytest.raises(tavrei_lab.IllegalMoveError):
        Game().peek()


@pytest.mark.parametrize(("name", "spelling", "args"), [
    ("push_san", "game.push('e2-e4')", ("e4",)), ("push_uci", "game.push('e2-e4')", None),
    ("fen", "game.position.string", ()), ("set_fen", "Game(text)", None),
    ("parse_san", "game.parse_move", ("e4",)),
])
def test_python_chess_names_spelt_otherwise_point_at_the_spelling(
        name: str, spelling: str, args: tuple[str, ...] | None) -> None:
    """In Tavreli; the chess-only names (called with ``args``) work in orthodox chess."""
    game = Game()
    with pytest.raises(ChessHabitError) as caught:
        found = getattr(game, name)
        if args is not None:
            found(*args)
    assert isinstance(caught.value, AttributeError) and spelling in str(caught.value)
    assert not hasattr(game, "no_such_name")   # other names: the plain AttributeError
    with pytest.raises(ChessHabitError, match=r"game\.parse_move\('e2e4'\)"):
        Move.from_uci("e2e4")


def test_ply_is_a_number_and_a_call_as_python_chess_has_it() -> None:
    """board.ply() was "'int' object is not callable" with no hint (game.ply is a
    property here): both spellings give the number, on the game and on the widget."""
    game = Game()
    assert game.ply == 0 and game.ply() == 0
    game.play("e2-e4 e7-e5")
    assert game.ply == game.ply() == 2 and type(game.ply + 1) is int
    assert f"{game.ply}" == "2" and str(game.ply()) == "2"
    from tavrei_lab.widgets import Board
    board = Board(game)
    seen: list[int] = []
    board.observe(lambda change: seen.append(change["new"]), "ply")
    assert board.ply == board.ply() == 2
    board.play("g1-f3")
    assert seen == [3] and board.ply() == 3 == game.ply()


def test_more_python_chess_names_point_at_the_spelling() -> None:
    """The 45 guesses again, on more names: each is a ChessHabitError
    (an AttributeError) naming the spelling here, or works."""
    game = Game()
    assert game.legal_moves.count() == 39 == len(game.legal_moves)
    assert game.legal_moves.count(game.legal_moves[0]) == 1       # still a list's count
    for name, spelling in [
            ("fullmove_number", "game.position.fullmove_number"),
            ("halfmove_clock", "game.position.halfmove_clock"),
            ("is_fifty_moves", "claim_draw=True"), ("is_capture", "filters.is_capture"),
            ("gives_check", "filters.gives_check"), ("root", "game.start_position"),
            ("checkers", "game.is_check()"), ("clear", "Game(text)"),
            ("status", "PositionError"), ("lan", "game.san(move)"),
            ("color_at", "game.position.tower"), ("castling_rights", "position string")]:
        with pytest.raises(ChessHabitError, match=re.escape(spelling)):
            getattr(game, name)
    with pytest.raises(ChessHabitError, match=r"game\.san\(move\)"):
        game.legal_moves[0].uci()
    for name, spelling in [("svg", "render.board_svg"), ("pgn", "read_games"),
                           ("square_name", "geometry.name"),
                           ("parse_square", "geometry.parse")]:
        with pytest.raises(ChessHabitError, match=re.escape(spelling)):
            getattr(tavrei_lab, name)
    assert game.rules.geometry.parse("e4") == 28
    assert game.rules.geometry.name(28) == "e4"


def test_tavrei_lab_board_names_game_and_the_widget() -> None:
    with pytest.raises(ChessHabitError, match=r"tavrei_lab\.Game\(\).*widgets\.Board"):
        tavrei_lab.Board  # noqa: B018
    with pytest.raises(AttributeError):
        tavrei_lab.no_such_name  # noqa: B018


def test_read_games_gives_each_game_of_a_file_in_turn(tmp_path: Path) -> None:
    first, second = Game(), Game("orthodox")
    first.play("e2-e4 e7-e5")
    second.play("d2-d4")
    text = first.record(Event="one") + "\n" + second.record(Event="two")
    path = tmp_path / "games.txt"
    path.write_text(text, encoding="utf-8")
    for source in (text, path, str(path)):
        games = list(read_games(source))
        assert [g.tags["Event"] for g in games] == ["one", "two"]
        assert [g.moves for g in games] == [first.moves, second.moves]
    with path.open(encoding="utf-8") as handle:
        assert next(read_games(handle)).tags["Event"] == "one"
    broken = text + '\n[Event "three"]\n\n1. e2-e5 *\n'
    games = read_games(broken)
    assert len([next(games), next(games)]) == 2
    with pytest.raises(RecordError, match=r"game 3 \(from line \d+\)"):
        next(games)


def test_board_svg_takes_a_game_as_chess_svg_board_takes_a_board() -> None:
    from tavrei_lab.render import board_svg

    game = Game()
    game.play("e2-e4")
    assert board_svg(game) == board_svg(game.position, lastmove=game.moves[-1])
    assert board_svg(game) != board_svg(game.position)
    with pytest.raises(ChessHabitError, match=r"position\.towers\(\)"):
        game.piece_map()


def test_move_null_and_mirror_point_at_the_spelling() -> None:
    """``Move.null()`` (on the class) and ``move.mirror()`` are not plain
    AttributeErrors: they are habit errors naming what to do here, the move unchanged."""
    move = Game().legal_moves[0]
    with pytest.raises(ChessHabitError, match=r"Move has no null\(\): Tavreli has no null "
                                              r"move.*Game\(text\)") as caught:
        Move.null()
    assert caught.value.name == "null"
    for owner in (move, Move):
        with pytest.raises(ChessHabitError, match=r"Move has no mirror\(\): .*mirrored "
                                                  r"position string"):
            owner.mirror()
    assert not hasattr(Move, "null") and not hasattr(move, "mirror")
    assert Move(12, 1, 28)._replace(count=2) == Move(12, 2, 28)   # still a plain NamedTuple
