"""The Game's edges: linear replay, independent copies,
validated seeds, moves that are off the board.

Each test is a reproduction of what was seen, kept: it fails on the code it was
seen in.
"""

from __future__ import annotations

import copy
import pickle

import pytest

from tavrei_lab import Game
from tavrei_lab.core.move import Move
from tavrei_lab.errors import ArgumentError, NotationError, RecordError, TavreiError
from tavrei_lab.game import MAX_SEED, read_record

SHUFFLE = "g1-f3 g8-f6 f3-g1 f6-g8"


class _CountingList(list):
    """A list that counts how many elements were visited by iteration."""

    visited = 0

    def __iter__(self):  # type: ignore[no-untyped-def]
        for item in super().__iter__():
            _CountingList.visited += 1
            yield item


def test_ply_and_replay_do_not_walk_the_history() -> None:
    # Game.ply must not count the moves of the history on every call: a replay of n
    # plies would walk n^2/2 history entries (20,000 plies took 12.5-48 s)
    game = Game()
    game._actions = _CountingList()
    _CountingList.visited = 0
    game.play(" ".join([SHUFFLE] * 250))              # 1,000 plies
    assert game.ply == 1000
    assert _CountingList.visited == 0


def test_replay_generates_only_the_named_move_each_ply() -> None:
    # building the whole legal move list each ply to find the one move the record
    # names was 78 % of a replay's time: each ply generates the moves from the named
    # square to the named square, once, and never the whole list
    game = Game()
    whole: list[int] = []
    named: list[tuple[int | None, int | None]] = []
    generate = game.rules._generate

    def counting(position, legal_only, first_only=False, skip=None, only=None,  # type: ignore[no-untyped-def]
                 only_to=None):
        (whole if only is None and not first_only else named).append((only, only_to))
        return generate(position, legal_only, first_only, skip, only, only_to)

    game.rules = copy.copy(game.rules)
    game.rules._generate = counting
    game.play(" ".join([SHUFFLE] * 50))               # 200 plies
    assert whole == []
    assert len(named) == 200 and all(only is not None and to is not None for only, to in named)


def test_legal_moves_replaced_on_the_rules_is_still_what_a_replay_asks() -> None:
    game = Game()
    calls = 0
    legal = game.rules.legal_moves

    def counting(position):  # type: ignore[no-untyped-def]
        nonlocal calls
        calls += 1
        return legal(position)

    game.rules = copy.copy(game.rules)
    game.rules.legal_moves = counting
    game.play(" ".join([SHUFFLE] * 50))               # 200 plies
    assert calls == 200


def test_stepping_to_the_end_reuses_the_positions_it_undid() -> None:
    # the board's End key redid every move with full move generation and position keys:
    # 11 s on a 20,000-move record. A redo now puts back the very position undone.
    game = Game()
    game.play(" ".join([SHUFFLE] * 100))
    after = game.positions
    while game.history:
        game.pop()
    calls = 0
    legal = game.rules.legal_moves

    def counting(position):  # type: ignore[no-untyped-def]
        nonlocal calls
        calls += 1
        return legal(position)

    game.rules = copy.copy(game.rules)
    game.rules.legal_moves = counting
    while game.can_redo():
        game.redo()
    assert calls == 0
    assert all(a is b for a, b in zip(game.positions, after, strict=True))
    assert game.ply == 400 and game.action_count == 400
    key = game.position.key()
    assert game.repetitions() == sum(p.key() == key for p in game.positions) == 101


def test_redo_then_new_move_forgets_the_undone_line() -> None:
    game = Game()
    game.play("e2-e4 e7-e5")
    game.pop()
    game.pop()
    game.redo()
    assert game.can_redo()
    game.push("d7-d5")
    assert not game.can_redo()
    assert game.ply == 2


def test_copy_copy_is_independent() -> None:
    # copy.copy(game) shared its history with the original
    game = Game()
    game.play("e2-e4")
    game.comments[1] = "the start"
    for other in (copy.copy(game), copy.deepcopy(game), game.copy()):
        other.play("e7-e5 g1-f3")
        other.comments[1] = "changed"
        other.tags["White"] = "changed"
        assert game.ply == 1 and len(game.history) == 1
        assert game.comments == {1: "the start"} and game.tags == {}
        other.pop()
        other.pop()
        other.pop()
        assert game.ply == 1 and not game.can_redo()


