"""The board in a real JupyterLab, played with the mouse in headless Chromium.

Each test sets up its position through the kernel, then plays by mouse
clicks at the centre of the drawn squares and tower layers, and after each
click checks both halves: the Python-side game (read back through the
kernel) and the drawing in the page (the CSS classes of the squares).
"""

from __future__ import annotations

import re
import statistics
import time
from typing import Any

import pytest
from _lab import (
    SHOWN,
    Notebook,
    assert_status_fits,
    english_words,
    screenshot,
    settle,
    steady_centre,
    verdict_banner,
)
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tavrei_lab.widgets.drawing import PROJECTOR_SIZE

pytestmark = pytest.mark.browser

MAIN = ".main-board"
DIE = ".die-board"
PROJ = ".proj-board"

#: A Tavreli position with a tower of 10 on d4 and one of 2 on e4 (white to move).
TALL_TOWERS = ("rslkvlsr/p:Rp:Sp:Lp:K1p:Lp:Sp:R/8/8/3(P:Kp:KP:Kp:KP:Kp:KP:Kp:KP:Kk)(p:HP:H)3/8/"
               "P:RP:SP:L2P:LP:SP:R/RSLKVLSR w - 0 1")


def board_el(nb: Notebook, app: str) -> Any:
    return nb.page.locator(f"{app} .tavrei-board-widget")


def version(nb: Notebook, app: str) -> int:
    return int(board_el(nb, app).get_attribute("data-version") or 0)


def wait_redraw(nb: Notebook, app: str, before: int) -> None:
    nb.page.wait_for_function(
        "([sel, v]) => Number(document.querySelector(sel).dataset.version) > v",
        arg=[f"{app} .tavrei-board-widget", before], timeout=10000)


def centre(nb: Notebook, app: str, selector: str) -> tuple[float, float]:
    """The centre of an element of the drawing, once it holds still under the mouse."""
    return steady_centre(nb.page, f"{app} .tavrei-board-widget {selector}")


def mouse_click(nb: Notebook, app: str, selector: str) -> None:
    """Click with the mouse at the centre of an element of the drawing, and wait for the redraw."""
    x, y = centre(nb, app, selector)
    before = version(nb, app)
    nb.page.mouse.click(x, y)
    wait_redraw(nb, app, before)


def click_square(nb: Notebook, app: str, square: str) -> None:
    mouse_click(nb, app, f'.square[data-square="{square}"]')


def click_layer(nb: Notebook, app: str, square: str, layer: int) -> None:
    mouse_click(nb, app, f'svg [data-square="{square}"][data-layer="{layer}"]')


def mouse_drag(nb: Notebook, app: str, start: str, end: str, button: str = "left",
               wait: bool = True) -> None:
    """Press on the element ``start``, move in steps to the square ``end``, release."""
    x1, y1 = centre(nb, app, start)
    x2, y2 = centre(nb, app, f'.square[data-square="{end}"]')
    before = version(nb, app)
    page = nb.page
    page.mouse.move(x1, y1)
    page.mouse.down(button=button)
    page.mouse.move(x2, y2, steps=8)
    page.mouse.up(button=button)
    if wait:
        wait_redraw(nb, app, before)


def status_text(nb: Notebook, app: str) -> str:
    return nb.page.locator(f"{app} .tavrei-status").inner_text()


def click_button(nb: Notebook, app: str, label: str) -> None:
    before = version(nb, app)
    nb.page.locator(f"{app} button", has_text=label).first.click()
    wait_redraw(nb, app, before)


def drawn(nb: Notebook, app: str, cls: str) -> set[str]:
    """Squares whose drawn element carries the CSS class ``cls``."""
    return set(nb.page.evaluate(
        "([sel, cls]) => Array.from(document.querySelectorAll("
        "sel + ' .tavrei-board-widget .square.' + cls)).map(e => e.dataset.square)", [app, cls]))


def reset(nb: Notebook, board: str, app: str, moves: str = "", **kw: str) -> None:
    """Put a new game (with ``moves`` played) on a board through the kernel."""
    before = version(nb, app)
    args = ", ".join(f"{k}={v}" for k, v in kw.items())
    nb.execute(f"_g = Game({args})\n_g.play({moves!r})\n{board}.set_game(_g, 'Test set-up.')")
    wait_redraw(nb, app, before)


def test_normal_move_by_clicks(notebook: Notebook) -> None:
    nb = notebook
    reset(nb, "board", MAIN)
    click_square(nb, MAIN, "e2")
    state = nb.state("board")
    assert state["selected"] == "e2" and state["destinations"] == ["e3", "e4"]
    assert drawn(nb, MAIN, "selected") == {"e2"}
    assert drawn(nb, MAIN, "dest-empty") == {"e3", "e4"}
    click_square(nb, MAIN, "e4")
    state = nb.state("board")
    assert state["history"] == ["e2-e4"] and state["selected"] is None
    assert drawn(nb, MAIN, "lastmove") == {"e2", "e4"}
    assert drawn(nb, MAIN, "selected") == set()
    # the move list follows the board (the board is redrawn first); the list
    # shows spaces as no-break spaces
    nb.page.wait_for_function(
        "(sel) => document.querySelector(sel).innerText.replace(/\\u00a0/g, ' ')"
        ".includes('1. e2-e4')", arg=f"{MAIN} .tavrei-moves select", timeout=10000)
    expect(nb.page.locator(f"{MAIN} .tavrei-status")).to_contain_text("e2-e4 played")
    screenshot(nb.page, "01-normal-move")


def test_capture_onto_an_enemy_tower_then_split(notebook: Notebook) -> None:
    nb = notebook
    reset(nb, "board", MAIN, "e2-e4 d7-d5")
    click_square(nb, MAIN, "e4")
    assert "d5" in drawn(nb, MAIN, "dest-enemy")
    click_square(nb, MAIN, "d5")                      # the ratnik takes a prisoner
    state = nb.state("board")
    assert state["history"][-1] == "e4xd5"
    assert re.search(r"\(p:K'?P:H'\)", state["position"])  # a tower of two on d5
    layers = nb.page.locator(f'{MAIN} .tavrei-board-widget svg [data-square="d5"][data-layer]')
    assert layers.count() == 2
    screenshot(nb.page, "02-capture")
    click_square(nb, MAIN, "a7")
    click_square(nb, MAIN, "a6")
    click_layer(nb, MAIN, "d5", 1)                    # the top layer: take one tavrel
    state = nb.state("board")
    assert state["selected"] == "d5" and state["count"] == 1
    assert state["destinations"] == ["d6"] and drawn(nb, MAIN, "dest-empty") == {"d6"}
    assert drawn(nb, MAIN, "selected") == {"d5"}
    click_square(nb, MAIN, "d6")
    state = nb.state("board")
    assert state["history"][-1] == "d5(1)-d6"
    assert drawn(nb, MAIN, "lastmove") == {"d5", "d6"}
    screenshot(nb.page, "03-split")


def test_undo_button(notebook: Notebook) -> None:
    nb = notebook
    reset(nb, "board", MAIN, "e2-e4 e7-e5")
    click_square(nb, MAIN, "g1")
    click_square(nb, MAIN, "f3")
    assert nb.state("board")["history"] == ["e2-e4", "e7-e5", "g1-f3"]
    click_button(nb, MAIN, "Undo")
    state = nb.state("board")
    assert state["history"] == ["e2-e4", "e7-e5"]
    assert drawn(nb, MAIN, "lastmove") == {"e7", "e5"}
    screenshot(nb.page, "04-undo")


