"""Smoke test: the board served as an app by Voila (a classroom screen) plays by clicks.

Voila runs the notebook in a fresh kernel for every page load, so there is no
kernel to query here: the status line (written by Python after each click)
and the drawing's CSS classes are the evidence.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _lab import NOTEBOOKS, free_port, private_jupyter_env, screenshot, stop, wait_for_http

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def voila(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("voila")
    work = root / "work"
    work.mkdir()
    shutil.copy(NOTEBOOKS / "voila_board.ipynb", work)
    port = free_port()
    log = root / "voila.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "voila", "voila_board.ipynb", "--no-browser",
             "--Voila.ip=127.0.0.1", f"--port={port}", "--Voila.port_retries=0",
             "--MappingKernelManager.cull_idle_timeout=120"],
            cwd=work, env=private_jupyter_env(root), stdout=out, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        # Probe a static file: every GET of "/" would start a kernel.
        wait_for_http(f"{base}/voila/static/voila.js", process, Path(log))
        yield base
    finally:
        stop(process)


def test_board_in_voila_plays_a_move_by_clicks(voila: str, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    try:
        page.goto(voila)
        page.wait_for_selector(".tavrei-board-widget svg", timeout=60000)
        board = page.locator(".tavrei-board-widget")
        for square in ("e2", "e4"):
            before = int(board.get_attribute("data-version") or 0)
            target = page.locator(f'.tavrei-board-widget .square[data-square="{square}"]')
            box = target.bounding_box()
            assert box is not None
            page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            page.wait_for_function(
                "(v) => Number(document.querySelector('.tavrei-board-widget')"
                ".dataset.version) > v", arg=before, timeout=10000)
        lastmove = page.evaluate("() => Array.from(document.querySelectorAll("
                                 "'.tavrei-board-widget .square.lastmove'))"
                                 ".map(e => e.dataset.square)")
        assert set(lastmove) == {"e2", "e4"}
        assert "e2-e4 played" in page.locator(".tavrei-status").inner_text()
        screenshot(page, "07-voila")
    finally:
        context.close()
