"""The board's browser half is split by concern (geometry, effects, marks, drag,
inspector, fit, and board.js's render), joined into the one inline module anywidget
loads; no function in it is longer than 150 lines."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tavrei_lab.widgets.esm import PARTS, SHARED, widget_module
from tavrei_lab.widgets.view import BoardView

WIDGETS = Path(__file__).resolve().parents[1] / "tavrei_lab" / "widgets"


def function_lengths(text: str) -> dict[str, int]:
    """Each top-level function's length in lines (from its line to the closing brace
    at the start of a line)."""
    lengths, lines = {}, text.splitlines()
    for i, line in enumerate(lines):
        found = re.match(r"(?:async )?function (\w+)", line)
        if found:
            end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("}"))
            lengths[found.group(1)] = end - i + 1
    return lengths


def test_the_board_module_is_its_parts_joined_in_order() -> None:
    files = [SHARED, *PARTS["board"], "board.js"]
    assert widget_module("board") == "\n".join(
        (WIDGETS / name).read_text(encoding="utf-8") for name in files)
    assert BoardView._esm == widget_module("board")
    for part in ("drag", "marks", "inspector", "effects"):
        assert f"board_{part}.js" in PARTS["board"]


def test_no_function_of_the_board_is_over_150_lines() -> None:
    lengths = function_lengths(widget_module("board"))
    assert {"render", "draw", "startDrag", "renderInspector", "fitBoard"} <= set(lengths)
    assert max(lengths.values()) <= 150, sorted(lengths.items(), key=lambda kv: -kv[1])[:3]
    names = list(lengths)
    assert len(names) == len(set(names)), "a function defined twice across the parts"


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_joined_module_parses(tmp_path: Path) -> None:
    module = tmp_path / "board.mjs"
    module.write_text(widget_module("board"), encoding="utf-8")
    done = subprocess.run(["node", "--check", str(module)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
