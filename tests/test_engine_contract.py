"""One engine for every rule module: what a module offers the engine (``fast_paths``)
decides how it is searched and evaluated, never which class it is.

A plugin subclass that changes nothing is played exactly as its parent; one that
changes a rule loses the shortcuts that would bypass its change and plays legal
moves only; the shortcuts' moves equal ``legal_moves`` on random positions of
every module; and nothing outside ``rules/`` asks ``type(rules) is <a rule class>``.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from tavrei_lab import Game
from tavrei_lab.core.tavrel import PAWN
from tavrei_lab.engine.agents import make_agent
from tavrei_lab.engine.evaluate import (
    evaluate,
    mobility_counts,
    positional_score,
    volkhv_danger,
)
from tavrei_lab.engine.play import PlaySearcher
from tavrei_lab.lab.runner import GameSpec, play_game
from tavrei_lab.rules.base import NO_FAST_PATHS, RuleModuleBase
from tavrei_lab.rules.die import DieRules
from tavrei_lab.rules.registry import register_rule_module, rule_module, rule_modules
from tavrei_lab.rules.stacking import TowerChessRules
from tavrei_lab.variant import variants

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "tavrei_lab"


# -- the plugins ---------------------------------------------------------------------------

class SameRules(TowerChessRules):
    """Tavreli's rules under another name: a plugin that changes nothing."""

    name = "test-same-rules"


class SameDie(DieRules):
    """The Gavrilov die under another name."""

    name = "test-same-die"


class CountedOptions(TowerChessRules):
    """Changes only what it reads from the variant (its ``__init__``): keeps every path."""

    name = "test-counted-options"

    def __init__(self, variant: Any) -> None:
        super().__init__(variant)
        self.made = True


class LowTowers(TowerChessRules):
    """No move may build a tower higher than three: a rule of move generation."""

    name = "test-low-towers"

    def legal_moves(self, position: Any) -> list[Any]:
        board = position.board
        return [m for m in super().legal_moves(position)
                if len(board[m.to_square]) + m.count <= 3]


class NoSplitsApplied(TowerChessRules):
    """Changes what a move does (``apply``): a split carries the whole tower."""

    name = "test-whole-towers"

    def legal_moves(self, position: Any) -> list[Any]:
        board = position.board
        return [m for m in super().legal_moves(position)
                if m.count == len(board[m.from_square])]

    def apply(self, position: Any, move: Any) -> Any:
        return super().apply(position, move)


class CountedAgain(TowerChessRules):
    """Overrides a movement member with the same answer: loses the kernel, keeps the rules
    (the evaluation must then give the same numbers through the contract's members)."""

    name = "test-counted-again"

    def activity(self, position: Any) -> tuple[int, int, int, int]:
        return super().activity(position)


class DieWithoutRatnikDoubleSteps(DieRules):
    """The die game where a ratnik never steps two squares."""

    name = "test-die-single-steps"

    def legal_moves(self, position: Any) -> list[Any]:
        return [m for m in super().legal_moves(position) if not _double_step(position, m)]


def _double_step(position: Any, m: Any) -> bool:
    top = position.board[m.from_square][-1]
    return top.acting_kind == PAWN and abs(m.to_square - m.from_square) == \
        2 * position.geometry.width


PLUGINS = (SameRules, SameDie, CountedOptions, LowTowers, NoSplitsApplied, CountedAgain,
           DieWithoutRatnikDoubleSteps)


