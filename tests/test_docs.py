"""The code in docs/rule-modules.md runs, in order, as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tavrei_lab import Roll

DOC = Path(__file__).resolve().parents[1] / "docs" / "rule-modules.md"


def test_rule_module_walkthrough_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"```(\w+)\n(.*?)```", text, flags=re.S)
    python = [code for lang, code in blocks if lang == "python"]
    variant = [code for lang, code in blocks if lang == "toml" and "extends" in code]
    assert len(python) == 4 and len(variant) == 2
    for code in variant:  # a block saved under another name says so in its first line
        first = code.splitlines()[0]
        name = first[2:].strip() if first.startswith("# ") else "hard-ground.toml"
        (tmp_path / name).write_text(code)
    monkeypatch.chdir(tmp_path)
    namespace: dict = {}
    for code in python:
        exec(compile(code, str(DOC), "exec"), namespace)
    game = namespace["game"]
    assert game.rules.options["max_height"] == 3
    assert all(len(game.position.board[m.to_square]) + m.count <= 3
               for m in game.legal_moves())
    # the rule really bites: plain Tavreli would allow taller towers here
    from tavrei_lab import Game
    plain = Game(position=game.position.string)
    assert len(plain.legal_moves()) > len(game.legal_moves())
    # the die plays over the out-of-tree module: its options, its filter, the die's turns
    die_game = namespace["die_game"]
    assert die_game.rules.name == "die" and die_game.rules.inner.name == "hard-ground"
    assert die_game.rules.options["max_height"] == 2 and die_game.rules.has_chance
    assert any(isinstance(a, Roll) for a in die_game.history)
    assert all(len(t) <= 2 for p in die_game.positions for t in p.board)