def test_arrow_keys_step_through_the_moves(notebook: Notebook) -> None:
    nb = notebook
    reset(nb, "board", MAIN, "e2-e4 e7-e5 g1-f3")
    board = board_el(nb, MAIN)
    board.focus()
    before = version(nb, MAIN)
    nb.page.keyboard.press("ArrowLeft")
    wait_redraw(nb, MAIN, before)
    assert nb.state("board")["history"] == ["e2-e4", "e7-e5"]
    before = version(nb, MAIN)
    nb.page.keyboard.press("ArrowRight")
    wait_redraw(nb, MAIN, before)
    assert nb.state("board")["history"] == ["e2-e4", "e7-e5", "g1-f3"]
    # lichess's keys too: up to the start, down to the end, f flips the board
    for key, plies in (("ArrowUp", 0), ("ArrowDown", 3)):
        before = version(nb, MAIN)
        nb.page.keyboard.press(key)
        wait_redraw(nb, MAIN, before)
        assert len(nb.state("board")["history"]) == plies
    svg = nb.page.locator(f"{MAIN} .tavrei-board-widget svg")
    for flipped in ("true", "false"):
        before = version(nb, MAIN)
        nb.page.keyboard.press("f")
        wait_redraw(nb, MAIN, before)
        assert svg.get_attribute("data-flipped") == flipped


def test_die_game_turn_with_a_roll(notebook: Notebook) -> None:
    nb = notebook
    reset(nb, "die", DIE, variant="'gavrilov-die'", seed="3")
    state = nb.state("die")
    assert state["chance"] and state["history"] == []
    for _ in range(10):                               # a skip face passes: roll again
        click_button(nb, DIE, "Roll the die")
        state = nb.state("die")
        if not state["chance"]:
            break
        assert "passes" in state["status"]
    assert state["roll"] is not None and state["history"][-1] == f"@{state['roll']}"
    nb.page.locator(f"{DIE} .widget-html", has_text=f"Die: {state['roll']}").first.wait_for()
    greyed = set(nb.page.evaluate(
        "(sel) => Array.from(document.querySelectorAll("
        "sel + ' .tavrei-board-widget .tower.greyed')).map(e => e.dataset.square)", DIE))
    assert greyed == set(state["greyed"])
    screenshot(nb.page, "05-die-roll")
    origin, target = state["legal"][0]
    click_square(nb, DIE, origin)
    assert target in nb.state("die")["destinations"]
    click_square(nb, DIE, target)
    state = nb.state("die")
    assert state["history"][-1].replace("x", "-") == f"{origin}-{target}"
    assert state["chance"]                            # the other side rolls next
    assert drawn(nb, DIE, "lastmove") == {origin, target}
    screenshot(nb.page, "06-die-move")


def test_click_to_redraw_time(notebook: Notebook) -> None:
    """Twenty clicks (select / deselect e2); the page times each click to its redraw."""
    nb = notebook
    reset(nb, "board", MAIN)
    times, outside = [], []
    for i in range(20):
        started = time.perf_counter()
        click_square(nb, MAIN, "e2")
        outside.append((time.perf_counter() - started) * 1000)
        times.append(float(board_el(nb, MAIN).get_attribute("data-redraw-ms") or "nan"))
        assert drawn(nb, MAIN, "selected") == ({"e2"} if i % 2 == 0 else set())
    median = statistics.median(times)
    print(f"\nclick-to-redraw over {len(times)} clicks (in the page): median {median:.1f} ms "
          f"(min {min(times):.1f}, max {max(times):.1f}); seen from the test driver "
          f"(mouse click to new version observed): median {statistics.median(outside):.1f} ms")
    assert all(t == t for t in times)                 # every click was timed
    assert median < 1000


def test_position_editor_by_clicks(notebook: Notebook) -> None:
    nb = notebook
    editor = ".tavrei-editor"
    nb.page.locator(f"{editor} button", has_text="remove top").click()
    mouse_click(nb, editor, '.square[data-square="e2"]')
    assert nb.execute("print(bool(editor.position().tower('e2')))").strip() == "False"
    assert nb.page.locator(f'{editor} .tavrei-board-widget .tower[data-square="e2"]').count() == 0
    # the black knyaz: lower-case letters are black (exact match is case-sensitive)
    nb.page.locator(editor).get_by_role("button", name="k", exact=True).click()
    mouse_click(nb, editor, '.square[data-square="e1"]')
    expect(nb.page.locator(".tavrei-editor-status")).to_contain_text("Refused")
    mouse_click(nb, editor, '.square[data-square="e4"]')
    assert nb.execute("print(editor.position().tower('e4')[-1].color)").strip() == "1"
    nb.page.locator(f"{editor} button", has_text="Play from here").click()
    nb.page.wait_for_selector(f"{editor} .tavrei-board-app .tavrei-board-widget svg")
    out = nb.execute("print(editor.board.game.position.string == editor.position().string)")
    assert out.strip() == "True"
    screenshot(nb.page, "08-editor")


def test_drag_and_drop_moves_captures_and_splits(notebook: Notebook) -> None:
    nb = notebook
    reset(nb, "board", MAIN, "e2-e4 d7-d5")
    mouse_drag(nb, MAIN, '.tower[data-square="e4"]', "d5")      # a capture, by drag
    assert nb.state("board")["history"][-1] == "e4xd5"
    assert drawn(nb, MAIN, "lastmove") == {"e4", "d5"}
    mouse_drag(nb, MAIN, '.tower[data-square="a7"]', "a6")
    # the drag starts on the top layer of d5's strip: only that tavrel goes
    mouse_drag(nb, MAIN, 'svg [data-square="d5"][data-layer="1"]', "d6")
    state = nb.state("board")
    assert state["history"][-1] == "d5(1)-d6"
    assert re.search(r"/3P1p1/3p4/", state["position"]) or "d6" in state["history"][-1]
    screenshot(nb.page, "09-drag-split")


def test_illegal_drop_snaps_back_and_flashes_the_square(notebook: Notebook) -> None:
    nb = notebook
    reset(nb, "board", MAIN)
    mouse_drag(nb, MAIN, '.tower[data-square="e2"]', "e5")
    el = board_el(nb, MAIN)
    assert el.get_attribute("data-flashed") == "e5"
    assert el.get_attribute("data-snapped") == "e2"
    nb.page.wait_for_selector(f'{MAIN} rect.flash[data-square="e5"]', state="attached")
    screenshot(nb.page, "10-illegal-drop-flash")
    assert "Illegal" in status_text(nb, MAIN) and "e5" in status_text(nb, MAIN)
    assert nb.state("board")["history"] == []
    nb.page.wait_for_selector(f"{MAIN} .drag-ghost", state="detached")
    assert nb.page.locator(f'{MAIN} .tower[data-square="e2"]').count() == 1
    # a tower that may not move (black's, on white's turn) cannot be lifted;
    # dragging it still explains why and flashes it
    mouse_drag(nb, MAIN, '.tower[data-square="e7"]', "e5")
    assert el.get_attribute("data-flashed") == "e7"
    assert "black" in status_text(nb, MAIN) and "white" in status_text(nb, MAIN)
    assert nb.state("board")["history"] == []


