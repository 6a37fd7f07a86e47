"""Fixtures for the real-browser tests: a private JupyterLab and Debian's Chromium.

What works on these machines is recorded in ``shared/TESTING.md``; in short:

- JupyterLab is started here, on 127.0.0.1, on a free port (no retries), with
  a token, and with every ``JUPYTER_*`` directory (and ``IPYTHONDIR``) in a
  temporary folder, so a test never touches the repository or the user's
  settings. The notebooks are copied there.
- Playwright drives Debian's ``/usr/bin/chromium`` (``make test`` installs it;
  ``TAVREI_CHROMIUM`` names another); a test tool's own browser download
  cannot reach its host here. Everything here carries the ``browser`` marker
  (tests/conftest.py adds it): without Chromium it is skipped with the
  reason, and under ``CI=true`` that skip is a failure.
- A notebook is run only once its kernel is really ready: the page waits for
  ``sessionContext.ready`` and kernel status ``idle`` through the exposed app
  (``--LabApp.expose_app_in_browser``), then runs ``notebook:run-all-cells``.

Screenshots go to ``test-artifacts/browser/`` (git-ignored).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _lab import NOTEBOOKS, Notebook, jupyter_server, lab_url, open_and_run, screenshot
from playwright.sync_api import expect

from tests.conftest import CHROMIUM  # where it is missing, tests/conftest.py skips (or fails, CI)

# A read of what a widget shows waits for the state it expects (``expect(...)``, which
# retries until it holds): the board redraws before the status and the move list, and
# on a machine at load 4-13 a status read at once still showed the move before. Its
# timeout is how long a loaded machine may take, not a pause: it returns when it holds.
expect.set_options(timeout=20_000)

HERE = Path(__file__).resolve().parent

LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
               "--no-first-run", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]


@pytest.fixture(scope="session")
def jupyter_lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A private JupyterLab serving a copy of tests/browser/notebooks."""
    root = tmp_path_factory.mktemp("lab")
    work = root / "work"
    shutil.copytree(NOTEBOOKS, work)
    with jupyter_server(root, f"--ServerApp.root_dir={work}", "--LabApp.news_url=None",
                        "--MappingKernelManager.cull_idle_timeout=600", cwd=work) as lab:
        yield {**lab, "root": work}


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture(scope="module")
def notebook(jupyter_lab: dict[str, Any], browser: Any) -> Iterator[Notebook]:
    """tests/browser/notebooks/boards.ipynb opened and run in JupyterLab."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    open_and_run(page, lab_url(jupyter_lab, "boards.ipynb"))
    page.wait_for_selector(".main-board .tavrei-board-widget svg", timeout=60000)
    page.wait_for_selector(".die-board .tavrei-board-widget svg", timeout=60000)
    page.wait_for_selector(".proj-board .tavrei-board-widget svg", timeout=60000)
    page.wait_for_selector(".puzzle-app .tavrei-board-widget svg", timeout=60000)
    # the last cell: once it is drawn the kernel is free for the tests' clicks
    page.wait_for_selector(".tavrei-editor .tavrei-board-widget svg", timeout=60000)
    try:
        yield Notebook(page)
    finally:
        screenshot(page, "zz-final")
        context.close()
