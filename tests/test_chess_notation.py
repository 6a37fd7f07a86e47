"""Orthodox chess comes in and goes out in chess notation (PGN, SAN, FEN), and
python-chess's habits on a game either work or say what they mean here."""

from __future__ import annotations

import warnings
from pathlib import Path

import chess
import pytest

import tavrei_lab
from tavrei_lab import (
    BLACK,
    WHITE,
    ChessHabitError,
    ChessHabitWarning,
    Game,
    IllegalMoveError,
    NotationError,
    RecordError,
    read_games,
    read_record,
)

STUDY_FEN = "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1"


def test_a_chess_record_without_a_variant_tag_is_told_to_add_one() -> None:
    for movetext in ("1. e4 e5 *", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *",
                     "1. e4 e5 2. Nf3 Nc6 3. Bb9 *"):   # (a typo later: still chess)
        with pytest.raises(RecordError, match=r'this looks like chess SAN: add \[Variant '
                                              r'"orthodox"\].*variant="orthodox"'):
            read_record(movetext)
    with pytest.raises(RecordError, match=r"game 1 .*this looks like chess SAN"):
        next(read_games('[Event "x"]\n\n1. e4 e5 2. Nf3 *\n'))


def test_a_tavreli_record_that_is_no_chess_keeps_its_own_error() -> None:
    for movetext in ("1. e2-e5 *", "1. e2-e4 e7-e5 2. e4-e6 *"):
        with pytest.raises((IllegalMoveError, NotationError)) as caught:
            read_record(movetext)      # (move text reads in chess too: it says nothing)
        assert "chess" not in str(caught.value)
    assert read_record("1. e2-e4 e7-e5 *").variant.id == "tavreli"


@pytest.mark.parametrize("spelling", ["Standard", "standard", "Chess", "orthodox",
                                      "Classical", "From Position", "normal"])
def test_the_usual_spellings_of_standard_chess_read_as_orthodox(spelling: str) -> None:
    game = read_record(f'[Variant "{spelling}"]\n\n1. e4 e5 2. Nf3 *')
    assert game.variant.id == "orthodox" and game.ply == 3
    assert game.fen() == "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"


@pytest.mark.parametrize("spelling", ["Chess960", "Chess 960", "chess960", "Fischerandom",
                                      "Fischer Random"])
def test_chess960_is_refused_saying_it_is_not_supported(spelling: str) -> None:
    with pytest.raises(RecordError, match=r"Chess960, which is not supported"):
        read_record(f'[Variant "{spelling}"]\n\n1. e4 *')


def test_setup_and_fen_tags_start_the_game_from_their_position() -> None:
    record = f'[Variant "Standard"]\n[SetUp "1"]\n[FEN "{STUDY_FEN}"]\n\n1. Kd2 Kd5 *'
    game = read_record(record)
    assert game.start_position.fen() == STUDY_FEN
    assert len(Game.from_fen(STUDY_FEN).legal_moves) == chess.Board(STUDY_FEN).legal_moves.count()
    assert game.fen() == "8/8/8/3k4/8/8/3KP3/8 w - - 2 2"
    assert read_record(record.replace('[Variant "Standard"]\n', ""),
                       variant="orthodox").fen() == game.fen()
    with pytest.raises(RecordError, match=r'its FEN tag is a chess position: add \[Variant '):
        read_record(record.replace('[Variant "Standard"]\n', ""))
    with pytest.raises(RecordError, match=r'\[SetUp "1"\].*no FEN tag'):
        read_record('[Variant "Standard"]\n[SetUp "1"]\n\n1. e4 *')
    written = game.pgn()
    assert f'[SetUp "1"]\n[FEN "{STUDY_FEN}"]' in written and "1. Kd2 Kd5" in written
    assert read_record(written).positions == game.positions