def test_right_drag_draws_an_arrow_and_no_jupyter_menu_opens(notebook: Notebook) -> None:
    nb = notebook
    reset(nb, "board", MAIN)
    mouse_drag(nb, MAIN, '.square[data-square="g1"]', "f3", button="right", wait=False)
    mouse_drag(nb, MAIN, '.square[data-square="d4"]', "d4", button="right", wait=False)
    shapes = nb.page.locator(f"{MAIN} .user-shape")
    shapes.first.wait_for()
    drawn_shapes = {(s.get_attribute("data-from"), s.get_attribute("data-to"))
                    for s in shapes.all()}
    assert drawn_shapes == {("g1", "f3"), ("d4", "d4")}
    assert nb.page.locator(f"{MAIN} .user-shape line").count() == 1     # the arrow
    assert nb.page.locator(f"{MAIN} .user-shape circle").count() == 1   # the circle
    menus = nb.page.locator(".lm-Menu, .p-Menu")
    assert all(not m.is_visible() for m in menus.all()), "Jupyter's context menu opened"
    # the control: the same right-click just outside the board opens Jupyter's menu
    nb.page.locator(f"{MAIN} .tavrei-status").click(button="right")
    nb.page.locator(".lm-Menu").first.wait_for(state="visible", timeout=5000)
    nb.page.keyboard.press("Escape")
    nb.page.locator(".lm-Menu").first.wait_for(state="hidden", timeout=5000)
    screenshot(nb.page, "11-right-drag-arrow")
    out = nb.execute("print(board.view.drawn)")
    assert "'g1', 'f3'" in out and "'d4', 'd4'" in out
    click_square(nb, MAIN, "e2")                                     # a left click clears them
    assert nb.page.locator(f"{MAIN} .user-shape").count() == 0


def test_reject_api_takes_a_dragged_move_back(notebook: Notebook) -> None:
    nb = notebook
    reset(nb, "board", MAIN)
    nb.execute("board.on_move(_wrong := lambda b, m: b.reject(m, 'Not that one: try again.'))")
    try:
        mouse_drag(nb, MAIN, '.tower[data-square="e2"]', "e4")
        el = board_el(nb, MAIN)
        assert el.get_attribute("data-flashed") == "e4"
        assert el.get_attribute("data-slid") == "e4-e2"
        assert "Not that one: try again." in status_text(nb, MAIN)
        assert nb.state("board")["history"] == []
        screenshot(nb.page, "12-reject")
    finally:
        nb.execute("board.on_move(_wrong, remove=True)")


def test_drop_to_redraw_time(notebook: Notebook) -> None:
    """Ten moves by drag (a knight out and back); the page times each drop to its redraw."""
    nb = notebook
    reset(nb, "board", MAIN)
    times = []
    route = [("g1", "f3"), ("g8", "f6"), ("f3", "g1"), ("f6", "g8")] * 3
    for fr, to in route[:10]:
        mouse_drag(nb, MAIN, f'.tower[data-square="{fr}"]', to)
        times.append(float(board_el(nb, MAIN).get_attribute("data-redraw-ms") or "nan"))
    assert len(nb.state("board")["history"]) == 10
    median = statistics.median(times)
    print(f"\ndrop-to-redraw over {len(times)} drops (in the page): median {median:.1f} ms "
          f"(min {min(times):.1f}, max {max(times):.1f})")
    assert all(t == t for t in times)
    assert median < 1000


def shown_to(nb: Notebook, selector: str) -> float:
    """Where JupyterLab stops showing ``selector``: the bottom of the notebook's
    scrolling list (it ends above the status bar), within the window."""
    return float(nb.page.evaluate("""(sel) => {
      const list = document.querySelector(sel).closest('.jp-WindowedPanel-outer');
      const bar = document.querySelector('#jp-main-statusbar');
      return Math.min(window.innerHeight, list.getBoundingClientRect().bottom,
                      bar ? bar.getBoundingClientRect().top : Infinity);
    }""", selector))


def assert_undo_row_shown(nb: Notebook, board: dict[str, float]) -> dict[str, float]:
    """The first row of buttons (Undo...) right under the board and in sight: at
    1280x720 it was under JupyterLab's status bar (y 681-713, the notebook shown
    to y 690)."""
    undo = box_of(nb, f"{PROJ} .tavrei-controls-row")
    bottom = shown_to(nb, f"{PROJ} .tavrei-controls-row")
    print(f"; Undo row y {undo['y']:.0f}-{undo['y'] + undo['height']:.0f} (notebook shown "
          f"to y {bottom:.0f})", end="")
    assert board["y"] + board["height"] - 1 <= undo["y"] <= board["y"] + board["height"] + 12
    assert undo["y"] + undo["height"] <= bottom, "the Undo row is out of sight"
    assert board["y"] >= 0
    return undo


def box_of(nb: Notebook, selector: str) -> dict[str, float]:
    box = nb.page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box


def test_inspector_rows_choose_the_count(notebook: Notebook) -> None:
    nb = notebook
    reset(nb, "board", MAIN, "e2-e4 d7-d5 e4xd5 a7-a6")
    x, y = centre(nb, MAIN, '.tower[data-square="d5"] use')
    nb.page.mouse.move(x, y)                                   # hover: no kernel needed
    inspector = nb.page.locator(f"{MAIN} .tavrei-inspector")
    nb.page.wait_for_function("(sel) => document.querySelector(sel).dataset.square === 'd5'",
                              arg=f"{MAIN} .tavrei-inspector")
    rows = inspector.locator(".insp-row")
    assert rows.count() == 2
    texts = rows.all_inner_texts()
    assert any("black" in t and "ratnik" in t and "ратник" in t and "pawn" in t for t in texts)
    heights = [r.bounding_box()["height"] for r in rows.all()]
    assert min(heights) >= 32, heights
    screenshot(nb.page, "13-inspector-hover")
    for layer, count in ((1, 1), (0, 2)):
        before = version(nb, MAIN)
        inspector.locator(f'.insp-row[data-layer="{layer}"]').click()
        wait_redraw(nb, MAIN, before)
        state = nb.state("board")
        assert state["selected"] == "d5" and state["count"] == count
    assert inspector.locator(".insp-row.taken").count() == 2
    legend = inspector.locator(".insp-legend")
    for words in ("knyaz (князь)", "queen", "K in move text", "V in move text"):
        expect(legend).to_contain_text(words)                     # the notation letters too
    screenshot(nb.page, "14-inspector-count")


def board_box(nb: Notebook, app: str) -> dict[str, float]:
    """The board drawing's box relative to its Board widget (scrolling the page does not count)."""
    return nb.page.evaluate("""(sel) => {
      const app = document.querySelector(sel).getBoundingClientRect();
      const b = document.querySelector(sel + ' .tavrei-board-widget svg').getBoundingClientRect();
      return {x: b.x - app.x, y: b.y - app.y, width: b.width, height: b.height};
    }""", app)