def test_game_docstring_says_it_is_not_thread_safe() -> None:
    assert "not thread-safe" in (Game.__doc__ or "")


@pytest.mark.parametrize("seed", [[1], "x", 1.5, True, {"a": 1}, b"12"])
def test_a_seed_that_is_not_a_whole_number_is_refused(seed: object) -> None:
    # Game(seed=[1]) raised TypeError; Game(seed="x") wrote a Seed tag read_record refused
    with pytest.raises(ArgumentError, match="seed must be a whole number"):
        Game("gavrilov-die", seed=seed)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [0, -5, 7, MAX_SEED, -MAX_SEED, None])
def test_every_accepted_seed_round_trips_through_a_record(seed: int | None) -> None:
    game = Game("gavrilov-die", seed=seed)
    game.roll()
    again = read_record(game.record())
    assert again.seed == seed
    assert [p.string for p in again.positions] == [p.string for p in game.positions]


def test_a_seed_past_the_limit_is_refused_in_python_and_in_a_record() -> None:
    with pytest.raises(ArgumentError, match="out of range"):
        Game(seed=MAX_SEED + 1)
    with pytest.raises(RecordError, match="out of range"):
        read_record(f'[Seed "{MAX_SEED + 1}"]\n\n*\n')
    with pytest.raises(RecordError, match="Seed"):
        read_record('[Seed "x"]\n\n*\n')


@pytest.mark.parametrize("move", [Move(999, 1, 0), Move(0, 1, -1), Move(12, 0, 28),
                                  Move(12, 5, 28), Move(12, 1, 28, promotion=99),
                                  Move("a", 1, 0), Move(999, 1, 0, castling=True)])  # type: ignore[arg-type]
def test_move_text_of_an_impossible_move_is_a_notation_error(move: Move) -> None:
    # move_text(Move(999, 1, 0)) raised IndexError
    game = Game()
    with pytest.raises(NotationError) as info:
        game.move_text(move)
    assert len(str(info.value)) < 200
    with pytest.raises(TavreiError):
        game.push(move)
    assert game.ply == 0


def test_a_position_of_other_rules_is_refused_or_re_read() -> None:
    from tavrei_lab.errors import PositionError
    die = Game("gavrilov-die")
    with pytest.raises(PositionError, match="board of 36 squares"):
        Game("tavreli", die.position)
    other = Game("tavreli-no-split")
    game = Game("tavreli", other.position)
    assert game.position.rules is game.rules


def test_move_text_of_text_is_a_notation_error() -> None:
    with pytest.raises(NotationError, match="not a move"):
        Game().move_text("e2-e4")  # type: ignore[arg-type]


def test_find_move_names_the_legal_move_without_playing_it() -> None:
    """``Game.find_move`` is what ``push`` plays, public (exercises used ``Game._match``)."""
    from tavrei_lab.errors import IllegalMoveError
    game = Game("orthodox")
    game.play("e2-e4 e7-e5 g1-f3 b8-c6 f1-c4 g8-f6")
    before = (game.position.string, len(game.history))
    g = game.position.geometry
    plain = Move(g.parse("e1"), 1, g.parse("g1"))        # castling given as a king move
    found = game.find_move(plain)
    assert found.castling and game.find_move("0-0") == found
    assert game.move_text(game.find_move("d2-d3")) == "d2-d3"
    with pytest.raises(IllegalMoveError, match="e1"):
        game.find_move(Move(g.parse("e1"), 1, g.parse("e3")))
    with pytest.raises(IllegalMoveError, match="not a move"):
        game.find_move(Move("e1", 1, "e3"))               # type: ignore[arg-type]
    with pytest.raises(NotationError):
        game.find_move("e2-")
    assert (game.position.string, len(game.history)) == before   # nothing was played
    assert game.push(plain) == found