def test_the_replay_command_starts_a_study_from_its_fen_or_says_why_not(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from tavrei_lab.cli import main
    path = tmp_path / "study.pgn"
    path.write_text(f'[SetUp "1"]\n[FEN "{STUDY_FEN}"]\n\n1. Kd2 *\n', encoding="utf-8")
    assert main(["replay", "--json", "--variant", "orthodox", str(path)]) == 0
    facts = json.loads(capsys.readouterr().out)
    board = chess.Board(STUDY_FEN)
    board.push_san("Kd2")
    assert facts["fen"] == board.fen() and facts["legal_moves"] == board.legal_moves.count()
    assert main(["replay", "--json", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and 'its FEN tag is a chess position: add [Variant "orthodox"]' in err


def test_push_and_play_take_san_in_orthodox_chess() -> None:
    game = Game("orthodox")
    assert str(game.push("e4")) == "e2-e4"
    game.push("Nf6")
    game.play("Nc3 Nc6 Nf3 d6 Bc4 Bg4 O-O e6")
    game.push_san("d3")
    move = game.parse_san("Bxf3")
    assert game.san(move) == "Bxf3" and game.ply == 11
    board = chess.Board()
    for san in "e4 Nf6 Nc3 Nc6 Nf3 d6 Bc4 Bg4 O-O e6 d3".split():
        board.push_san(san)
    assert game.fen() == board.fen() and game.ply == 11
    with pytest.raises(IllegalMoveError, match=r"'Ne5': no knight can move to e5"):
        Game("orthodox").push("Ne5")
    with pytest.raises(IllegalMoveError, match=r"'e8': name the promotion \(=B, =N, =Q, =R\)"):
        Game.from_fen("k7/4P3/8/8/8/8/8/K7 w - - 0 1").push("e8")
    assert Game.from_fen("k7/4P3/8/8/8/8/8/K7 w - - 0 1").san("e8N") == "e8=N"


def test_an_ambiguous_san_names_the_moves_it_may_be() -> None:
    game = Game.from_fen("4k3/8/8/8/8/2N1N3/8/4K3 w - - 0 1")
    with pytest.raises(IllegalMoveError, match=r"'Nd5' is ambiguous here: it may be Ncd5 Ned5"):
        game.push("Nd5")
    game.push("Ned5")
    assert game.ply == 1 and game.moves[-1].from_square == 20


def test_san_and_standard_fen_are_written_for_orthodox_games() -> None:
    game = Game("orthodox")
    game.play("e4 e5 Nf3 Nc6 Bc4 Bc5")
    move = game.parse_move("e1-g1")
    assert game.san(move) == "O-O"
    game.push(move)
    assert game.fen() == game.position.fen() == chess.Board(
        "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4").fen()
    assert "'" in game.position.string      # the position string keeps its moved marks


def test_a_tower_position_has_no_fen_and_says_so() -> None:
    with pytest.raises(ChessHabitError, match=r"tavreli is no chess: Game\.fen is for "
                                              r"orthodox chess.*position\.string"):
        Game().fen()
    with pytest.raises(tavrei_lab.PositionError, match=r"position\.string"):
        Game().position.fen()


def test_nags_and_glyphs_are_read_kept_and_written() -> None:
    game = read_record('[Variant "Standard"]\n\n1. e4! $14 e5?! 2. Nf3 $1 *')
    assert game.nags == {1: [1, 14], 2: [6], 3: [1]}
    written = game.pgn()
    assert "1. e4 $1 $14 e5 $6 2. Nf3 $1 *" in written
    again = read_record(written)
    assert again.nags == game.nags and again.positions == game.positions


def test_clock_and_arrow_comments_and_variations_are_kept() -> None:
    text = ('[Variant "Standard"]\n\n1. e4 { [%clk 0:03:00] [%cal Ge2e4] } e5 '
            "(1... c5 2. Nf3 (2. c3) d6) 2. Nf3 *")
    game = read_record(text)
    assert game.comments == {1: "[%clk 0:03:00] [%cal Ge2e4]"}
    assert game.variations == {2: ["1... c5 2. Nf3 (2. c3) d6"]}
    assert game.ply == 3
    assert read_record(game.pgn()).variations == game.variations
    with pytest.raises(NotationError, match=r"variation after ply 2: .*'Nf6'"):
        read_record('[Variant "Standard"]\n\n1. e4 e5 (1... Nf6 2. Nf6) *')


def test_read_games_skips_a_byte_order_mark(tmp_path: Path) -> None:
    text = '\ufeff[Event "one"]\n[Variant "Standard"]\n\n1. e4 e5 *\n'
    assert [g.tags["Event"] for g in read_games(text)] == ["one"]
    path = tmp_path / "bom.pgn"
    path.write_bytes(text.encode("utf-8"))
    assert [g.ply for g in read_games(path)] == [2]


def test_read_games_keeps_a_comment_wrapped_onto_a_bracket_line_whole() -> None:
    text = ('[Event "one"]\n[Variant "Standard"]\n\n1. e4 { a long note\n'
            '[%clk 0:03:00] } e5 *\n\n[Event "two"]\n[Variant "Standard"]\n\n1. d4 *\n')
    games = list(read_games(text))
    assert [g.tags["Event"] for g in games] == ["one", "two"]
    assert games[0].comments[1] == "a long note\n[%clk 0:03:00]"
    assert read_record(text.split("\n\n[Event")[0]).comments == games[0].comments


def test_python_chess_position_habits_work_on_a_game() -> None:
    game = Game.from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
    assert game.variant.id == "orthodox" and game.turn == BLACK
    board = chess.Board(game.fen())
    assert game.piece_at("e4") == game.position.top("e4") == game.position.piece_at(28)
    assert game.piece_at("e5") is None and game.position.top("E4") is not None
    for color, theirs in ((WHITE, chess.WHITE), (BLACK, chess.BLACK)):
        for square in ("d5", "f3", "e2", "c6"):
            expected = sorted(board.attackers(theirs, chess.parse_square(square)))
            assert game.attackers(color, square) == expected
            assert game.attackers(theirs, square) == expected   # python-chess's colours too


def test_turn_warns_where_python_chess_reads_it_the_other_way() -> None:
    game = Game("orthodox")
    with pytest.warns(ChessHabitWarning, match=r"false when white is to move"):
        assert not game.turn
    with pytest.warns(ChessHabitWarning, match=r"compared with True"):
        assert not game.turn == chess.WHITE  # noqa: SIM201 -- the habit under test
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert game.turn == WHITE and "wb"[game.turn] == "w" and game.turn + 1 == 1
        assert {game.turn: 1}[WHITE] == 1


def test_square_constants_point_at_square_names() -> None:
    with pytest.raises(ChessHabitError, match=r"taken by their names.*'e2'"):
        tavrei_lab.E2  # noqa: B018
    with pytest.raises(AttributeError):
        tavrei_lab.Z9  # noqa: B018
