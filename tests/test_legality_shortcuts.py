"""The tower-chess family's legality shortcuts change no answer.

``has_legal_move`` says whether the game goes on at every leaf of a tree and
of a search, so it does not generate every move: it tries the volkhv's own
steps first, each tested on the board as the step leaves it (no position built,
no board copied), then the other units, first move first. ``apply`` keeps the
volkhv squares a position records when the volkhv moves, instead of leaving the next
``king_square`` to scan the board. Both must agree with the plain answers --
``bool(legal_moves(position))`` and a fresh scan -- and are checked here on
every position of the 20 recorded games (read in every shipped variant of the
family that accepts them, with either side to move), the perft-special
positions and the trees below them, seeded random games of every shipped
variant (the die games included), the tree of the tree benchmark, and set-ups
made for the cases a shortcut could get wrong.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from tavrei_lab import Game
from tavrei_lab.core.position import Position
from tavrei_lab.core.tavrel import KING
from tavrei_lab.errors import TavreiError
from tavrei_lab.notation.moves import write_move
from tavrei_lab.notation.position_string import read_position, write_position
from tavrei_lab.rules.die import DieRules
from tavrei_lab.rules.stacking import TowerChessRules
from tavrei_lab.variant import load_variant
from tests.conftest import SHARED

SHIPPED = ["tavreli", "orthodox", "tavreli-no-split", "tavreli-pass-over-own",
           "tavreli-king-never-stacks", "tavreli-demote-by-enemy-only", "gavrilov-die",
           "gavrilov-die-mate", "gavrilov-die-skip-face", "gavrilov-die-8x8"]
#: The shipped variants of the family that read the recorded (Tavreli) games' positions.
#: (The die games are played on 6x6 boards, or -- 8x8 -- won by taking the volkhv, where
#: no shortcut is taken.)
TAVRELI_FAMILY = ["tavreli", "tavreli-no-split", "tavreli-pass-over-own",
                  "tavreli-king-never-stacks", "tavreli-demote-by-enemy-only"]


def family_of(rules: object) -> TowerChessRules:
    """The tower-chess module that decides legality (a die game wraps one)."""
    inner = rules.inner if isinstance(rules, DieRules) else rules
    assert isinstance(inner, TowerChessRules)
    return inner


def unrecorded(position: Position) -> Position:
    """The same position with no volkhv squares recorded: the next question scans."""
    return position.replace()


def check(rules: TowerChessRules, position: Position, seen: Counter) -> None:
    """The shortcuts agree with the plain answers here, and after every move from here."""
    moves = rules.legal_moves(position)
    where = write_position(position)
    assert rules.has_legal_move(position) == bool(moves), where
    assert rules.has_legal_move(unrecorded(position)) == bool(moves), where
    seen["positions"] += 1
    seen["no legal move" if not moves else "some legal move"] += 1
    seen["in check"] += rules.is_check(position)
    ks = position.king_square(position.turn)
    if ks is not None and len(position.board[ks]) > 1:
        seen["volkhv on a tower"] += 1
    for move in moves:
        after = rules.apply(position, move)
        scanned = unrecorded(after)
        assert (after.king_square(0), after.king_square(1)) == \
            (scanned.king_square(0), scanned.king_square(1)), (where, write_move(position, move))


def test_the_volkhv_steps_are_tested_as_played() -> None:
    # Set-ups where a test of the volkhv's steps that does not play them would be wrong.
    # The volkhv on d4 is checked by the luchnik on a1; every square around is covered but
    # e5, which the luchnik sees through d4 once d4 is empty: taking the prisoner rook
    # along (d4(2)-e5) is illegal, leaving it behind as a shield (d4(1)-e5) is the only move.
    shield = Game(position="2r4v/8/5s2/8/3(rV)4/r7/8/l7 w - 0 1")
    assert [write_move(shield.position, m) for m in shield.legal_moves()] == ["d4(1)-e5"]
    # Without the prisoner nothing shields e5: mate.
    alone = Game(position="2r4v/8/5s2/8/3V4/r7/8/l7 w - 0 1")
    # A black ratnik uncovered on its far rank is promoted (A8.1) and guards f1, which the
    # ratnik would not, and which the rook on a1 sees only through an empty e1: mate.
    promoted = Game(position="7v/8/8/8/8/8/7r/r3(p:KV)3 w - 0 1")
    for game, legal in ((shield, True), (alone, False), (promoted, False)):
        rules = family_of(game.rules)
        assert rules.has_legal_move(game.position) is legal
        assert rules.is_check(game.position)
        assert (rules.outcome(game.position) is None) is legal
        check(rules, game.position, Counter())


def test_every_recorded_position_in_every_variant_that_reads_it(games_data: dict) -> None:
    seen: Counter = Counter()
    refused = 0
    for variant in TAVRELI_FAMILY:
        rules = load_variant(variant)
        family = family_of(rules)
        for record in games_data["games"]:
            game = Game()
            game.play(" ".join(record["moves"]))
            for text in [p.string for p in game.positions]:
                # the position, and (in Tavreli) with the other side to move
                for turn in ("wb" if variant == "tavreli" else text.split()[1]):
                    fields = text.split()
                    fields[1], fields[2] = turn, fields[2] if fields[1] == turn else "-"
                    try:
                        position = read_position(" ".join(fields), rules, validate=False)
                    except TavreiError:
                        refused += 1
                        continue
                    check(family, position, seen)
    assert refused == 0
    # the positions include what the shortcuts must get right
    assert seen["positions"] > 4_000
    assert seen["no legal move"] >= 20 and seen["in check"] >= 200
    assert seen["volkhv on a tower"] >= 200


def test_perft_special_positions_and_their_trees() -> None:
    data = json.loads((SHARED / "data" / "perft-special.json").read_text(encoding="utf-8"))
    seen: Counter = Counter()
    for case in data["positions"]:
        game = Game(position=case["position"])
        rules = family_of(game.rules)
        layer = [game.position]
        for _ in range(3):  # the positions two plies down, and the leaves of perft 3
            following: list[Position] = []
            for position in layer:
                check(rules, position, seen)
                following.extend(rules.apply(position, m) for m in rules.legal_moves(position))
            layer = following
    assert seen["positions"] > 2_000 and seen["in check"] > 0


@pytest.mark.parametrize("variant", SHIPPED)
def test_seeded_random_games_in_every_shipped_variant(variant: str) -> None:
    rng = random.Random(f"shortcuts {variant}")
    seen: Counter = Counter()
    for _ in range(6):
        game = Game(variant, seed=rng.randrange(10_000))
        rules = family_of(game.rules)
        for _ in range(160):
            if game.is_game_over():
                break
            if game.is_chance_node():
                game.roll(rng)
                continue
            check(rules, game.position, seen)
            moves = game.legal_moves()
            if not moves:
                break
            game.push(rng.choice(moves))
    assert seen["positions"] >= 150


def test_the_benchmark_tree_where_one_side_is_down_to_its_volkhv() -> None:
    # the tree benchmark's position: at every leaf black has only its volkhv
    game = Game(position="4v3/8/8/1S6/3(P:K'sL)4/8/8/4V3 w - 0 1")
    rules = family_of(game.rules)
    seen: Counter = Counter()
    layer = [game.position]
    for _ in range(3):
        following: list[Position] = []
        for position in layer:
            check(rules, position, seen)
            following.extend(rules.apply(position, m) for m in rules.legal_moves(position))
        layer = following
    assert seen["positions"] > 400
    for position in layer:
        assert rules.has_legal_move(position) == bool(rules.legal_moves(position))


def test_legal_moves_of_one_position_are_generated_once() -> None:
    """A ply asks for the same position's moves four times (game loop, agent, search
    root, push): the rules keep the last answer, as a new list each time,
    and a copy of the rules (perft's meter) never reads the memo it shares."""
    import copy

    from tavrei_lab import Game

    game = Game()
    game.play("e2-e4 e7-e5 g1-f3")
    rules, position = game.rules, game.position
    calls = []
    generate = rules._generate

    def counting(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(args)
        return generate(*args, **kwargs)

    rules._generate = counting    # type: ignore[method-assign]
    try:
        first = rules.legal_moves(position)
        first.clear()                                 # the caller's list to change
        again = rules.legal_moves(position)
        assert len(calls) == 1 and again and again == rules.legal_moves(position)
        assert again is not rules.legal_moves(position)
        counted = copy.copy(rules)
        assert counted.legal_moves(position) == again and len(calls) == 2
    finally:
        del rules._generate
    other = rules.apply(position, again[0])
    assert rules.legal_moves(other) == Game(position=other.string).legal_moves()


def test_a_subclass_that_changes_the_volkhv_pattern_is_asked() -> None:
    # The volkhv step test finds the volkhv's squares itself, without calling
    # ``destinations``, only while ``destinations`` is the family's own: a subclass
    # that keeps the volkhv at home must leave a lone volkhv without a move.
    class HomeVolkhv(TowerChessRules):
        def destinations(self, board: tuple, s: int, top: int, me: int,
                         ep: int | None) -> list[int]:
            return [] if (top >> 1) & 7 == KING else super().destinations(board, s, top, me, ep)

    game = Game(position="4v3/8/8/1S6/3(P:K'sL)4/8/8/4V3 b - 0 1")
    plain = family_of(game.rules)
    assert plain.has_legal_move(game.position)
    home = HomeVolkhv(load_variant("tavreli").variant)
    position = read_position(write_position(game.position), home)
    assert home.legal_moves(position) == []
    assert home.has_legal_move(position) is False
    assert home.outcome(position) is not None
