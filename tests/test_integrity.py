"""Issue 24's integrity items: what the package writes it reads, bounded work, output files.

Each test reproduces one of the issue's findings and failed before its fix.
"""
from __future__ import annotations

import pytest

from tavrei_lab.errors import IllegalMoveError
from tavrei_lab.game import Game, read_record


# -- item 1: no move before the roll ---------------------------------------------------
def test_die_game_refuses_a_move_object_before_the_roll() -> None:
    g = Game(variant="gavrilov-die-8x8")
    assert g.is_chance_node()
    assert g.legal_moves() == []            # the action due is a roll, not a move
    face_moves = g.rules.legal_moves(g.position)   # the rules still list every face's moves
    assert face_moves
    before = (g.record(), g.action_count, g.position.string)
    with pytest.raises(IllegalMoveError, match="roll the die first"):
        g.push(face_moves[0])
    assert (g.record(), g.action_count, g.position.string) == before
    # after the roll a legal move is accepted and the record reads back
    g.roll()
    if g.is_chance_node():      # the face passed the turn: roll again
        g.roll()
    if g.legal_moves():
        g.push(g.legal_moves()[0])
    again = read_record(g.record())
    assert again.action_texts() == g.action_texts()