def test_the_board_holds_still(notebook: Notebook) -> None:
    """Select, message, roll: the board's box does not move or resize.

    On a narrow screen (a laptop with the file browser open), where a long
    message takes two lines."""
    nb = notebook
    nb.page.set_viewport_size({"width": 1024, "height": 900})
    try:
        _holds_still(nb)
    finally:
        nb.page.set_viewport_size({"width": 1400, "height": 1000})


def _holds_still(nb: Notebook) -> None:
    reset(nb, "die", DIE, variant="'gavrilov-die'", seed="3")
    svg = DIE
    first = board_box(nb, svg)
    for _ in range(10):
        click_button(nb, DIE, "Roll the die")
        assert board_box(nb, svg) == first, "rolling the die moved the board"
        assert board_el(nb, DIE).get_attribute("data-rolled"), "the die did not tumble"
        if not nb.state("die")["chance"]:
            break
    state = nb.state("die")
    origin, _target = state["legal"][0]
    click_square(nb, DIE, origin)                              # select
    assert board_box(nb, svg) == first, "selecting moved the board"
    click_square(nb, DIE, "c4")                                # a long explanation
    assert board_box(nb, svg) == first, "a message moved the board"
    reset(nb, "board", MAIN, "e2-e4 d7-d5 e4xd5 a7-a6")
    before = board_box(nb, MAIN)
    lines = set()
    # select a tower of two (a long message), refuse, select another, clear
    for square in ("d5", "h6", "b2", "b2", "e8"):
        click_square(nb, MAIN, square)
        assert board_box(nb, MAIN) == before, f"the board moved after a click on {square}"
        # the status never clips (its second line was once cut in half)
        fits = nb.page.evaluate("""(sel) => {
          const s = document.querySelector(sel + ' .tavrei-status');
          return [s.scrollHeight, s.clientHeight, s.innerText]}""", MAIN)
        assert fits[0] <= fits[1], f"the status clips after {square}: {fits}"
        lines.add(nb.page.evaluate("""(sel) => {
          const m = document.querySelector(sel + ' .tavrei-status .tavrei-message');
          return Math.round(m.getBoundingClientRect().height / 10)}""", MAIN))
    assert len(lines) > 1, "every message took as many lines: the test proves nothing"
    print(f"\nboard boxes: die board {first}, main board {before}")


def letter_sizes(nb: Notebook, app: str) -> list[float]:
    """Every strip letter's font size in CSS px, as drawn (font-size x the SVG's scale)."""
    return nb.page.evaluate("""(sel) => {
      const svg = document.querySelector(sel + ' .tavrei-board-widget svg');
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      return Array.from(svg.querySelectorAll('.layer text')).map(
        t => Number(t.getAttribute('font-size')) * scale);
    }""", app)


def test_projector_mode_fits_1280x720(notebook: Notebook) -> None:
    nb = notebook
    page = nb.page
    page.set_viewport_size({"width": 1280, "height": 720})
    try:
        before = version(nb, PROJ)
        nb.execute(f"proj.set_game(Game('tavreli', {TALL_TOWERS!r}), 'Tall towers.')")
        wait_redraw(nb, PROJ, before)
        # in sight first: JupyterLab does not lay out cells scrolled far away
        page.evaluate("(sel) => document.querySelector(sel).scrollIntoView({block: 'start'})",
                      f"{PROJ} .tavrei-status")
        page.wait_for_function("(sel) => document.querySelector(sel)"
                               ".getBoundingClientRect().width > 0",
                               arg=f"{PROJ} .tavrei-board-widget svg")
        sizes = letter_sizes(nb, PROJ)
        ink = page.evaluate("""(sel) => Array.from(document.querySelectorAll(
            sel + ' .tavrei-board-widget svg .layer text')).map(
            t => t.getBoundingClientRect().height)""", PROJ)
        assert sizes and min(sizes) >= 14, sizes
        print(f"\nprojector strip letters: {len(sizes)} letters, font size min "
              f"{min(sizes):.1f} CSS px (box height min {min(ink):.1f} px)")
        nb.execute("proj.set_game(Game('gavrilov-die-8x8', seed=5), 'Die game.')")
        page.wait_for_selector(f"{PROJ} .tavrei-board-widget svg .die.pending")
        # the teacher scrolls the board to the top of the screen, then rolls
        page.evaluate("(sel) => document.querySelector(sel).scrollIntoView({block: 'start'})",
                      f"{PROJ} .tavrei-status")
        roll = page.locator(f"{PROJ} button", has_text="Roll the die").first
        box = roll.bounding_box()
        assert box is not None and box["y"] + box["height"] <= 720, "Roll is out of sight"
        before = version(nb, PROJ)
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        wait_redraw(nb, PROJ, before)
        parts = {"status": f"{PROJ} .tavrei-status",
                 "board": f"{PROJ} .tavrei-board-widget svg",
                 "die": f"{PROJ} .tavrei-board-widget svg .die"}
        for name, selector in parts.items():
            box = box_of(nb, selector)
            print(f"projector {name}: x {box['x']:.0f}-{box['x'] + box['width']:.0f}, "
                  f"y {box['y']:.0f}-{box['y'] + box['height']:.0f}")
            assert box["x"] >= 0 and box["x"] + box["width"] <= 1280, (name, box)
            assert box["y"] >= 0 and box["y"] + box["height"] <= 720, (name, box)
        screenshot(page, "15-projector-1280x720")
    finally:
        page.set_viewport_size({"width": 1400, "height": 1000})


def test_default_board_letters(notebook: Notebook) -> None:
    nb = notebook
    before = version(nb, MAIN)
    nb.execute(f"board.set_game(Game('tavreli', {TALL_TOWERS!r}), 'Tall towers.')")
    wait_redraw(nb, MAIN, before)
    sizes = letter_sizes(nb, MAIN)
    print(f"\ndefault board strip letters: min {min(sizes):.1f} CSS px")
    assert min(sizes) >= 12
    screenshot(nb.page, "16-default-tall-towers")


def test_a_puzzle_solved_by_a_drag_after_a_wrong_move_is_taken_back(notebook: Notebook) -> None:
    """The lesson's puzzle widget on the board: a wrong drag bounces, the right one solves it;
    at 1280x720 the verdict shows over the board, in sight."""
    nb = notebook
    app = ".puzzle-app"
    assert nb.execute("print(puzzle.exercise.solutions())").strip() == "['e4xd5']"
    start = nb.execute("print(puzzle.board.game.action_texts())").strip()
    nb.page.set_viewport_size({"width": 1280, "height": 720})
    try:
        _puzzle_at_1280x720(nb, app, start)
    finally:
        nb.page.set_viewport_size({"width": 1400, "height": 1000})


def _puzzle_at_1280x720(nb: Notebook, app: str, start: str) -> None:
    nb.page.evaluate("(sel) => document.querySelector(sel).scrollIntoView({block: 'start'})",
                     f"{app} .tavrei-board-widget")
    mouse_drag(nb, app, '.tower[data-square="a2"]', "a3")        # legal, but not the answer
    el = board_el(nb, app)
    assert el.get_attribute("data-flashed") == "a3"
    assert el.get_attribute("data-slid") == "a3-a2"             # the tower slides home
    expect(nb.page.locator(f"{app} .tavrei-status")).to_contain_text("taken back")
    assert nb.execute("print(puzzle.board.game.action_texts())").strip() == start
    assert nb.execute("print(puzzle.solved)").strip() == "False"
    height = nb.page.viewport_size["height"]
    verdict_banner(nb.page, app, "wrong", height)       # over the board, in sight
    screenshot(nb.page, "17-puzzle-wrong-move")
    mouse_drag(nb, app, '.tower[data-square="e4"]', "d5")
    assert nb.execute("print(puzzle.solved)").strip() == "True"
    assert drawn(nb, app, "lastmove") == {"e4", "d5"}
    verdict_banner(nb.page, app, "right", height)
    screenshot(nb.page, "18-puzzle-solved")


