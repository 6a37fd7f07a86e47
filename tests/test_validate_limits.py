"""``validate`` enforces every limit the readers enforce, and refuses
a set-up with no volkhv where the rules need one (a game won by mate).

The reproduction: the position editor built 540 tavrels and "Play from here" took
them; Save -> Load and Copy -> Set position then failed with "more than 512 tavrels".
"""

from __future__ import annotations

import pytest

from tavrei_lab import Game
from tavrei_lab.core.position import MAX_CLOCK, MAX_TAVRELS, Position
from tavrei_lab.core.tavrel import Tavrel
from tavrei_lab.errors import LimitError, PositionError
from tavrei_lab.game import read_record
from tavrei_lab.notation.position_string import read_position
from tavrei_lab.variant import load_variant

TAVRELI = load_variant("tavreli")
ROOK, KING = 3, 1


def built(rook_count: int, **fields: int) -> Position:
    """A position built in Python (as the editor does): the two volkhvs and black rooks."""
    board: list[tuple[Tavrel, ...]] = [()] * 64
    board[4] = (Tavrel.make(0, KING),)
    board[60] = (Tavrel.make(1, KING),)
    per = -(-rook_count // 48)               # squares 8..55 hold them
    left = rook_count
    for square in range(8, 56):
        n = min(per, left)
        if n:
            board[square] = tuple(Tavrel.make(1, ROOK) for _ in range(n))  # black: no check on e8
            left -= n
    assert left == 0
    return Position(TAVRELI, tuple(board), **fields)


def test_a_built_position_within_the_limit_plays_and_its_record_loads() -> None:
    pos = built(MAX_TAVRELS - 2)
    game = Game(TAVRELI, pos)
    assert read_record(game.record()).position.string == pos.string
    assert read_position(pos.string, TAVRELI) == pos


@pytest.mark.parametrize("extra", [1, 28])
def test_a_built_position_past_the_tavrel_limit_is_refused(extra: int) -> None:
    pos = built(MAX_TAVRELS - 2 + extra)
    with pytest.raises(LimitError, match=f"the limit is {MAX_TAVRELS}"):
        TAVRELI.validate(pos)
    with pytest.raises(LimitError):
        Game(TAVRELI, pos)
    with pytest.raises(LimitError):              # what the readers said already
        read_position(pos.string, TAVRELI)


@pytest.mark.parametrize("field", ["halfmove_clock", "fullmove_number"])
def test_clocks_past_the_limit_are_refused(field: str) -> None:
    TAVRELI.validate(built(0, **{field: MAX_CLOCK}))
    with pytest.raises(LimitError, match=str(MAX_CLOCK)):
        TAVRELI.validate(built(0, **{field: MAX_CLOCK + 1}))


def test_a_set_up_without_a_volkhv_is_refused_where_mate_wins() -> None:
    with pytest.raises(PositionError, match="black has no volkhv"):
        Game("tavreli", "8/8/8/8/8/8/8/4V3 w - 0 1")
    with pytest.raises(PositionError, match="white has no"):
        Game("orthodox", "4k3/8/8/8/8/8/8/8 w - 0 1")
    with pytest.raises(PositionError, match="no"):
        Game("gavrilov-die-mate", "3k2/6/6/6/6/6 w - 0 1")


def test_a_set_up_without_a_king_is_kept_where_taking_it_wins() -> None:
    # king capture: a side without a king can only pass or lose -- a study position
    game = Game("gavrilov-die", "3k2/6/6/1p:N4/1P:N4/6 w - 0 1")
    assert game.outcome() is None
