"""A classroom screen where everything fits, measured in a real browser.

Each app of ``screen_fits_<language>.ipynb`` (a projector board, a tutorial board,
a projector puzzle, and the projector board again further down the page) is
scrolled so its first line is at the top of the screen, as a teacher does, and
its bounding boxes are read: every control inside the screen, no button's text
cut, the puzzle's verdict line in sight after a Check, and the board's size the
same wherever on the page it first appeared.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from _lab import browser_page, click_centre, screenshot, settle, voila_app
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SIZES = [{"width": 1280, "height": 720}, {"width": 1400, "height": 1000}]
APPS = [".fit-proj", ".fit-tutorial", ".fit-puzzle", ".fit-proj-again"]

#: Everything one reads or clicks in an app's first screen, with its box and whether
#: its text is cut: the status line, the board's row (the board, the column beside
#: it), the row of buttons under it, and a puzzle's own rows under its board. (The
#: new-game, players and records panels under those are the teacher's set-up, below
#: the first screen by design.)
MEASURE = """(sel) => {
  const app = document.querySelector(sel);
  const board = app.classList.contains('tavrei-board-app') ? app
    : app.querySelector('.tavrei-board-app');
  const scopes = [board.querySelector('.tavrei-status'),
                  board.querySelector('.tavrei-board-widget').parentElement,
                  board.querySelector('.tavrei-controls-row')];
  if (app !== board) {
    for (let node = board.nextElementSibling; node; node = node.nextElementSibling)
      scopes.push(node);
  }
  const seen = [];
  for (const scope of scopes) {
    if (!scope) continue;
    const parts = [scope, ...scope.querySelectorAll(
      'button, input, select, textarea, svg.tavrei-board, .tavrei-puzzle-verdict')];
    for (const node of parts) {
      const box = node.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;      // not shown
      if (node === scope && !node.matches('.tavrei-status, .tavrei-puzzle-verdict')) continue;
      const label = (node.innerText || node.value || node.getAttribute('class') || '').trim();
      seen.push({label: label.slice(0, 40), tag: node.tagName, top: box.top,
                 bottom: box.bottom, left: box.left, right: box.right,
                 cut: node.tagName === 'BUTTON' && node.scrollWidth > node.clientWidth + 1});
    }
  }
  return seen;
}"""


def _serve(language: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with voila_app(f"screen_fits_{language}.ipynb",
                   tmp_path_factory.mktemp(f"voila-fits-{language}")) as base:
        yield base


@pytest.fixture(scope="module")
def voila_en(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from _serve("en", tmp_path_factory)


@pytest.fixture(scope="module")
def voila_ru(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from _serve("ru", tmp_path_factory)


def _open(page: Any, base: str) -> None:
    page.goto(base)
    for app in APPS:
        page.wait_for_selector(f"{app} .tavrei-board-widget svg", timeout=90000)
    settle(page, [f"{app} .tavrei-board-widget svg" for app in APPS])


def _scroll_to(page: Any, app: str) -> None:
    """The app's first line at the top of the screen, and its layout settled (the
    board resizes on a ResizeObserver's frame)."""
    page.evaluate("(sel) => document.querySelector(sel).scrollIntoView({block: 'start'})", app)
    settle(page, [f"{app} .tavrei-board-widget svg", f"{app} .tavrei-controls-row"])


def _assert_inside(page: Any, app: str, size: dict[str, int], language: str) -> None:
    screenshot(page, f"40-fits-{language}-{size['width']}x{size['height']}-{app[1:]}")
    seen = page.evaluate(MEASURE, app)
    assert seen, app
    for part in seen:
        print(f"\n{language} {size['width']}x{size['height']} {app} {part['tag']} "
              f"{part['label'][:20]!r}: y {part['top']:.0f}-{part['bottom']:.0f}, "
              f"x {part['left']:.0f}-{part['right']:.0f}{' CUT' if part['cut'] else ''}", end="")
    outside = [p for p in seen if p["top"] < -0.5 or p["bottom"] > size["height"] + 0.5
               or p["left"] < -0.5 or p["right"] > size["width"] + 0.5]
    assert not outside, (app, outside)
    assert not [p for p in seen if p["cut"]], (app, [p for p in seen if p["cut"]])


def _check_every_app(page: Any, base: str, size: dict[str, int], language: str) -> None:
    _open(page, base)
    for app in APPS:
        _scroll_to(page, app)
        _assert_inside(page, app, size, language)
    # the puzzle's verdict: a wrong answer checked, its line in sight under the buttons
    _scroll_to(page, ".fit-puzzle")
    page.locator(".fit-puzzle .tavrei-answer input").fill("a2-a3")
    page.locator(".fit-puzzle .tavrei-answer input").press("Enter")
    expect(page.locator(".fit-puzzle .tavrei-puzzle-verdict")).not_to_be_empty()
    _scroll_to(page, ".fit-puzzle")
    _assert_inside(page, ".fit-puzzle", size, language)
    # the same board, first shown near the top and far down the page: one size
    widths = page.evaluate("""() => ['.fit-proj', '.fit-proj-again'].map(sel =>
      document.querySelector(sel + ' svg.tavrei-board').getBoundingClientRect().width)""")
    print(f"\nprojector boards: {widths}", end="")
    assert abs(widths[0] - widths[1]) <= 1, widths
    # no tooltip reads "null" (a Python None passed through as a title)
    nulls = page.evaluate("""() => Array.from(document.querySelectorAll('[title]'))
      .filter(n => ['null', 'undefined'].includes(n.getAttribute('title')))
      .map(n => n.outerHTML.slice(0, 80))""")
    assert nulls == [], nulls
    screenshot(page, f"40-fits-{language}-{size['width']}x{size['height']}")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s['width']}x{s['height']}")
