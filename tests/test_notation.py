"""Move text, movetext, position strings and records: tolerant readers, exact writers."""

from __future__ import annotations

import pytest

from tavrei_lab import Game, IllegalMoveError, NotationError, PositionError, RecordError
from tavrei_lab.game import read_record
from tavrei_lab.notation.moves import parse_move_spec
from tavrei_lab.notation.position_string import read_position
from tavrei_lab.notation.record import parse_record


@pytest.mark.parametrize(("text", "frm", "count", "to"), [
    ("e2-e4", "e2", None, "e4"),
    ("E2-E4", "e2", None, "e4"),
    ("f3(2)-f6", "f3", 2, "f6"),
    ("f3(2) x f6", "f3", 2, "f6"),
    ("b2 x d4", "b2", None, "d4"),
    ("b2:d4", "b2", None, "d4"),
    ("b1 e1", "b1", None, "e1"),
    ("b1e1", "b1", None, "e1"),
    ("е2–е4", "e2", None, "e4"),       # Cyrillic е and an en dash
    ("с6-d4", "c6", None, "d4"),       # Cyrillic с
    ("e1(3)-d2x", "e1", 3, "d2"),      # the records' decisive-move mark
    ("d2-d4?", "d2", None, "d4"),
    ("g6-g7!", "g6", None, "g7"),
    ("a7-a8+", "a7", None, "a8"),
    ("h5-f7#", "h5", None, "f7"),
    ("e2 - e4 !?", "e2", None, "e4"),
])
def test_tolerant_move_reader(text: str, frm: str, count: int | None, to: str) -> None:
    spec = parse_move_spec(text)
    assert (spec.from_square, spec.count, spec.to_square) == (frm, count, to)


@pytest.mark.parametrize("text", ["0-0", "O-O", "o-o+", "О-О"])
def test_castling_short(text: str) -> None:
    assert parse_move_spec(text).castle == "short"


def test_castling_long() -> None:
    assert parse_move_spec("0-0-0").castle == "long"


@pytest.mark.parametrize("text", ["", "e2", "e2-", "z9-e4x4", "e2-e4 e7-e5", "e2(0)-e4",
                                  "e2-e4 zz", "hello", "e2~e4"])
def test_malformed_move_text_is_refused(text: str) -> None:
    with pytest.raises(NotationError):
        parse_move_spec(text)


def test_canonical_writer() -> None:
    game = Game(position="4v3/8/8/8/3(LrS)4/8/8/4V3 w - 0 1")
    texts = {game.move_text(m) for m in game.legal_moves()}
    assert {"d4(1)-f5", "d4(2)-f5", "d4-f5", "e1-d1"} <= texts
    assert not any(t.startswith("d4(3)") for t in texts)   # never (k) when k == height


def test_writer_marks_landing_on_a_tower_with_x() -> None:
    game = Game()
    assert "b1xd2" in {game.move_text(m) for m in game.legal_moves()}


def test_movetext_with_numbers_comments_and_result() -> None:
    game = Game()
    game.play("1. e2-e4 e7-e5 {an open game} 2. g1-f3 ; the vsadnik\n b8-c6 1/2-1/2")
    assert game.ply == 4
    assert game.comments[2] == "an open game"


def test_bad_move_in_movetext_names_the_ply_and_keeps_the_game() -> None:
    game = Game()
    game.play("e2-e4")
    before = (game.position.string, game.history)
    with pytest.raises(IllegalMoveError, match=r"ply 4: 'e4-e5'"):
        game.play("e7-e5 g1-f3 e4-e5 g8-f6")
    assert (game.position.string, game.history) == before


def test_unreadable_movetext_names_the_move() -> None:
    game = Game()
    with pytest.raises(NotationError, match="move 2"):
        game.play("e2-e4 e7=e5")
    assert game.ply == 0


def test_illegal_move_messages_explain() -> None:
    game = Game()
    with pytest.raises(IllegalMoveError, match="no tower on e3"):
        game.push("e3-e4")
    with pytest.raises(IllegalMoveError, match="black's"):
        game.push("e7-e5")
    with pytest.raises(IllegalMoveError, match="cannot take 2"):
        game.push("e2(2)-e3")
    with pytest.raises(NotationError, match="off the board"):
        game.push("e2-e9")
    assert game.ply == 0 and game.position.string == Game().position.string