def test_the_computer_s_reply_slides_in_unless_animations_are_off(notebook: Notebook) -> None:
    nb = notebook
    reset(nb, "board", MAIN)
    nb.execute("board.black_player.value = 'random'")
    try:
        click_square(nb, MAIN, "e2")
        mouse_drag(nb, MAIN, '.tower[data-square="e2"]', "e4")
        state = nb.state("board")
        reply = state["history"][-1].replace("x", "-").split("-")
        assert len(state["history"]) == 2
        assert board_el(nb, MAIN).get_attribute("data-slid") == f"{reply[0][:2]}-{reply[-1][:2]}"
        click_button(nb, MAIN, "Undo")                        # e2-e4 slides home
        assert board_el(nb, MAIN).get_attribute("data-slid") == "e4-e2"
        nb.page.locator(f"{MAIN} .widget-checkbox", has_text="animate moves").locator(
            "input").uncheck()
        assert nb.execute("print(board.view.animations)").strip() == "False"
        nb.page.evaluate("(sel) => { delete document.querySelector(sel).dataset.slid; }",
                         f"{MAIN} .tavrei-board-widget")
        click_button(nb, MAIN, "Redo")
        assert board_el(nb, MAIN).get_attribute("data-slid") is None   # nothing moved
    finally:
        nb.execute("board.black_player.value = 'human'; board.animate_toggle.value = True")


def test_a_drawing_arriving_mid_drag_does_not_drop_the_tower(notebook: Notebook) -> None:
    """A teacher's mark (a new drawing) while a tower is in the air: the drag goes on."""
    nb = notebook
    reset(nb, "board", MAIN)
    page = nb.page
    x1, y1 = centre(nb, MAIN, '.tower[data-square="g1"]')
    x2, y2 = centre(nb, MAIN, '.square[data-square="f3"]')
    page.mouse.move(x1, y1)
    page.mouse.down()
    page.mouse.move((x1 + x2) / 2, (y1 + y2) / 2, steps=4)
    assert board_el(nb, MAIN).get_attribute("data-dragging") == "g1:1"
    before = version(nb, MAIN)
    nb.execute("board.highlights = ['e4']")
    wait_redraw(nb, MAIN, before)
    assert page.locator(f"{MAIN} .drag-ghost").count() == 1      # still in the air
    before = version(nb, MAIN)
    page.mouse.move(x2, y2, steps=4)
    page.mouse.up()
    wait_redraw(nb, MAIN, before)
    assert nb.state("board")["history"] == ["g1-f3"]
    nb.execute("board.highlights = []")


def test_a_press_on_the_board_skips_the_die_s_tumble(notebook: Notebook) -> None:
    """The die tumbles after a roll; any press on the board ends it at once.

    The tumble (420 ms) is paused the moment it starts (the page's
    ``Element.animate`` is wrapped for the roll), so the press always lands
    during it however slow the machine -- pausing it only after the roll's
    redraw lost the race on a loaded machine, where the whole tumble could end
    first. It must then be finished by the press alone, without a click
    reaching the kernel (the press was on the die).
    """
    nb = notebook
    reset(nb, "die", DIE, variant="'gavrilov-die'", seed="3")
    nb.page.evaluate("""() => {
      const animate = Element.prototype.animate;
      window.__tavreiAnimate = animate;
      Element.prototype.animate = function (...args) {
        const anim = animate.apply(this, args);
        if (this.matches('g.die')) anim.pause();
        return anim;
      };
    }""")
    try:
        click_button(nb, DIE, "Roll the die")
    finally:
        nb.page.evaluate("""() => {
          Element.prototype.animate = window.__tavreiAnimate;
          delete window.__tavreiAnimate;
        }""")
    die = f"{DIE} .tavrei-board-widget svg g.die.current"
    running = nb.page.evaluate("""(sel) => {
      const die = document.querySelector(sel);
      return die ? die.getAnimations().filter(a => a.playState === 'paused').length : 0;
    }""", die)
    assert running == 1, "the roll started no tumble to skip"
    before = version(nb, DIE)
    box = box_of(nb, die)
    nb.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    nb.page.mouse.down()
    nb.page.mouse.up()
    left = nb.page.evaluate("""(sel) => {
      const die = document.querySelector(sel);
      return {anims: die.getAnimations().length, transform: getComputedStyle(die).transform};
    }""", die)
    assert left["anims"] == 0, "the press did not end the tumble"
    assert left["transform"] in ("none", "matrix(1, 0, 0, 1, 0, 0)"), left
    nb.execute("pass")   # a round trip: a click the press had sent is answered before it
    assert version(nb, DIE) == before, "a press on the die sent a click to the kernel"


def layer_boxes(nb: Notebook, app: str, square: str) -> list[dict[str, Any]]:
    """Each layer of the tower on ``square`` as drawn: its box in CSS px, letter size, stripe."""
    return list(nb.page.evaluate("""([sel, square]) => {
      const svg = document.querySelector(sel + ' .tavrei-board-widget svg');
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      return Array.from(svg.querySelectorAll(`g.layer[data-square="${square}"]`)).map(g => {
        const r = g.querySelector('rect').getBoundingClientRect();
        const t = g.querySelector('text');
        return {layer: Number(g.dataset.layer), x: r.x, y: r.y, w: r.width, h: r.height,
                column: g.querySelector('rect').getAttribute('x'),
                stripe: g.classList.contains('stripe'),
                letter: t ? Number(t.getAttribute('font-size')) * scale : 0};
      });
    }""", [app, square]))


@pytest.mark.parametrize("app, board, letter", [(MAIN, "board", 12), (PROJ, "proj", 14)])
def test_every_layer_of_a_tall_tower_can_be_told_apart(notebook: Notebook, app: str,
                                                        board: str, letter: int) -> None:
    """A tower of 10 and one of 16: lettered top layers, then stripes one can count."""
    nb = notebook
    tower = "(" + "".join("P:K" if i % 2 == 0 else "p:K" for i in range(15)) + "k)"
    before = version(nb, app)
    nb.execute(f"{board}.set_game(Game('tavreli', {TALL_TOWERS!r}), 'Tall towers.')")
    wait_redraw(nb, app, before)
    nb.page.evaluate("(sel) => document.querySelector(sel).scrollIntoView({block: 'start'})",
                     f"{app} .tavrei-status")
    for square, height in (("d4", 10), ("e5", 16)):
        if square == "e5":
            before = version(nb, app)
            nb.execute(f"{board}.set_position('4v3/8/8/4{tower}3/8/8/8/4V3 w - 0 1')")
            wait_redraw(nb, app, before)
        layers = layer_boxes(nb, app, square)
        assert sorted(la["layer"] for la in layers) == list(range(height))
        lettered = [la for la in layers if la["letter"]]
        assert len(lettered) >= (2 if height <= 12 else 1)
        assert min(la["letter"] for la in lettered) >= letter - 1e-6
        stripes = [la for la in layers if la["stripe"]]
        assert len(stripes) == height - len(lettered)
        columns: dict[str, list[dict[str, Any]]] = {}
        for la in stripes:
            columns.setdefault(la["column"], []).append(la)
        for column in columns.values():
            column.sort(key=lambda la: la["layer"])
            # bottom to top within a column, each stripe at least 3.6 px apart, with
            # the square showing between (a gap): they can be counted
            for low, high in zip(column, column[1:]):
                assert high["y"] < low["y"]
                assert low["y"] - high["y"] >= 3.6 - 0.05, (low, high)
                assert low["y"] - (high["y"] + high["h"]) > 0.3, (low, high)
            assert min(la["w"] for la in column) >= 5, column
        assert len(columns) <= 2
        print(f"\n{board}: tower of {height}: {len(lettered)} letters "
              f"(min {min(la['letter'] for la in lettered):.1f} px), {len(stripes)} stripes in "
              f"{len(columns)} columns, stripe height min {min(la['h'] for la in stripes):.1f} px")
    screenshot(nb.page, f"19-tall-towers-{board}")


