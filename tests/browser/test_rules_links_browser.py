"""The tutorials' links to the rules open the rules in JupyterLab.

``make lab`` starts JupyterLab on ``notebooks/00_quick_start.ipynb``, which makes
``notebooks/`` the server's root: the old links (``../docs/rules.md#...``) pointed
outside it and JupyterLab answered with a 404. The rules pages now stand beside the
notebooks (``notebooks/rules.md``, ``notebooks/ru/rules.md``, links to the pages in
``docs/``); this opens a tutorial in a JupyterLab laid out as ``make lab`` lays it out
(a copy of ``notebooks/`` and ``docs/``, links kept), clicks its link to the rules and
reads the page that opened.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _lab import jupyter_server, screenshot

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]

OPENED = """() => {
  const widget = window.jupyterapp.shell.currentWidget;
  if (!widget || !widget.context || !widget.context.path.endsWith('rules.md')) return null;
  if (!widget.context.isReady) return null;
  return {path: widget.context.path, text: widget.context.model.toString()};
}"""


@pytest.fixture(scope="module")
def lab_like_make_lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """JupyterLab whose root is a checkout's notebooks/ (as `make lab` has it)."""
    root = tmp_path_factory.mktemp("lab-links")
    checkout = root / "checkout"
    for folder in ("notebooks", "docs"):
        shutil.copytree(ROOT / folder, checkout / folder, symlinks=True,
                        ignore=shutil.ignore_patterns(".ipynb_checkpoints", "api"))
    assert (checkout / "notebooks" / "rules.md").is_symlink()
    with jupyter_server(root, "--LabApp.news_url=None",
                        str(checkout / "notebooks" / "00_quick_start.ipynb"),
                        cwd=checkout) as lab:
        yield lab


@pytest.mark.parametrize(("notebook", "link", "page", "heading"), [
    ("01_meet_the_tavrels.ipynb", "rules A7", "rules.md", "### A7. En passant"),
    ("ru/01_meet_the_tavrels.ipynb", "правило A7", "ru/rules.md",
     "### A7. Взятие на проходе"),
])
def test_a_tutorial_link_opens_the_rules_in_jupyterlab(
        lab_like_make_lab: dict[str, Any], browser: Any, notebook: str, link: str,
        page: str, heading: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    tab = context.new_page()
    try:
        tab.goto(f"{lab_like_make_lab['url']}/lab/tree/{notebook}"
                 f"?token={lab_like_make_lab['token']}&reset")
        tab.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell.currentWidget"
                              " && window.jupyterapp.shell.currentWidget.context"
                              " && window.jupyterapp.shell.currentWidget.context.isReady",
                              timeout=60000)
        anchor = tab.locator(".jp-RenderedMarkdown a", has_text=link).first
        anchor.scroll_into_view_if_needed(timeout=30000)
        anchor.click()
        opened = tab.wait_for_function(OPENED, timeout=30000).json_value()
        screenshot(tab, f"rules-link-{page.replace('/', '-')}")
        assert opened["path"] == page
        assert heading in opened["text"]
        assert tab.locator(".jp-Dialog").count() == 0, "JupyterLab showed an error dialog"
    finally:
        context.close()