def test_every_control_fits_the_screen_in_english(voila_en: str, browser: Any,
                                                  size: dict[str, int]) -> None:
    with browser_page(browser, size) as page:
        _check_every_app(page, voila_en, size, "en")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s['width']}x{s['height']}")
def test_every_control_fits_the_screen_in_russian(voila_ru: str, browser: Any,
                                                  size: dict[str, int]) -> None:
    with browser_page(browser, size) as page:
        _check_every_app(page, voila_ru, size, "ru")


def _left_area(page: Any, shown: bool) -> None:
    """JupyterLab's left area (the file browser) open or closed."""
    if shown:
        page.evaluate("() => window.jupyterapp.commands.execute('filebrowser:activate')")
        page.wait_for_function("() => !window.jupyterapp.shell.leftCollapsed")
    else:
        page.evaluate("() => { if (!window.jupyterapp.shell.leftCollapsed) "
                      "window.jupyterapp.commands.execute('application:toggle-left-area'); }")
        page.wait_for_function("() => window.jupyterapp.shell.leftCollapsed")


def _lab_screen(page: Any) -> dict[str, int]:
    """The part of the window JupyterLab shows a notebook's cells in: above its
    status bar, inside the window."""
    box = page.evaluate("""() => {
      const r = document.querySelector('.jp-NotebookPanel-notebook').getBoundingClientRect();
      return {top: r.top, bottom: Math.min(r.bottom, window.innerHeight),
              right: Math.min(r.right, window.innerWidth)};
    }""")
    return {"top": box["top"], "height": box["bottom"], "width": box["right"]}


@pytest.mark.parametrize("language", ["en", "ru"])
def test_every_control_fits_jupyterlab_with_the_file_browser_open_and_closed(
        jupyter_lab: dict[str, Any], browser: Any, language: str) -> None:
    """In JupyterLab, at both sizes, with the file browser open and closed: each app
    scrolled to the top of the notebook shows every control above Lab's status bar,
    and no button's text is cut (Russian's longer words included)."""
    from _lab import lab_url, open_and_run
    with browser_page(browser, SIZES[0]) as page:
        open_and_run(page, lab_url(jupyter_lab, f"screen_fits_{language}.ipynb"))
        for app in APPS:
            page.wait_for_selector(f"{app} .tavrei-board-widget svg", timeout=90000)
        for size in SIZES:
            page.set_viewport_size(size)
            for files in (True, False):
                _left_area(page, files)
                for app in APPS[:3]:
                    _scroll_to(page, app)
                    screen = _lab_screen(page)
                    seen = page.evaluate(MEASURE, app)
                    where = f"{language} {size['width']}x{size['height']} files={files} {app}"
                    screenshot(page, f"41-lab-{where.replace(' ', '-').replace('.', '')}")
                    low = max(p["bottom"] for p in seen)
                    print(f"\n{where}: lowest control y {low:.0f} (cells shown to "
                          f"y {screen['height']:.0f})", end="")
                    outside = [p for p in seen if p["bottom"] > screen["height"] + 0.5
                               or p["right"] > screen["width"] + 0.5 or p["left"] < -0.5]
                    assert not outside, (where, outside)
                    cut = [p["label"] for p in seen if p["cut"]]
                    assert not cut, (where, cut)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_tower_of_nine_is_read_at_projector_size(request: pytest.FixtureRequest,
                                                   browser: Any, language: str) -> None:
    """A tower of 9 on the projector board: its lower layers are stripes, so its height
    stands in a badge as large as the strip letters (at least 12 px), and a click on it
    lists every layer beside the board, in sight."""
    base = request.getfixturevalue(f"voila_{language}")
    with browser_page(browser, SIZES[0]) as page:
        page.goto(base)
        page.wait_for_selector(".fit-tall .tavrei-board-widget svg", timeout=90000)
        _scroll_to(page, ".fit-tall")
        seen = page.evaluate("""() => {
          const svg = document.querySelector('.fit-tall .tavrei-board-widget svg');
          const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
          const badge = svg.querySelector('.tower[data-square="e5"] text.height-badge');
          const letters = Array.from(svg.querySelectorAll('g.layer[data-square="e5"] text'))
            .map(t => Number(t.getAttribute('font-size')) * scale);
          return {badge: badge ? badge.textContent : null,
                  badgePx: badge ? Number(badge.getAttribute('font-size')) * scale : 0,
                  letters, board: svg.getBoundingClientRect().right};
        }""")
        print(f"\n{language}: tower of 9: badge {seen['badge']} at {seen['badgePx']:.1f} px, "
              f"{len(seen['letters'])} strip letters of {min(seen['letters']):.1f} px", end="")
        assert min(seen["letters"]) >= 12 - 1e-6
        if len(seen["letters"]) < 9:          # not every layer lettered: the badge counts them
            assert seen["badge"] == "9" and seen["badgePx"] >= 12 - 1e-6, seen
        click_centre(page, '.fit-tall .tavrei-board-widget .square[data-square="e5"]',
                     ".fit-tall .tavrei-board-widget")
        rows = page.locator(".fit-tall .tavrei-inspector .insp-row")
        expect(rows).to_have_count(9)
        boxes = [rows.nth(i).bounding_box() for i in range(9)]
        print(f"; inspector rows y {min(b['y'] for b in boxes if b):.0f}-"
              f"{max(b['y'] + b['height'] for b in boxes if b):.0f}", end="")
        for box in boxes:
            assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= 720, box
            assert box["x"] >= seen["board"] - 1, box          # beside the board
        screenshot(page, f"42-tall-tower-{language}")