# -- position strings ---------------------------------------------------------------

def test_position_string_round_trip_and_documented_example() -> None:
    game = Game()
    start = "rslkvlsr/p:Rp:Sp:Lp:Kp:Hp:Lp:Sp:R/8/8/8/8/P:RP:SP:LP:KP:HP:LP:SP:R/RSLKVLSR w - 0 1"
    assert game.position.string == start
    tricky = "r'5v'1/1(p:SK)p:L2p:Lp:Sp:R/8/8/8/8/8/4(R'P:L'P:S'k)1V'1 w - 2 23"
    assert read_position(tricky, game.rules).string == tricky


def test_fen_is_read() -> None:
    game = Game("orthodox", "r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1")
    texts = {game.move_text(m) for m in game.legal_moves()}
    assert "0-0" in texts and "0-0-0" not in texts


@pytest.mark.parametrize(("text", "where"), [
    ("8/8/8 w - 0 1", "ranks"),
    ("rslkvlsr/8/8/8/8/8/8/RSLKVLSR x - 0 1", "side"),
    ("rslkvlsr/8/8/8/8/8/8/RSLKVLSR w z9 0 1", "en passant"),
    ("rslkvlsr/8/8/8/8/8/8/RSLKVLSR w - -1 1", "halfmove"),
    ("rslkvlsr/8/8/8/8/8/8/RSLKVLSQ w - 0 1", "unknown piece letter"),
    ("rslkvlsr/8/8/8/8/8/8/RSLKVLS w - 0 1", "rank 1 has 7 squares"),
    ("rslkvlsr/8/8/8/8/8/8/RSLKVLSRR w - 0 1", "more than 8"),
    ("4v3/8/8/8/8/8/8/3(VS)4 w - 0 1", "nothing may be placed"),
    ("4v3/8/8/8/8/8/8/3(SV)VV2 w - 0 1", "at most one"),
    ("4v3/8/8/8/8/8/8/3(S4 w - 0 1", "never closed"),
    ("4v3/4R3/8/8/8/8/8/4V3 w - 0 1", "not to move"),
    ("4v3/8/8/8/8/8/8/4V3 w - 0 1 extra", "fields"),
])
def test_bad_position_strings(text: str, where: str) -> None:
    game = Game()
    with pytest.raises(PositionError, match=where):
        read_position(text, game.rules)


# -- records ------------------------------------------------------------------------

def test_record_tags_and_movetext() -> None:
    text = '[Event "Test \\"quoted\\""]\n[Variant "tavreli"]\n\n1. e2-e4 e7-e5 *\n'
    tags, movetext = parse_record(text)
    assert tags["Event"] == 'Test "quoted"'
    game = read_record(text)
    assert game.ply == 2
    again = read_record(game.record())
    assert again.position.string == game.position.string
    assert again.tags["Event"] == 'Test "quoted"'


def test_record_from_a_position() -> None:
    game = Game(position="4v3/8/8/8/3(LrS)4/8/8/4V3 w - 0 1")
    game.play("d4(2)-f5 e8-d8")
    again = read_record(game.record())
    assert again.start_position.string == game.start_position.string
    assert again.position.string == game.position.string


@pytest.mark.parametrize("text", [
    '[Event "unterminated]\n\n1. e2-e4',
    '[Event "a"]\n[Event "b"]\n\ne2-e4',
    '[Variant "no-such-variant"]\n\ne2-e4',
    '[Seed "abc"]\n\ne2-e4',
])
def test_bad_records(text: str) -> None:
    with pytest.raises(RecordError):
        read_record(text)


def test_position_text_calls_only_two_or_more_tavrels_a_tower() -> None:
    """``Position.text()`` (the Python side of ``tavrei-lab show``): a lone tavrel is
    listed under "single tavrels", never under "towers"."""
    game = Game()
    start = game.position.text()
    assert "towers: none" in start and "single tavrels:" in start
    game.play("e2-e4 d7-d5 e4xd5")
    towers, single = game.position.text().split("towers, bottom -> top:")[1].split(
        "single tavrels:")
    assert towers.strip() == "d5: p:K' P:H'"
    assert "d5" not in single and "e1 V" in single and "e4" not in single