@pytest.fixture(scope="module")
def plugin_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Variant file per plugin name, each extending the shipped variant of its parent."""
    folder = tmp_path_factory.mktemp("plugins")
    files = {}
    for cls in PLUGINS:
        register_rule_module(cls)
        parent = "gavrilov-die" if issubclass(cls, DieRules) else "tavreli"
        path = folder / f"{cls.name}.toml"
        path.write_text(f'extends = "{parent}"\nrules = "{cls.name}"\n', encoding="utf-8")
        files[cls.name] = str(path)
    return files


def _shortcuts(rules: Any) -> tuple[Any, ...]:
    s = PlaySearcher(rules)
    paths = rules.fast_paths()
    return (paths.tower is not None, paths.whole_game, paths.die is not None, s.fast,
            s.quiescence, s.null_move, s.incremental, s.die is not None, s.pass_over_own)


# -- the seen case: a plugin that changes nothing gets its parent's engine -----------------

def test_a_plugin_that_changes_nothing_gets_every_shortcut_and_the_same_evaluation(
        plugin_files: dict[str, str]) -> None:
    parent, plugin = Game("tavreli"), Game(plugin_files["test-same-rules"])
    for g in (parent, plugin):
        g.play("e2-e4 d7-d5 e4xd5")
    assert len(plugin.legal_moves()) == len(parent.legal_moves()) == 43
    assert evaluate(parent.position) == pytest.approx(-1.16)
    assert evaluate(plugin.position) == evaluate(parent.position)
    s = PlaySearcher(plugin.rules)
    assert s.fast and s.quiescence and s.null_move and s.incremental
    assert _shortcuts(plugin.rules) == _shortcuts(parent.rules)


@pytest.mark.parametrize(("name", "parent"), [("test-same-rules", "tavreli"),
                                              ("test-counted-options", "tavreli"),
                                              ("test-same-die", "gavrilov-die")])
def test_a_subclass_that_changes_nothing_chooses_its_parents_shortcuts(
        plugin_files: dict[str, str], name: str, parent: str) -> None:
    assert _shortcuts(Game(plugin_files[name]).rules) == _shortcuts(Game(parent).rules)


def _moves_played(variant: str, seed: int, plies: int) -> tuple[list[str], str]:
    result = play_game(GameSpec(variant=variant, white="play:nodes=120",
                                black="play:nodes=120", seed=seed, max_plies=plies))
    movetext = [line for line in result.record.splitlines()
                if line and not line.startswith("[")]
    return movetext, result.result


@pytest.mark.parametrize(("name", "parent", "seeds"), [
    ("test-same-rules", "tavreli", (3, 8)),
    ("test-same-die", "gavrilov-die", (5,)),
])
def test_a_subclass_that_changes_nothing_plays_its_parents_games_seed_for_seed(
        plugin_files: dict[str, str], name: str, parent: str, seeds: tuple[int, ...]) -> None:
    for seed in seeds:
        theirs = _moves_played(parent, seed, 36)
        ours = _moves_played(plugin_files[name], seed, 36)
        assert ours == theirs
        assert len(" ".join(ours[0]).split()) > 30    # a real game, not an early end


# -- a subclass that changes a rule --------------------------------------------------------

def test_what_a_changed_rule_costs_it_among_the_shortcuts(plugin_files: dict[str, str]) -> None:
    # legal_moves changed: the movement kernel stays (moves, attacks, apply), the
    # shortcuts that bypass legal_moves and outcome go
    low = Game(plugin_files["test-low-towers"]).rules.fast_paths()
    assert low.tower is not None and not low.whole_game
    s = PlaySearcher(Game(plugin_files["test-low-towers"]).rules)
    assert not (s.fast or s.quiescence or s.null_move) and s.incremental
    # apply changed: nothing is left
    assert Game(plugin_files["test-whole-towers"]).rules.fast_paths() == NO_FAST_PATHS
    assert not PlaySearcher(Game(plugin_files["test-whole-towers"]).rules).incremental
    # the die's legal moves changed: its nested faces are no longer its own
    die = Game(plugin_files["test-die-single-steps"]).rules
    assert die.fast_paths() == NO_FAST_PATHS and PlaySearcher(die).die is None
    # a module written from the base offers nothing
    assert RuleModuleBase().fast_paths() == NO_FAST_PATHS


@pytest.mark.parametrize(("name", "holds"), [
    ("test-low-towers", lambda before, m, after: all(len(t) <= 3 for t in after.board)),
    ("test-whole-towers",
     lambda before, m, after: m.count == len(before.board[m.from_square])),
    ("test-die-single-steps", lambda before, m, after: not _double_step(before, m)),
])
def test_a_subclass_that_changes_a_rule_plays_legal_moves_that_keep_it(
        plugin_files: dict[str, str], name: str, holds: Any) -> None:
    played = 0
    for seed in (1, 2, 3):
        game = Game(plugin_files[name], seed=seed)
        agents = (make_agent("play:nodes=100", seed=seed), make_agent("play:nodes=60", seed=seed))
        while game.ply < 24 and not game.is_game_over(claim_draw=True):
            if game.is_chance_node():
                game.roll()
                continue
            before = game.position
            legal = game.rules.legal_moves(before)
            move = agents[(game.position.turn + seed) % 2].choose(game)
            assert move in legal, game.move_text(move)
            game.push(move)
            assert holds(before, move, game.position), game.move_text(move)
            played += 1
    assert played >= 30


# -- one evaluation formula ------------------------------------------------------------------

def _random_positions(variant: str, count: int, seed: int, plies: int = 90) -> list[Any]:
    """Positions of random games (the die rolled as it comes), every ply kept."""
    rng = random.Random(seed)
    out: list[Any] = []
    while len(out) < count:
        g = Game(variant, seed=rng.randrange(10_000))
        for _ in range(plies):
            if g.is_game_over(claim_draw=True) or len(out) >= count:
                break
            if g.is_chance_node():
                g.roll(rng)
                continue
            out.append(g.position)
            g.push(rng.choice(g.rules.legal_moves(g.position)))
    return out


def test_without_the_kernel_the_evaluation_gives_the_kernels_numbers(
        plugin_files: dict[str, str]) -> None:
    """Mobility mine minus theirs and the attacks around both volkhvs, for every module:
    a subclass that loses the kernel (same rules) is scored exactly as its parent."""
    again = Game(plugin_files["test-counted-again"]).rules
    assert again.fast_paths() == NO_FAST_PATHS
    for pos in _random_positions("tavreli", 150, seed=21):
        rules = pos.rules
        activity = rules.fast_paths().tower.activity(pos)
        assert mobility_counts(pos, again) == activity[:2]
        assert (volkhv_danger(again, pos, pos.turn),
                volkhv_danger(again, pos, 1 - pos.turn)) == activity[2:]
        assert positional_score(pos, again) == pytest.approx(positional_score(pos, rules))


def test_a_module_without_the_kernel_counts_the_other_sides_moves_too() -> None:
    """The race of ratniks (tests/test_rule_contract.py), nothing but the contract:
    its mobility is its moves minus the other side's."""
    from tests.test_rule_contract import RACE_TOML, RatnikRace
    register_rule_module(RatnikRace)
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "race.toml"
        path.write_text(RACE_TOML, encoding="utf-8")
        game = Game(str(path))
        game.play("a2-a3")
        assert mobility_counts(game.position, game.rules) == (4, 4)
        # material even, both sides four steps: nothing to choose between them (the
        # mover's moves alone would give it 4 * MOBILITY)
        assert positional_score(game.position, game.rules) == 0.0


