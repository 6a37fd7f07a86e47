"""Zobrist hashing: incremental == from scratch, transpositions equal, positions distinct."""

from __future__ import annotations

import random

import pytest

from tavrei_lab import Game, Move, Roll
from tavrei_lab.core.tavrel import PROMOTED, Tavrel
from tavrei_lab.engine.zobrist import changed_squares, update_hash, zobrist_hash

VARIANTS = ("tavreli", "tavreli-no-split", "tavreli-pass-over-own", "orthodox", "gavrilov-die")


def random_game_walk(variant: str, seed: int, plies: int):
    """Yield (before, action, after) along a seeded random game (rolls included)."""
    rng = random.Random(seed)
    game = Game(variant, seed=seed)
    while game.ply < plies and not game.is_game_over(claim_draw=False):
        before = game.position
        if game.is_chance_node():
            face = game.roll(rng)
            action: Move | Roll = Roll(face)
        else:
            action = game.push(rng.choice(game.legal_moves()))
        yield before, action, game.position


@pytest.fixture(scope="module")
def walks() -> list[tuple]:
    steps = []
    for variant in VARIANTS:
        for seed in range(6):
            steps.extend(random_game_walk(variant, seed, 100))
    return steps


def test_incremental_equals_scratch_on_thousands_of_positions(walks):
    assert len(walks) > 2500
    for before, action, after in walks:
        h = zobrist_hash(before)
        assert update_hash(h, before, action, after) == zobrist_hash(after), (
            before.string, action, after.string)


def test_equal_positions_equal_hashes_and_different_positions_differ(walks):
    """On the whole random sample: same repetition key <=> same hash (no collision)."""
    by_key: dict[str, int] = {}
    by_hash: dict[tuple[str, int], str] = {}
    for _, _, pos in walks:
        h = zobrist_hash(pos)
        key = f"{pos.rules.variant.id} {pos.key()}"
        assert by_key.setdefault(key, h) == h
        # Different variants may share a position (and so a hash): compare within one.
        assert by_hash.setdefault((pos.rules.variant.id, h), key) == key
    assert len(by_key) > 2000


@pytest.mark.parametrize("variant, a, b", [
    ("tavreli", "g1-f3 g8-f6 b1-c3", "b1-c3 g8-f6 g1-f3"),
    ("tavreli", "e2-e3 e7-e6 d2-d3 d7-d6", "d2-d3 d7-d6 e2-e3 e7-e6"),
    # the same two towers, built in the other order on different squares
    ("tavreli", "b1-d2 b8-c6 g1-f3 g8-f6 d2-b3 f6-g4", "g1-f3 g8-f6 b1-d2 f6-g4 d2-b3 b8-c6"),
    ("orthodox", "e2-e4 e7-e5 g1-f3 b8-c6", "g1-f3 b8-c6 e2-e4 e7-e5"),
])
def test_transpositions_have_equal_hashes(variant, a, b):
    ga, gb = Game(variant), Game(variant)
    ga.play(a)
    gb.play(b)
    assert ga.position.key() == gb.position.key()
    assert zobrist_hash(ga.position) == zobrist_hash(gb.position)
    # and the incremental hashes along both paths arrive at the same number
    for g in (ga, gb):
        h = zobrist_hash(g.positions[0])
        for before, move, after in zip(g.positions, g.history, g.positions[1:]):
            h = update_hash(h, before, move, after)
        assert h == zobrist_hash(ga.position)


def test_hash_covers_whole_tower_contents_and_flags():
    g = Game()
    g.play("e2-e4 d7-d5 e4xd5")          # a tower: black ratnik under a white ratnik
    pos = g.position
    d5 = pos.geometry.parse("d5")
    base = zobrist_hash(pos)
    tower = pos.board[d5]
    swapped = list(pos.board)
    swapped[d5] = tuple(reversed(tower))     # same tavrels, other order
    assert zobrist_hash(pos.replace(board=tuple(swapped))) != base
    flagged = list(pos.board)
    flagged[d5] = (Tavrel(tower[0] | PROMOTED),) + tower[1:]   # a flag deep in the tower
    assert zobrist_hash(pos.replace(board=tuple(flagged))) != base
    assert zobrist_hash(pos.replace(turn=1 - pos.turn)) != base
    # clocks are not part of the position (as for repetition)
    assert zobrist_hash(pos.replace(halfmove_clock=7, fullmove_number=40)) == base