def test_the_legend_names_only_the_kinds_that_can_occur(notebook: Notebook) -> None:
    nb = notebook
    legend = nb.page.locator(f"{MAIN} .tavrei-inspector .insp-legend")
    reset(nb, "board", MAIN)
    expect(legend).to_contain_text("helgi (хелги)")
    reset(nb, "board", MAIN, variant="'orthodox'")
    expect(legend).not_to_contain_text(re.compile("helgi", re.I))   # the legend has redrawn
    text = legend.inner_text()
    assert "queen" in text and "amazon" not in text.lower()
    reset(nb, "board", MAIN)
    expect(legend).to_contain_text("helgi (хелги)")


def test_projector_with_the_file_browser_open_keeps_the_move_list_beside_the_board(
        notebook: Notebook) -> None:
    """At 1280x720 with JupyterLab's file browser open, the room is too narrow for board,
    inspector and side column in a row: the inspector goes under the board, and the
    move list, the die and Roll stay beside it (they wrapped under the board before)."""
    nb = notebook
    page = nb.page
    page.set_viewport_size({"width": 1280, "height": 720})
    page.evaluate("() => window.jupyterapp.commands.execute('filebrowser:activate')")
    try:
        page.wait_for_function("() => !window.jupyterapp.shell.leftCollapsed")
        before = version(nb, PROJ)
        nb.execute("proj.set_game(Game('gavrilov-die-8x8', seed=5), 'Die game.')")
        wait_redraw(nb, PROJ, before)
        page.evaluate("(sel) => document.querySelector(sel).scrollIntoView({block: 'start'})",
                      f"{PROJ} .tavrei-status")
        settle(page, [f"{PROJ} .tavrei-board-widget svg", f"{PROJ} .tavrei-moves",
                      f"{PROJ} .tavrei-roll", f"{PROJ} .tavrei-inspector"])
        board = box_of(nb, f"{PROJ} .tavrei-board-widget svg")
        moves = box_of(nb, f"{PROJ} .tavrei-moves")
        roll = box_of(nb, f"{PROJ} .tavrei-roll")
        inspector = box_of(nb, f"{PROJ} .tavrei-inspector")
        files = box_of(nb, ".jp-FileBrowser")
        print(f"\nfile browser x {files['x']:.0f}-{files['x'] + files['width']:.0f}; board x "
              f"{board['x']:.0f}-{board['x'] + board['width']:.0f}; move list x {moves['x']:.0f}"
              f", y {moves['y']:.0f}; inspector y {inspector['y']:.0f}")
        assert files["width"] > 150, "the file browser is not open: the test proves nothing"
        assert moves["x"] >= board["x"] + board["width"], "the move list is not beside the board"
        assert moves["y"] < board["y"] + board["height"]
        assert roll["x"] >= board["x"] + board["width"]
        assert roll["y"] + roll["height"] <= 720 and board["y"] + board["height"] <= 720
        assert board["width"] >= PROJECTOR_SIZE - 1, "the board shrank"
        assert inspector["y"] >= board["y"] + board["height"], "the inspector stayed beside"
        # the inspector under the board went under the Undo row too (it pushed the row
        # out of sight, 95308c1's failure)
        undo = assert_undo_row_shown(nb, board)
        assert inspector["y"] >= undo["y"] + undo["height"] - 1
        screenshot(page, "20-projector-file-browser")
    finally:
        page.evaluate("() => window.jupyterapp.commands.execute('application:toggle-left-area')")
        page.wait_for_function("() => window.jupyterapp.shell.leftCollapsed")
        page.set_viewport_size({"width": 1400, "height": 1000})


def test_a_side_line_tried_from_the_move_list_keeps_the_game(notebook: Notebook) -> None:
    """Click a move in the list, play another move there, come back to the game."""
    nb = notebook
    reset(nb, "board", MAIN, "e2-e4 e7-e5 g1-f3 b8-c6")
    option = nb.page.locator(f"{MAIN} .tavrei-moves select option").nth(2)   # 1... e7-e5
    before = version(nb, MAIN)
    option.click()
    wait_redraw(nb, MAIN, before)
    assert nb.state("board")["history"] == ["e2-e4", "e7-e5"]
    assert drawn(nb, MAIN, "lastmove") == {"e7", "e5"}
    click_square(nb, MAIN, "d2")
    click_square(nb, MAIN, "d4")
    assert nb.state("board")["history"] == ["e2-e4", "e7-e5", "d2-d4"]
    back = nb.page.locator(f"{MAIN} button", has_text="Back to the game")
    back.wait_for(state="visible")
    nb.page.wait_for_function(
        "(sel) => document.querySelector(sel).innerText.includes('\u21b3')",
        arg=f"{MAIN} .tavrei-moves select", timeout=10000)
    screenshot(nb.page, "21-side-line")
    click_button(nb, MAIN, "Back to the game")
    assert nb.state("board")["history"] == ["e2-e4", "e7-e5"]
    back.wait_for(state="hidden")
    board_el(nb, MAIN).focus()
    before = version(nb, MAIN)
    nb.page.keyboard.press("End")
    wait_redraw(nb, MAIN, before)
    assert nb.state("board")["history"] == ["e2-e4", "e7-e5", "g1-f3", "b8-c6"]


def test_best_move_button_shows_the_engine_s_arrow(notebook: Notebook) -> None:
    nb = notebook
    reset(nb, "board", MAIN, "e2-e4 e7-e5")
    click_button(nb, MAIN, "Best move")
    arrows = nb.page.locator(f"{MAIN} .tavrei-board-widget svg g.arrow")
    assert arrows.count() == 1
    status = status_text(nb, MAIN)
    assert "Engine (play): 2. " in status and "is best" in status, status
    assert nb.state("board")["history"] == ["e2-e4", "e7-e5"]       # nothing played
    screenshot(nb.page, "22-best-move")
    mouse_drag(nb, MAIN, '.tower[data-square="g1"]', "f3")
    assert arrows.count() == 0                                        # gone with its position