# -- the shortcuts' moves are the module's legal moves -------------------------------------

def _kernel_legal(kernel: Any, pos: Any, moves: Any) -> set[Any]:
    """The engine's legality filter on the kernel: made, and the mover's volkhv unattacked."""
    me = pos.turn
    out = set()
    for m in moves:
        after = kernel.apply(pos, m)
        ks = after.king_square(me)
        if ks is None or not kernel.attacked_by(after.board, ks, 1 - me):
            out.add(m)
    return out


def _modules_under_test(plugin_files: dict[str, str]) -> list[str]:
    """Every registered module, by a variant of it: the shipped variants (the built-in
    modules under every shipped set of options), and this file's plugins."""
    return list(variants()) + [plugin_files[cls.name] for cls in PLUGINS]


def test_every_registered_module_is_covered(plugin_files: dict[str, str]) -> None:
    covered = {type(Game(v).rules) for v in _modules_under_test(plugin_files)}
    built_in_and_ours = {TowerChessRules, DieRules, *PLUGINS}
    for name in rule_modules():
        cls = rule_module(name)
        if cls in built_in_and_ours:
            assert cls in covered, name
    assert built_in_and_ours <= covered


def test_the_shortcuts_generate_exactly_the_legal_moves_of_every_module(
        plugin_files: dict[str, str]) -> None:
    """For every module on random positions: the engine's staged generation and its
    check evasions, after its legality filter on the kernel, are ``legal_moves``; a die's
    nested faces are each face's ``legal_moves``; the kernel's counts are the lists'."""
    checked = {"whole": 0, "tower": 0, "die": 0}
    for variant in _modules_under_test(plugin_files):
        rules = Game(variant).rules
        paths = rules.fast_paths()
        searcher = PlaySearcher(rules)
        count = 260 if paths.whole_game or paths.die is not None else 60
        for pos in _random_positions(variant, count, seed=len(variant)):
            legal = set(rules.legal_moves(pos))
            kernel = paths.tower
            if kernel is not None:
                movers = rules.inner or rules
                counted = kernel.pseudo_move_count(pos)
                assert counted == len(movers.pseudo_moves(pos.replace(roll=None))), pos
                checked["tower"] += 1
            if searcher.fast:
                assert kernel is not None
                if kernel.attacked_by(pos.board, pos.king_square(pos.turn), 1 - pos.turn):
                    made = searcher._evasion_candidates(pos, kernel.pseudo_moves(pos))
                else:
                    made = list(searcher._staged_moves(pos, None, 0))
                assert _kernel_legal(kernel, pos, made) == legal, (variant, pos)
                checked["whole"] += 1
            if searcher.die is not None:
                every = searcher.die.all_moves(pos)
                for face in searcher.die.faces:
                    rank = searcher.die.face_rank(face)
                    if rank == 0:
                        continue
                    nested = {m for m in every
                              if _rank(pos.board[m.from_square][-1].acting_kind) <= rank}
                    assert nested == set(rules.legal_moves(pos.replace(roll=face))), face
                checked["die"] += 1
    assert checked["whole"] >= 2000 and checked["die"] >= 500 and checked["tower"] >= 3000


