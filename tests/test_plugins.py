"""Rule modules are plugins: an out-of-tree module found through the entry-point group."""

from __future__ import annotations

import random
import textwrap
from pathlib import Path

import pytest

from tavrei_lab import Game, RuleModule, VariantError
from tavrei_lab.rules.registry import ENTRY_POINT_GROUP, register_rule_module, rule_modules
from tavrei_lab.rules.stacking import TowerChessRules

PLUGIN = '''
from tavrei_lab.rules.stacking import TowerChessRules
from tavrei_lab.rules.base import Option


class PeacefulVsadniks(TowerChessRules):
    """Tavreli where a vsadnik never takes prisoners."""

    name = "peaceful-vsadniks"
    OPTIONS = TowerChessRules.OPTIONS + (
        Option("vsadnik_may_stack_own", bool, True, "A vsadnik may still land on its own side."),
    )

    def legal_moves(self, position):
        out = []
        for m in super().legal_moves(position):
            top = position.board[m.from_square][-1]
            dest = position.board[m.to_square]
            if top.acting_kind == 5 and dest and (dest[-1].color != top.color
                                                 or not self.options["vsadnik_may_stack_own"]):
                continue
            out.append(m)
        return out
'''


@pytest.fixture()
def installed_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A tiny distribution on sys.path whose metadata declares the entry point."""
    (tmp_path / "peaceful_plugin.py").write_text(PLUGIN)
    info = tmp_path / "peaceful_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: peaceful-plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        f"[{ENTRY_POINT_GROUP}]\npeaceful-vsadniks = peaceful_plugin:PeacefulVsadniks\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    variant = tmp_path / "peaceful.toml"
    variant.write_text(textwrap.dedent("""
        name = "Peaceful vsadniks"
        description = "Vsadniks never take prisoners."
        extends = "tavreli"
        rules = "peaceful-vsadniks"
    """))
    return variant


def test_entry_point_plugin_is_discovered_and_plays(installed_plugin: Path) -> None:
    assert "peaceful-vsadniks" in rule_modules()
    game = Game(str(installed_plugin))
    assert isinstance(game.rules, RuleModule)
    game.play("e2-e4 d7-d5 g1-f3 d5-d4 f3-e5 d4-d3")
    texts = {game.move_text(m) for m in game.legal_moves()}
    assert "e5xf7" not in texts                  # the vsadnik takes no prisoners ...
    assert "e5-d7" in texts and "e5-c6" in texts  # ... but still moves
    plain = Game()
    plain.play("e2-e4 d7-d5 g1-f3 d5-d4 f3-e5 d4-d3")
    assert "e5xf7" in {plain.move_text(m) for m in plain.legal_moves()}
    rng = random.Random(3)
    for _ in range(60):
        moves = game.legal_moves()
        if not moves:
            break
        game.push(rng.choice(moves))
    assert game.ply > 6


def test_plugin_options_are_validated(installed_plugin: Path) -> None:
    bad = installed_plugin.with_name("bad.toml")
    bad.write_text('extends = "peaceful"\n[options]\nvsadnik_may_stack_own = 3\n')
    with pytest.raises(VariantError, match="options.vsadnik_may_stack_own"):
        Game(str(bad))


def test_register_at_run_time(tmp_path: Path) -> None:
    class NoCastling(TowerChessRules):
        name = "test-no-castling"

        def __init__(self, variant):  # type: ignore[no-untyped-def]
            super().__init__(variant)
            self.castling = False

    register_rule_module(NoCastling)
    path = tmp_path / "nc.toml"
    path.write_text('extends = "tavreli"\nrules = "test-no-castling"\n')
    game = Game(str(path), "4v3/8/8/8/8/8/8/R3V2R w - 0 1")
    assert not any(m.castling for m in game.legal_moves())


def test_the_end_of_the_game_follows_a_plugin_that_filters_moves(tmp_path: Path) -> None:
    class NoVolkhvMoves(TowerChessRules):
        """Only the volkhv could move here; this module forbids it."""

        name = "test-frozen-volkhv"

        def legal_moves(self, position):  # type: ignore[no-untyped-def]
            return [m for m in super().legal_moves(position)
                    if position.board[m.from_square][-1].kind != 1]

    register_rule_module(NoVolkhvMoves)
    path = tmp_path / "frozen.toml"
    path.write_text('extends = "tavreli"\nrules = "test-frozen-volkhv"\n')
    game = Game(str(path), "7v/8/8/8/8/8/8/V7 w - 0 1")
    assert game.legal_moves() == []
    assert game.rules.has_legal_move(game.position) is False
    outcome = game.outcome()
    assert outcome is not None and outcome.termination == "stalemate"


def test_a_built_in_rule_module_is_found_without_reading_entry_points(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every variant load asks for its rule module; for a built-in name the registry
    must not read every installed package's metadata (20 ms a variant)."""
    from tavrei_lab.rules import registry
    from tavrei_lab.rules.die import DieRules

    def no_metadata(**_kwargs: object) -> None:
        raise AssertionError("entry points read for a built-in rule module")

    monkeypatch.setattr(registry.metadata, "entry_points", no_metadata)
    assert registry.rule_module("tower-chess") is TowerChessRules
    assert registry.rule_module("die") is DieRules
    with pytest.raises(AssertionError, match="entry points read"):
        registry.rule_module("peaceful-vsadniks")      # a plugin's name still reads them