@pytest.mark.parametrize("width, height", [(1280, 720), (1400, 1000)])
def test_the_projector_board_grows_to_the_room_with_the_inspector_beside(
        notebook: Notebook, width: int, height: int) -> None:
    """A fixed 515 px projector board left 220 px to spare at 1400x1000, wrapped its
    inspector under it at 1280x720 and put its Undo row under JupyterLab's status
    bar. So it grows
    to the width beside its columns and to the screen's height, the inspector beside
    it lists every layer of the tower under the pointer, and Board size scales it."""
    nb = notebook
    page = nb.page
    page.evaluate("() => { if (!window.jupyterapp.shell.leftCollapsed) "
                  "window.jupyterapp.commands.execute('application:toggle-left-area'); }")
    page.wait_for_function("() => window.jupyterapp.shell.leftCollapsed")
    page.set_viewport_size({"width": width, "height": height})
    try:
        before = version(nb, PROJ)
        nb.execute(f"proj.set_game(Game('tavreli', {TALL_TOWERS!r}), 'Tall towers.')")
        wait_redraw(nb, PROJ, before)
        page.evaluate("(sel) => document.querySelector(sel).scrollIntoView({block: 'start'})",
                      f"{PROJ} .tavrei-status")
        settle(page, [f"{PROJ} .tavrei-board-widget svg", f"{PROJ} .tavrei-moves"])
        board = box_of(nb, f"{PROJ} .tavrei-board-widget svg")
        moves = box_of(nb, f"{PROJ} .tavrei-moves")
        page.hover(f'{PROJ} .tavrei-board-widget .tower[data-square="d4"]')   # a tower of 10
        page.wait_for_selector(f'{PROJ} .tavrei-inspector[data-square="d4"]', timeout=5000)
        inspector = box_of(nb, f"{PROJ} .tavrei-inspector")
        rows = page.locator(f"{PROJ} .tavrei-inspector .insp-row")
        print(f"\nprojector at {width}x{height}: board x {board['x']:.0f}-"
              f"{board['x'] + board['width']:.0f}, y {board['y']:.0f}-"
              f"{board['y'] + board['height']:.0f} ({board['width']:.0f} px wide); inspector x "
              f"{inspector['x']:.0f}-{inspector['x'] + inspector['width']:.0f}; move list x "
              f"{moves['x']:.0f}", end="")
        assert board["width"] >= PROJECTOR_SIZE - 1
        assert_undo_row_shown(nb, board)
        if height >= 1000:
            assert board["width"] >= 515 + 150, "the board did not grow into the room"
        assert board["y"] + board["height"] <= height, "the board runs off the screen"
        assert inspector["x"] >= board["x"] + board["width"], "the inspector is not beside"
        assert inspector["y"] < board["y"] + board["height"]
        assert inspector["x"] + inspector["width"] <= width
        assert moves["x"] >= inspector["x"] + inspector["width"] - 1
        assert moves["x"] + moves["width"] <= width
        assert rows.count() == 10                      # every layer of the tower, named
        for i in range(10):
            row = rows.nth(i).bounding_box()
            assert row is not None and row["y"] >= 0 and row["y"] + row["height"] <= height, i
        screenshot(page, f"33-projector-grows-{width}x{height}")
        # the size control: 70 per cent of the room
        nb.execute("proj.size_slider.value = 70")
        page.wait_for_function("([sel, w]) => Math.abs(document.querySelector(sel)"
                               ".getBoundingClientRect().width - w) < 3",
                               arg=[f"{PROJ} .tavrei-board-widget svg",
                                    int(board["width"] * 0.7)], timeout=10000)
    finally:
        nb.execute("proj.size_slider.value = 100")
        page.set_viewport_size({"width": 1400, "height": 1000})


def test_a_russian_board_in_jupyterlab_shows_no_english_word(notebook: Notebook) -> None:
    """In JupyterLab at 1280x720: the same check as in Voila
    (tests/browser/test_russian_board_browser.py) on a board beside English ones."""
    nb = notebook
    page = nb.page
    app = ".ru-board"
    page.set_viewport_size({"width": 1280, "height": 720})
    try:
        reset(nb, "ru_board", app, "e2-e4 d7-d5 e4xd5 d8xd5")
        page.evaluate("(sel) => document.querySelector(sel).scrollIntoView({block: 'start'})",
                      f"{app} .tavrei-status")
        page.hover(f'{app} .tavrei-board-widget .tower[data-square="d5"]')
        page.wait_for_selector(f'{app} .tavrei-inspector[data-square="d5"]', timeout=5000)
        click_square(nb, app, "c2")
        assert "Выбрано: ратник на c2" in status_text(nb, app)
        click_square(nb, app, "c5")
        assert "Так ходить нельзя" in status_text(nb, app)
        shown = page.evaluate(SHOWN, f"{app}.tavrei-board-app")
        left = set(re.findall(r"[a-z]{3,}", shown.lower())) & english_words()
        assert not left, (sorted(left), shown)
        assert "Ход белых." in status_text(nb, app)
        assert_status_fits(page, f"{app} .tavrei-status")
        screenshot(page, "35-lab-russian-board-1280x720")
    finally:
        page.set_viewport_size({"width": 1400, "height": 1000})


def test_arrows_and_circles_go_with_the_old_position(notebook: Notebook) -> None:
    """A user's arrows and circles (right button) and a teacher's (``board.arrows``)
    do not survive New game and Set position."""
    nb = notebook
    page = nb.page
    user = page.locator(f"{MAIN} .tavrei-board-widget .user-shape")
    teacher = page.locator(f"{MAIN} .tavrei-board-widget svg g.arrow")
    for how in ("New game", "Set position"):
        reset(nb, "board", MAIN, "e2-e4")
        mouse_drag(nb, MAIN, '.square[data-square="g8"]', "f6", button="right", wait=False)
        mouse_drag(nb, MAIN, '.square[data-square="d5"]', "d5", button="right", wait=False)
        page.wait_for_function("(sel) => document.querySelectorAll(sel).length === 2",
                               arg=f"{MAIN} .tavrei-board-widget .user-shape")
        before = version(nb, MAIN)
        nb.execute("board.arrows = [('b8', 'c6', 'red')]")
        wait_redraw(nb, MAIN, before)
        assert teacher.count() == 1 and user.count() == 2, "the test proves nothing"
        if how == "Set position":
            nb.execute("board.position_text.value = '4v3/8/8/8/8/8/8/R3V3 w - 0 1'")
        click_button(nb, MAIN, how)
        page.wait_for_function("(sel) => document.querySelectorAll(sel).length === 0",
                               arg=f"{MAIN} .tavrei-board-widget .user-shape", timeout=5000)
        assert teacher.count() == 0, f"the teacher's arrow survived {how}"
        assert nb.execute("print(board.arrows, board.view.drawn)").split() == ["[]", "[]"]
        if how == "Set position":
            assert nb.state("board")["position"].startswith("4v3/8/8/8/8/8/8/R3V3")


#: The move the status says was played is the move list's last line (no-break spaces
#: read as spaces).
SAME_MOVE = """(app) => {
  const status = document.querySelector(app + " .tavrei-status");
  const options = document.querySelectorAll(app + " .tavrei-moves select option");
  if (!status || !options.length) return false;
  const played = status.innerText.match(/(\\d+\\.+ \\S+) played/);
  const last = options[options.length - 1].innerText.replace(/\\u00a0/g, " ").trim();
  return !!played && played[1] === last;
}"""