# -- a comment belongs to its move (bug 6) ----------------------------------------------
# Comments were keyed by action number and never dropped: a move undone and replaced
# left its comment behind, and the record gave it to the new move
# ("1. e2-e4 {good} 1... d7-d5 {bad idea}").

def _undone_and_replaced(how: str) -> Game:
    game = Game()
    game.play("e2-e4 {good} e7-e5 {bad idea}")
    game.pop()
    if how == "clear_redo":
        game.clear_redo()
        game.play("d7-d5")
    elif how == "push":
        game.push("d7-d5")
    else:
        game.play("d7-d5")
    return game


@pytest.mark.parametrize("how", ["clear_redo", "push", "play"])
def test_a_comment_goes_with_its_undone_move_when_another_replaces_it(how: str) -> None:
    game = _undone_and_replaced(how)
    assert game.comments == {1: "good"}
    assert "bad idea" not in game.record()
    assert "1. e2-e4 {good} 1... d7-d5 *" in game.record()


def test_a_new_move_keeps_its_own_comment_where_an_undone_one_had_one() -> None:
    game = Game()
    game.play("e2-e4 {good} e7-e5 {bad idea}")
    game.pop()
    game.play("d7-d5 {better}")
    assert game.comments == {1: "good", 2: "better"}


def test_clear_redo_alone_drops_the_undone_moves_comments() -> None:
    game = Game()
    game.play("{a start} e2-e4 {good} e7-e5 {bad idea} g1-f3 {developing}")
    game.pop()
    game.pop()
    game.clear_redo()
    assert game.comments == {0: "a start", 1: "good"}


def test_redo_brings_an_undone_moves_comment_back() -> None:
    game = Game()
    game.play("e2-e4 {good} e7-e5 {bad idea}")
    game.pop()
    assert "bad idea" not in game.record()       # not played: not written
    game.redo()
    assert game.comments == {1: "good", 2: "bad idea"}
    assert "1. e2-e4 {good} 1... e7-e5 {bad idea} *" in game.record()


def test_a_refused_play_after_an_undo_keeps_the_undone_line_and_its_comments() -> None:
    game = Game()
    game.play("e2-e4 {good} e7-e5 {bad idea}")
    game.pop()
    with pytest.raises(TavreiError):
        game.play("d7-d5 e4-e9")
    assert game.comments == {1: "good", 2: "bad idea"} and game.can_redo()
    game.redo()
    assert "1... e7-e5 {bad idea}" in game.record()


def test_copies_and_pickles_of_an_undone_line_keep_its_comments_apart() -> None:
    game = Game()
    game.play("e2-e4 {good} e7-e5 {bad idea}")
    game.pop()
    side = game.copy()                # as the board's side line: a copy, its redo dropped
    side.clear_redo()
    side.push("d7-d5")
    assert side.comments == {1: "good"}
    assert game.comments == {1: "good", 2: "bad idea"}
    back = pickle.loads(pickle.dumps(game))
    back.push("c7-c5")
    assert back.comments == {1: "good"}
    assert game.comments == {1: "good", 2: "bad idea"}
    game.redo()
    assert "1... e7-e5 {bad idea}" in game.record()


def _roll_and_move(game: Game) -> None:
    """A roll, then the first legal move (a face that passes the turn leaves no move)."""
    game.roll()
    if game.legal_moves():
        game.push(game.legal_moves()[0])


def test_in_a_die_game_an_undone_roll_takes_its_comment_along() -> None:
    game = Game("gavrilov-die", seed=3)
    _roll_and_move(game)
    game.comments[game.action_count] = "white's turn"
    game.roll()
    game.comments[game.action_count] = "a roll undone"
    rolled = game.action_count
    game.pop()                                   # the roll undone
    assert game.can_redo()
    game.redo()
    assert game.comments[rolled] == "a roll undone"
    game.pop()
    game.roll()                                  # another roll instead: a new line
    assert rolled not in game.comments
    assert "a roll undone" not in game.record()
    assert "white's turn" in game.record()
    again = read_record(game.record())
    assert again.comments == game.comments
