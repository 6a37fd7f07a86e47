"""The rule-module contract (rules/base.py, docs/rule-modules.md) from a third party's side.

A minimal module that owes nothing to the tower-chess family -- a race of ratniks
built on ``RuleModuleBase`` -- is registered like an installed plugin and played
through everything the package offers: games, move text, records, position
strings, perft, trees, pictures, hashing and the engine. If any part asked a rule
module for something the contract does not name, this module would not have it
and the test would fail. The die is played over a module from outside the
package (docs/rule-modules.md's ``HardGround``).
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from tavrei_lab import Game, Roll
from tavrei_lab.core.geometry import Geometry
from tavrei_lab.core.move import Move
from tavrei_lab.core.position import Position
from tavrei_lab.core.tavrel import PAWN
from tavrei_lab.engine import make_agent, perft, zobrist_hash
from tavrei_lab.errors import ArgumentError, TavreiError, VariantError
from tavrei_lab.render import board_svg
from tavrei_lab.rules.base import (
    CONTRACT_MEMBERS,
    Option,
    Outcome,
    RuleModule,
    RuleModuleBase,
    missing_members,
)
from tavrei_lab.rules.die import DieRules
from tavrei_lab.rules.registry import register_rule_module
from tavrei_lab.rules.stacking import TowerChessRules
from tavrei_lab.tree import build, nodes_per_depth
from tavrei_lab.variant import load_variant

DOC = Path(__file__).resolve().parents[1] / "docs" / "rule-modules.md"


class RatnikRace(RuleModuleBase):
    """Ratniks only: each turn one ratnik steps straight ahead onto an empty square.
    The first to reach the far rank wins; a side that cannot step has drawn."""

    name = "ratnik-race"

    def __init__(self, variant) -> None:  # noqa: ANN001 -- a Variant
        self.variant = variant
        self.geometry = Geometry.of(variant.width, variant.height)
        self.pieces = variant.pieces
        self.options = variant.resolved_options(self.OPTIONS)

    def _winner(self, position: Position) -> int | None:
        g = self.geometry
        for color, rank in ((0, g.height - 1), (1, 0)):
            for f in range(g.width):
                tower = position.board[rank * g.width + f]
                if tower and tower[-1].color == color:
                    return color
        return None

    def legal_moves(self, position: Position) -> list[Move]:
        if self._winner(position) is not None:
            return []
        step = self.geometry.width if position.turn == 0 else -self.geometry.width
        return [Move(s, 1, s + step) for s, tower in enumerate(position.board)
                if tower and tower[-1].color == position.turn and tower[-1].kind == PAWN
                and 0 <= s + step < self.geometry.size and not position.board[s + step]]

    def apply(self, position: Position, move: Move) -> Position:
        board = list(position.board)
        board[move.to_square], board[move.from_square] = board[move.from_square], ()
        me = position.turn
        return Position(self, tuple(board), 1 - me, None, 0,  # type: ignore[arg-type]
                        position.fullmove_number + me)

    def is_check(self, position: Position) -> bool:
        return False

    def is_attacked(self, position: Position, square: int, by: int) -> bool:
        return False

    def outcome(self, position: Position, repetitions: int = 1,
                claim_draw: bool = False) -> Outcome | None:
        winner = self._winner(position)
        if winner is not None:
            return Outcome("finish", winner)  # type: ignore[arg-type]
        if not self.legal_moves(position):
            return Outcome("no-step")
        return None


RACE_TOML = '''\
name = "Ratnik race"
description = "Ratniks only, straight ahead; the first on the far rank wins."
rules = "ratnik-race"
pieces = "orthodox"

[setup]
position = "8/4pppp/8/8/8/8/PPPP4/8 w - 0 1"   # white on a-d, black on e-h
'''


@pytest.fixture(scope="module")
def race_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    register_rule_module(RatnikRace)
    path = tmp_path_factory.mktemp("race") / "ratnik-race.toml"
    path.write_text(RACE_TOML, encoding="utf-8")
    return str(path)


# -- the contract itself -------------------------------------------------------------------

def test_the_documentation_states_the_whole_contract() -> None:
    text = DOC.read_text(encoding="utf-8")
    table = text.split("<!-- contract:", 1)[1]
    rows = re.findall(r"^\| `([A-Za-z_]+)", table, flags=re.M)
    assert sorted(set(rows) - {"__init__"}) == sorted(CONTRACT_MEMBERS)
    assert "__init__" in rows


def test_the_base_class_answers_everything_a_subclass_need_not_write() -> None:
    required = {"legal_moves", "apply", "is_check", "is_attacked", "outcome"}
    data = {"variant", "geometry", "pieces", "options"}  # set in __init__
    assert missing_members(RuleModuleBase) == sorted(data)
    arguments = {"legal_moves": 1, "apply": 2, "is_check": 1, "is_attacked": 3, "outcome": 1}
    assert set(arguments) == required
    for member, count in arguments.items():
        with pytest.raises(NotImplementedError, match=member):
            getattr(RuleModuleBase(), member)(*(None,) * count)


@pytest.mark.parametrize("variant", ["tavreli", "orthodox", "gavrilov-die"])
def test_the_shipped_modules_keep_the_contract(variant: str) -> None:
    rules = load_variant(variant)
    assert isinstance(rules, RuleModule) and missing_members(rules) == []
    assert rules.counts_turns is rules.has_chance is isinstance(rules, DieRules)


def test_an_object_short_of_the_contract_is_refused_with_what_it_lacks() -> None:
    class HalfAModule:
        def legal_moves(self, position: Position) -> list[Move]:
            return []

    with pytest.raises(ArgumentError, match=r"lacks .*apply.*has_chance"):
        Game(HalfAModule())


# -- a third-party module through every part --------------------------------------------------

def test_a_minimal_module_plays_through_the_game_and_the_notation(race_file: str) -> None:
    game = Game(race_file)
    assert isinstance(game.rules, RatnikRace) and missing_members(game.rules) == []
    game.play("a2-a3 h7-h6 a3-a4")
    assert game.position.string == "8/4ppp1/7p/8/P7/8/1PPP4/8 b - 0 2"
    with pytest.raises(TavreiError):
        game.push("h6-h4")
    again = Game.from_record(game.record(), variant=race_file)
    assert again.position == game.position and again.ply == 3
    assert Game(race_file, position=game.position.string).position.key() == game.position.key()
    game.play("h6-h5 a4-a5 h5-h4 a5-a6 h4-h3 a6-a7 h3-h2")
    assert game.outcome() is None and not game.is_check()
    game.push("a7-a8")
    assert game.outcome() == Outcome("finish", 0) and game.legal_moves() == []


def test_a_minimal_module_counts_draws_and_hashes(race_file: str) -> None:
    game = Game(race_file)
    assert [perft(game.rules, game.position, d) for d in (1, 2, 3)] == [4, 16, 64]
    tree = build(game, 2, values=False)
    assert nodes_per_depth(tree) == [1, 4, 16]
    svg = board_svg(game.position)
    assert svg.startswith("<svg") and 'data-square="a2"' in svg and "pawn" in svg
    child = game.rules.apply(game.position, game.legal_moves()[0])
    assert zobrist_hash(child) != zobrist_hash(game.position)


@pytest.mark.parametrize("agent", ["random", "greedy", "alphabeta:2"])
def test_the_engine_plays_a_minimal_module(race_file: str, agent: str) -> None:
    game = Game(race_file)
    player = make_agent(agent, seed=3)
    while not game.is_game_over() and game.ply < 200:
        move = player.choose(game)
        assert move in game.legal_moves()
        game.push(move)
    assert game.is_game_over()


# -- the die over a module from outside the package -------------------------------------------

def hard_ground() -> type[TowerChessRules]:
    """docs/rule-modules.md's HardGround, taken from the page as a reader would."""
    code = re.search(r"```python\n(from tavrei_lab.rules.base import Option.*?)```",
                     DOC.read_text(encoding="utf-8"), flags=re.S)
    assert code is not None
    namespace: dict = {}
    exec(compile(code.group(1), str(DOC), "exec"), namespace)
    register_rule_module(namespace["HardGround"])
    return namespace["HardGround"]


