"""The board in Notebook 7 (the classic-looking front end), played with the mouse.

The board is promised to work in JupyterLab 4, Notebook 7 and Voila.
Notebook 7 is built from JupyterLab's components but is its own application
(its own page at ``/notebooks/<name>.ipynb``, its own shell and plugin set),
so a board that works in JupyterLab is not thereby proved to work there.

The server is started here as JupyterLab is in ``conftest.py``: on 127.0.0.1,
on a free port, with a token and every ``JUPYTER_*`` directory private. With
``--JupyterNotebookApp.expose_app_in_browser=True`` Notebook 7 sets
``window.jupyterapp`` just as JupyterLab does, so the same kernel-readiness
wait and Run All (``RUN_ALL``) and the same kernel queries (``Notebook``) work.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from _lab import (
    NOTEBOOKS,
    RUN_ALL,
    Notebook,
    jupyter_server,
    screenshot,
    steady_centre,
)
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

BOARD = ".main-board .tavrei-board-widget"


@pytest.fixture(scope="module")
def notebook7(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A private Notebook 7 server serving a copy of tests/browser/notebooks."""
    root = tmp_path_factory.mktemp("nb7")
    work = root / "work"
    shutil.copytree(NOTEBOOKS, work)
    with jupyter_server(root, f"--ServerApp.root_dir={work}",
                        "--MappingKernelManager.cull_idle_timeout=600", cwd=work,
                        app="notebook", log_name="notebook.log") as server:
        yield server


def squares_with(page: Any, cls: str) -> set[str]:
    """Squares of the main board whose drawn element carries the CSS class ``cls``."""
    return set(page.evaluate(
        "([sel, cls]) => Array.from(document.querySelectorAll(sel + ' .square.' + cls))"
        ".map(e => e.dataset.square)", [BOARD, cls]))


def click_square(page: Any, square: str) -> None:
    """Mouse click at the centre of a drawn square; wait until the board has redrawn."""
    board = page.locator(BOARD)
    before = int(board.get_attribute("data-version") or 0)
    point = steady_centre(page, f'{BOARD} .square[data-square="{square}"]')
    page.mouse.click(*point)
    page.wait_for_function(
        "([sel, v]) => Number(document.querySelector(sel).dataset.version) > v",
        arg=[BOARD, before], timeout=10000)


def inside_notebook_bundle(error: Any) -> bool:
    """Whether every frame of a page error's stack (with a source address) is Notebook 7's."""
    frames = [line for line in (error.stack or "").splitlines()[1:] if "://" in line]
    return bool(frames) and all("/static/notebook/" in frame for frame in frames)


def test_board_in_notebook7_plays_a_move_by_clicks(notebook7: dict[str, Any],
                                                     browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    console_errors: list[str] = []
    page_errors: list[Any] = []
    page.on("console", lambda m: console_errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: page_errors.append(e))
    try:
        page.goto(f"{notebook7['url']}/notebooks/boards.ipynb?token={notebook7['token']}")
        page.wait_for_function(
            "() => window.jupyterapp && window.jupyterapp.shell.currentWidget"
            " && window.jupyterapp.shell.currentWidget.sessionContext", timeout=60000)
        # It is Notebook 7's own application, not JupyterLab under another URL.
        assert page.evaluate("() => window.jupyterapp.name") == "Jupyter Notebook"
        assert page.evaluate(RUN_ALL), "the kernel never became ready"
        page.wait_for_selector(f"{BOARD} svg", timeout=60000)
        # every cell has run (the kernel is free for the clicks): the last one's editor is up
        page.wait_for_selector(".tavrei-editor .tavrei-board-widget svg", timeout=60000)
        nb = Notebook(page)
        assert len(page.locator(f'{BOARD} .square[data-square]').all()) == 64

        click_square(page, "e2")
        state = nb.state("board")
        assert state["selected"] == "e2" and state["destinations"] == ["e3", "e4"]
        assert squares_with(page, "selected") == {"e2"}
        assert squares_with(page, "dest-empty") == {"e3", "e4"}

        click_square(page, "e4")
        state = nb.state("board")
        assert state["history"] == ["e2-e4"] and state["selected"] is None
        assert squares_with(page, "lastmove") == {"e2", "e4"}
        assert squares_with(page, "selected") == set()
        assert page.locator(f'{BOARD} .tower[data-square="e4"]').count() == 1
        assert page.locator(f'{BOARD} .tower[data-square="e2"]').count() == 0
        expect(page.locator(".main-board .tavrei-status")).to_contain_text("e2-e4 played")
        screenshot(page, "09-notebook7")

        # Arrow keys step through the move list when the board has focus; in
        # Notebook 7 the notebook's own key handling must not swallow them.
        for key, history in (("ArrowLeft", []), ("ArrowRight", ["e2-e4"])):
            before = int(page.locator(BOARD).get_attribute("data-version") or 0)
            page.locator(BOARD).focus()
            page.keyboard.press(key)
            page.wait_for_function(
                "([sel, v]) => Number(document.querySelector(sel).dataset.version) > v",
                arg=[BOARD, before], timeout=10000)
            assert nb.state("board")["history"] == history, key

        # Nothing in the page went wrong, the widget's code included. Notebook
        # 7.6 itself throws one TypeError ("reading 'schema'", its shortcuts
        # settings plugin) when cells run, even for print(1); such an error,
        # raised entirely inside Notebook's own bundle, is tolerated.
        assert console_errors == []
        foreign = [e for e in page_errors if not inside_notebook_bundle(e)]
        assert foreign == [], [f"{e}\n{e.stack}" for e in foreign]
    finally:
        context.close()
