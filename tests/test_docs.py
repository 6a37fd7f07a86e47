"""The code in docs/rule-modules.md runs, in order, as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[1] / "docs" / "rule-modules.md"


def test_rule_module_walkthrough_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"```(\w+)\n(.*?)```", text, flags=re.S)
    python = [code for lang, code in blocks if lang == "python"]
    variant = [code for lang, code in blocks if lang == "toml" and "extends" in code]
    assert len(python) == 3 and len(variant) == 1
    (tmp_path / "hard-ground.toml").write_text(variant[0])
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