def die_variant(tmp_path: Path, over: str, height: int = 2) -> str:
    path = tmp_path / f"die-over-{over}.toml"
    path.write_text(f'name = "die over {over}"\ndescription = "test"\n'
                    f'extends = "gavrilov-die"\n\n[die]\nover = "{over}"\n\n'
                    + (f"[options]\nmax_height = {height}\n" if over == "hard-ground" else ""),
                    encoding="utf-8")
    return str(path)


def test_the_die_plays_over_the_documented_out_of_tree_module(tmp_path: Path) -> None:
    HardGround = hard_ground()
    over_hard = load_variant(die_variant(tmp_path, "hard-ground"))
    over_tower = load_variant(die_variant(tmp_path, "tower-chess"))
    assert isinstance(over_hard, DieRules) and isinstance(over_hard.inner, HardGround)
    assert over_hard.options["max_height"] == 2 and over_hard.inner.options["max_height"] == 2
    assert {o.name for o in over_hard.OPTIONS} >= {"max_height", "no_move_passes", "absent"}
    assert "max_height" not in over_tower.options
    # a rook beside a two-tower of rooks, the die showing R: the family decides the moves
    text = "5k/6/6/6/6/(RR)R3K w - 0 1 @R"
    hard = Game(over_hard, position=text)
    tower = Game(over_tower, position=text)
    hard_moves = {hard.move_text(m) for m in hard.legal_moves()}
    tower_moves = {tower.move_text(m) for m in tower.legal_moves()}
    assert tower_moves - hard_moves == {"a1xb1", "b1xa1"}   # the two that build three
    assert hard_moves < tower_moves and "a1(1)xb1" in hard_moves
    # and a whole seeded game with the die never builds a tower of three
    game = Game(over_hard, seed=11)
    rng = random.Random(11)
    while game.ply < 80 and not game.is_game_over():
        if game.is_chance_node():
            game.roll()
        else:
            game.push(rng.choice(game.legal_moves()))
    assert any(isinstance(a, Roll) for a in game.history) and game.ply > 10
    assert all(len(t) <= 2 for p in game.positions for t in p.board)
    assert perft(over_hard, over_hard.initial_position(), 2) \
        <= perft(over_tower, over_tower.initial_position(), 2)


