"""Small things a class trips on, each seen and reproduced."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

from traitlets.config.loader import JSONFileConfigLoader

from tavrei_lab import Game
from tavrei_lab.widgets import Board

ROOT = Path(__file__).parent.parent


def test_status_move_text_is_the_move_lists_text() -> None:
    # seen: the status said "a1-a8+" where the move list said "a1-a8"
    board = Board(Game("orthodox", "7k/8/8/8/8/8/8/R6K w - - 0 1"))
    board.play("a1-a8")
    listed = board.line().texts[-1]
    assert listed == "a1-a8"
    assert "1. a1-a8 played." in board.status.value and "a1-a8+" not in board.status.value
    assert "check" in board.status.value.lower()       # the check is said, once, in the state


def test_new_game_and_set_position_clear_arrows_and_circles() -> None:
    board = Board()
    for start_again in (board.new_game,
                        lambda: board.set_position(board.game.position.string)):
        board.arrows = [("e2", "e4"), ("d5", "d5", "red")]
        board.highlights = ["e4"]
        board.view.drawn = [["g1", "f3", "green"]]      # drawn with the right button
        start_again()
        assert board.arrows == [] and board.highlights == [] and board.view.drawn == []


def test_classroom_config_culls_idle_kernels(tmp_path) -> None:
    # seen: Voila kernels outlive their pages (4 x 78 MB after 10 minutes)
    sh = shutil.which("sh")
    assert sh
    subprocess.run([sh, str(ROOT / "binder" / "postBuild")], check=True,
                   env={**os.environ, "PREFIX": str(tmp_path)})
    etc = tmp_path / "etc" / "jupyter"
    for folder, name in ((etc / "jupyter_server_config.d", "tavrei-lab-classroom.json"),
                         (etc, "voila.json")):
        config = JSONFileConfigLoader(name, path=str(folder)).load_config()
        kernels = config.MappingKernelManager
        assert 0 < kernels.cull_idle_timeout <= 900 and kernels.cull_interval > 0
        assert kernels.cull_connected is False     # an open page's kernel is never culled
    from jupyter_server.services.kernels.kernelmanager import MappingKernelManager
    applied = MappingKernelManager(config=JSONFileConfigLoader(
        "voila.json", path=str(etc)).load_config())
    assert applied.cull_idle_timeout == json.loads(
        (ROOT / "etc" / "classroom-kernels.json").read_text())["MappingKernelManager"][
        "cull_idle_timeout"]


def test_undo_then_a_move_is_a_takeback_not_a_side_line() -> None:
    # seen: Undo then a move started a "side line" with a "Back to the game" button
    board = Board()
    board.play("e2-e4")
    board.play("e7-e5")
    board.undo()
    board.play("d7-d5")
    assert board.game.action_texts() == ["e2-e4", "d7-d5"]
    assert not board.game.can_redo() and board.game_button.layout.display == "none"
    assert "side line" not in board.status.value
    # stepping back with the arrows is analysis: a move there still starts a side line
    board.step(-1)
    board.play("c7-c5")
    assert board.game_button.layout.display != "none"
    board.back_to_game()
    board.go_to(2)
    assert board.game.action_texts() == ["e2-e4", "d7-d5"]   # the game kept its moves


def _luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def test_inspector_rows_keep_their_contrast_in_a_dark_theme() -> None:
    # seen: in JupyterLab's dark theme the inspector was white text on cream
    import re
    css = (ROOT / "tavrei_lab" / "widgets" / "board.css").read_text()
    rule = re.search(r"\.tavrei-inspector \.insp-row \{([^}]*)\}", css)
    assert rule
    background = re.search(r"background:\s*(#[0-9a-fA-F]{6})", rule.group(1))
    ink = re.search(r"(?<![-\w])color:\s*(#[0-9a-fA-F]{6})", rule.group(1))
    assert background and ink, "a row sets its background but not its own text colour"
    light, dark = sorted((_luminance(background.group(1)), _luminance(ink.group(1))),
                         reverse=True)
    assert (light + 0.05) / (dark + 0.05) >= 7    # WCAG AAA, whatever the theme's text colour