def test_the_status_says_the_move_as_the_move_list_writes_it(notebook: Notebook) -> None:
    """A rook's check is written the same in the status and the move list (not
    "a1-a8+" in one and "a1-a8" in the other); the check is the state's part of the
    status ("check")."""
    nb = notebook
    before = version(nb, MAIN)
    nb.execute("board.set_position('4v3/8/8/8/8/8/8/R3V3 w - 0 1')")
    wait_redraw(nb, MAIN, before)
    assert nb.execute("print(board.game.san(board.game.parse_move('a1-a8')))").strip() \
        == "a1-a8+", "not a check: the test proves nothing"
    click_square(nb, MAIN, "a1")
    click_square(nb, MAIN, "a8")
    # the board redraws first, then the status and the move list, each in its own
    # message: wait until both show the move, then compare how they write it (at load
    # 4-13 the list still read 'start' while the status said "1. a1-a8 played")
    expect(nb.page.locator(f"{MAIN} .tavrei-status")).to_contain_text("played")
    try:
        nb.page.wait_for_function(SAME_MOVE, arg=MAIN, timeout=20000)
    except PlaywrightTimeout:
        pass             # they never agreed: the assertions below say how they differ
    status = status_text(nb, MAIN)
    listed = nb.page.locator(f"{MAIN} .tavrei-moves select option").last.inner_text()
    listed = listed.replace("\xa0", " ").strip()          # the list pads with no-break spaces
    played = re.search(r"(\d+\.+ \S+) played", status)
    print(f"\nstatus {status!r}; move list {listed!r}")
    assert played, status
    assert played.group(1) == listed == "1. a1-a8", (status, listed)
    assert "+" not in status.split("played")[0]
    assert "check" in status.lower()


#: WCAG's contrast ratio of every piece of text inside ``sel`` against the colour
#: behind it (the first opaque background up the tree, translucent ones blended in).
CONTRASTS = """(sel) => {
  const rgba = (c) => { const m = c.match(/[\\d.]+/g).map(Number);
                        return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; };
  const lum = ([r, g, b]) => { const f = (v) => { v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const behind = (node) => { const layers = [];
    for (let n = node; n; n = n.parentElement) {
      const c = rgba(getComputedStyle(n).backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] >= 1) break;
    }
    let out = [255, 255, 255];
    for (const [r, g, b, a] of layers.reverse())
      out = [r * a + out[0] * (1 - a), g * a + out[1] * (1 - a), b * a + out[2] * (1 - a)];
    return out; };
  const out = [];
  for (const root of document.querySelectorAll(sel)) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      const node = t.parentElement;
      if (!t.textContent.trim() || !node.getClientRects().length) continue;
      if (node.closest('svg')) continue;                 // pictures, not text
      const fg = rgba(getComputedStyle(node).color), bg = behind(node);
      const ink = [0, 1, 2].map(i => fg[i] * fg[3] + bg[i] * (1 - fg[3]));
      const [hi, lo] = [lum(ink), lum(bg)].sort((a, b) => b - a);
      out.push({text: t.textContent.trim().slice(0, 40), cls: String(node.className),
                where: node.closest('.tavrei-status') ? 'status' : 'inspector',
                ratio: (hi + 0.05) / (lo + 0.05), color: getComputedStyle(node).color});
    }
  }
  return out;
}"""


#: The dark theme's style sheet reaches the board: the first opaque background behind
#: the element (the status line) is dark.
DARK_APPLIED = """(sel) => {
  for (let n = document.querySelector(sel); n; n = n.parentElement) {
    const m = getComputedStyle(n).backgroundColor.match(/[\\d.]+/g);
    if (m && (m.length < 4 || Number(m[3]) > 0))
      return Number(m[0]) + Number(m[1]) + Number(m[2]) < 3 * 128;
  }
  return false;
}"""


def test_dark_theme_text_is_readable(notebook: Notebook) -> None:
    """In JupyterLab's dark theme the inspector must not be white text on cream. Every
    text of the inspector (rows, head, legend) and of the status line
    has a WCAG contrast ratio of at least 4.5 against what is behind it."""
    nb = notebook
    page = nb.page
    reset(nb, "board", MAIN, "e2-e4 d7-d5 e4xd5 a7-a6")
    page.evaluate("() => window.jupyterapp.commands.execute('apputils:change-theme', "
                  "{theme: 'JupyterLab Dark'})")
    try:
        page.wait_for_function("() => document.body.dataset.jpThemeLight === 'false'",
                               timeout=20000)
        page.wait_for_function(DARK_APPLIED, arg=f"{MAIN} .tavrei-status", timeout=20000)
        x, y = centre(nb, MAIN, '.tower[data-square="d5"] use')
        page.mouse.move(x, y)
        page.wait_for_selector(f'{MAIN} .tavrei-inspector[data-square="d5"]')
        click_square(nb, MAIN, "d5")               # a selection's message in the status
        seen = page.evaluate(CONTRASTS, f"{MAIN} .tavrei-inspector, {MAIN} .tavrei-status")
        screenshot(page, "36-dark-theme")
        kinds = {s["cls"].split()[0] if s["cls"] else "" for s in seen}
        print(f"\ndark theme: {len(seen)} texts, contrast min "
              f"{min(s['ratio'] for s in seen):.2f}; parts {sorted(kinds)}")
        assert {"insp-name", "insp-legend-row"} <= kinds, kinds   # rows and legend measured
        assert any(s["where"] == "status" for s in seen), "the status was not measured"
        low = [s for s in seen if s["ratio"] < 4.5]
        assert not low, low
    finally:
        page.evaluate("() => window.jupyterapp.commands.execute('apputils:change-theme', "
                      "{theme: 'JupyterLab Light'})")
        page.wait_for_function("() => document.body.dataset.jpThemeLight === 'true'",
                               timeout=20000)


def wait_output(nb: Notebook, code: str, wanted: str, timeout: float = 15.0) -> str:
    """Run ``code`` until its last output line is ``wanted`` (the page links widgets on
    its own time); the last output seen is returned for the failure message."""
    deadline = time.monotonic() + timeout
    out = ""
    while time.monotonic() < deadline:
        out = nb.execute(code).strip().splitlines()[-1]
        if out == wanted:
            break
    return out


def test_jslink_links_the_board_ply_with_a_slider_in_the_page(notebook: Notebook) -> None:
    """``jslink`` joins the two widgets in the browser: a move played by a click moves
    the slider there (and the slider's value comes back to Python); a slider value
    sent to the page moves the board back to that ply."""
    nb = notebook
    reset(nb, "board", MAIN)
    nb.execute("import ipywidgets as _w\n_slider = _w.IntSlider(max=50)\n"
               "_link = _w.jslink((board, 'ply'), (_slider, 'value'))")
    click_square(nb, MAIN, "e2")
    click_square(nb, MAIN, "e4")
    assert wait_output(nb, "print(_slider.value)", "1") == "1"
    before = version(nb, MAIN)
    nb.execute("_slider.value = 0")
    wait_redraw(nb, MAIN, before)
    assert wait_output(nb, "print(board.game.ply, board.ply)", "0 0") == "0 0"
    assert nb.state("board")["history"] == []