def test_en_passant_counts_only_when_it_can_be_used():
    g = Game("orthodox")
    g.play("e2-e4")                          # no black pawn can take en passant
    no_ep = g.position.replace(ep_square=None)
    assert zobrist_hash(g.position) == zobrist_hash(no_ep)
    g2 = Game("orthodox")
    g2.play("e2-e4 a7-a6 e4-e5 d7-d5")       # e5xd6 e.p. is possible
    assert g2.position.ep_square is not None
    assert zobrist_hash(g2.position) != zobrist_hash(g2.position.replace(ep_square=None))
    before = g2.position
    move = g2.parse_move("e5-d6")
    assert len(changed_squares(before, move)) == 3     # the victim's square too
    after = g2.rules.apply(before, move)
    assert update_hash(zobrist_hash(before), before, move, after) == zobrist_hash(after)


def test_die_roll_is_part_of_the_hash():
    g = Game("gavrilov-die", seed=1)
    assert g.is_chance_node()
    before = g.position
    h = zobrist_hash(before)
    faces = [f for f, _ in g.chance_outcomes()]
    hashes = set()
    for face in faces:
        after = g.rules.apply_roll(before, face)
        assert update_hash(h, before, Roll(face), after) == zobrist_hash(after)
        hashes.add(zobrist_hash(after))
    assert len(hashes) == len(faces)


def test_castling_update():
    g = Game("orthodox")
    g.play("e2-e4 e7-e5 g1-f3 b8-c6 f1-c4 g8-f6")
    before = g.position
    move = g.parse_move("0-0")
    assert move.castling
    after = g.rules.apply(before, move)
    assert len(changed_squares(before, move)) == 4
    assert update_hash(zobrist_hash(before), before, move, after) == zobrist_hash(after)


@pytest.mark.parametrize(("variant", "king", "d"), [("orthodox", "k", ""), ("tavreli", "v", ":H")])
def test_hash_and_repetition_ask_the_one_en_passant_rule(variant: str, king: str, d: str) -> None:
    """Zobrist and the repetition key agree with the rule module's ``live_ep_square``,
    and a rule module that says "always live" changes both (there is no second copy)."""
    k, K = king, king.upper()
    dead = Game(variant, position=f"4{k}3/8/8/8/4P{d}3/8/8/4{K}3 b e3 0 1").position
    live = Game(variant, position=f"4{k}3/8/8/8/3p{d.lower()}P{d}3/8/8/4{K}3 b e3 0 1").position
    for position, expect in ((dead, None), (live, live.ep_square)):
        assert position.rules.live_ep_square(position) == expect
        plain = position.replace(ep_square=None)
        assert (position.key() == plain.key()) == (expect is None)
        assert (zobrist_hash(position) == zobrist_hash(plain)) == (expect is None)

    class AlwaysLive(type(dead.rules)):  # type: ignore[misc]
        def live_ep_square(self, position):  # type: ignore[no-untyped-def]
            return position.ep_square

    odd = dead.replace(rules=AlwaysLive(dead.rules.variant))
    plain = odd.replace(ep_square=None)
    assert odd.key() != plain.key() and zobrist_hash(odd) != zobrist_hash(plain)


def test_tower_hash_is_the_xor_of_its_tavrels_numbers() -> None:
    """``_tower_bits`` reads the numbers inline (C 64-bit XORs when compiled): it must
    give ``tavrel_key``'s numbers, below 2**64, from any start height."""
    from functools import reduce

    from tavrei_lab.engine.zobrist import tavrel_key, tower_hash

    tower = (3, 18, 257, 5, 300)
    for square in (0, 27, 63, 675):
        for start in range(len(tower) + 1):
            want = reduce(lambda h, i: h ^ tavrel_key(square, i, tower[i]),
                          range(start, len(tower)), 0)
            assert tower_hash(square, tower, start) == want < 2**64