def _rank(kind: int) -> int:
    from tavrei_lab.rules.die import RANK
    return RANK[kind]


# -- nothing outside rules/ asks which class a module is -------------------------------------

def _rule_classes() -> set[str]:
    """The rule module classes rules/ defines: the base and what derives from it."""
    names = {"RuleModuleBase"}
    texts = [p.read_text(encoding="utf-8") for p in (PACKAGE / "rules").glob("*.py")]
    grew = True
    while grew:
        found = {name for text in texts for name, base in
                 re.findall(r"^class (\w+)\((\w+)", text, re.M) if base in names}
        grew = not found <= names
        names |= found
    return names


def test_no_module_outside_rules_asks_which_rule_class_it_has() -> None:
    assert {"RuleModuleBase", "TowerChessRules", "DieRules"} <= _rule_classes()
    classes = "|".join(sorted(_rule_classes()))
    asked = re.compile(r"\btype\([^()]*\)\s+is\s+(?:not\s+)?(?:\w+\.)*(" + classes + r")\b"
                       r"|\bisinstance\([^()]*,\s*\(?[^()]*\b(" + classes + r")\b")
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
             for path in sorted(PACKAGE.rglob("*.py"))
             if path.relative_to(PACKAGE).parts[0] != "rules"
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if asked.search(line)]
    assert found == []
    # the pattern does catch what it looks for
    assert asked.search("    by_ranks = type(rules) is TowerChessRules")
    assert asked.search("if type(inner) is not DieRules:")
    assert asked.search("ok = isinstance(family, TowerChessRules) and x")


def test_the_capability_check_lives_in_rules() -> None:
    """The engine reads ``fast_paths()``; only rules/ compares a class's members."""
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.relative_to(PACKAGE).parts[0] == "rules":
            continue
        assert "unchanged_members" not in path.read_text(encoding="utf-8"), path


# -- one home for the tavrel's bits ----------------------------------------------------------

#: A packed tavrel decoded by hand: its colour bit read off a tavrel (a tower's top,
#: ``t``, ``top``...), its kind shifted out, or a field's literal mask.
BY_HAND = re.compile(r"(?:\]|\b(?:t|top|tower|dest|there|other|x|r|rtop|dtop|new_top|cover|"
                     r"uncovered)) & 1\b|>> 1\) & 7|& 0b1110000\b|& 0b1110\b|& 128\b")


def test_only_core_tavrel_knows_the_tavrel_bits() -> None:
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
             for path in sorted(PACKAGE.rglob("*.py")) if path.name != "tavrel.py"
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if BY_HAND.search(line)]
    assert found == []
    for line in ("if dest and dest[-1] & 1 != me:", "k = (t >> 1) & 7",
                 "owner = top & 1", "if t & 0b1110000:"):
        assert BY_HAND.search(line), line
    assert not BY_HAND.search("if attacked >> hunted & 1:")   # a bit mask, not a tavrel