@pytest.mark.parametrize(("over", "message"), [("die", "die.over"),
                                               ("no-such-family", "unknown rule module")])
def test_a_die_over_nothing_playable_is_a_variant_error(tmp_path: Path, over: str,
                                                        message: str) -> None:
    with pytest.raises(VariantError, match=message):
        load_variant(die_variant(tmp_path, over))


def test_option_is_the_one_the_contract_exports() -> None:
    assert RatnikRace.OPTIONS == () and Option.__module__ == "tavrei_lab.rules.base"


def test_a_variant_file_naming_a_module_short_of_the_contract_says_what_it_lacks(
        tmp_path: Path) -> None:
    """Found when the variant is loaded, as a VariantError, not later as an AttributeError."""
    class NoDieAnswers(RatnikRace):
        name = "no-die-answers"
        has_chance = property()   # type: ignore[assignment]  # reading it fails: "lacks"

    register_rule_module(NoDieAnswers)
    path = tmp_path / "short.toml"
    path.write_text(RACE_TOML.replace('"ratnik-race"', '"no-die-answers"'), encoding="utf-8")
    with pytest.raises(VariantError, match=r"key 'rules'.*lacks .*has_chance"):
        load_variant(str(path))


def test_a_die_table_on_rules_without_a_die_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "no-die.toml"
    path.write_text('extends = "tavreli"\n[die]\nweights = [1, 1, 1, 1, 1, 1]\n')
    with pytest.raises(VariantError, match=r"key 'die'.*has no die"):
        load_variant(str(path))
