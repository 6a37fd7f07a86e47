"""Helpers shared by the browser tests: screenshots, and Python run in the page's kernel."""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tavrei_lab.i18n import catalogue
from tests.processes import stop_tree

HERE = Path(__file__).resolve().parent
NOTEBOOKS = HERE / "notebooks"
ARTIFACTS = HERE.parents[1] / "test-artifacts" / "browser"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_http(url: str, process: subprocess.Popen[bytes], log: Path,
                  timeout: float = 60.0) -> None:
    """Poll ``url`` until it answers; fail at once if the server process died."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}:\n"
                               f"{log.read_text(errors='replace')[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"server did not answer {url} in {timeout} s:\n"
                       f"{log.read_text(errors='replace')[-3000:]}")


def stop(process: subprocess.Popen[bytes]) -> None:
    """Stop a server and every kernel it started (they run in sessions of their own)."""
    stop_tree(process)


def private_jupyter_env(root: Path) -> dict[str, str]:
    """Environment with every Jupyter directory under ``root`` and the news toast off."""
    env = dict(os.environ)
    dirs = {"JUPYTER_CONFIG_DIR": "config", "JUPYTER_DATA_DIR": "data",
            "JUPYTER_RUNTIME_DIR": "runtime", "JUPYTERLAB_SETTINGS_DIR": "settings",
            "JUPYTERLAB_WORKSPACES_DIR": "workspaces", "IPYTHONDIR": "ipython"}
    for var, name in dirs.items():
        (root / name).mkdir(parents=True, exist_ok=True)
        env[var] = str(root / name)
    # The "Jupyter news" toast ignores --LabApp.news_url=None; this setting stops it.
    notify = root / "settings" / "@jupyterlab" / "apputils-extension"
    notify.mkdir(parents=True, exist_ok=True)
    (notify / "notification.jupyterlab-settings").write_text(json.dumps(
        {"fetchNews": "false", "checkForUpdates": False, "doNotDisturbMode": True}))
    env.pop("JUPYTER_TOKEN", None)
    env["PYTHONUNBUFFERED"] = "1"
    # the kernels import the package of this checkout (a worktree beside an editable
    # install of another one tests its own code, not the install's)
    checkout = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (checkout, env.get("PYTHONPATH")) if p)
    return env


@contextmanager
def jupyter_server(root: Path, *args: str, cwd: Path, app: str = "jupyterlab",
                   log_name: str = "lab.log") -> Iterator[dict[str, Any]]:
    """A private Jupyter server (``app``: JupyterLab, or Notebook 7 as "notebook") on
    127.0.0.1: a free port and no retries, a token, the app exposed in the page
    (``window.jupyterapp``), every Jupyter directory under ``root``; ``args`` say what
    it serves (``--ServerApp.root_dir=...`` or a notebook's path) and how; ``cwd`` is
    where it starts. Yields ``{"url", "token", "log"}``; the server is stopped after."""
    expose = "JupyterNotebookApp" if app == "notebook" else "LabApp"
    port = free_port()
    token = secrets.token_hex(16)
    log = root / log_name
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", app, "--no-browser", "--allow-root",
             "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}",
             "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}",
             f"--{expose}.expose_app_in_browser=True", *args],
            cwd=cwd, env=private_jupyter_env(root), stdout=out, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_for_http(f"{base}/api/status?token={token}", process, log)
        yield {"url": base, "token": token, "log": log}
    finally:
        stop(process)


@contextmanager
def browser_page(browser: Any, viewport: dict[str, int], **options: Any) -> Iterator[Any]:
    """A page of its own (a new browser context: cookies, storage, touch) with
    ``viewport``; closed after, whatever happened."""
    context = browser.new_context(viewport=viewport, **options)
    try:
        yield context.new_page()
    finally:
        context.close()


#: The page holds a JupyterLab (or Notebook 7) document whose session exists.
SESSION = ("() => window.jupyterapp && window.jupyterapp.shell.currentWidget"
           " && window.jupyterapp.shell.currentWidget.sessionContext")


def open_and_run(page: Any, url: str) -> None:
    """Open a notebook's page in JupyterLab and run all its cells once its kernel is
    really ready (``RUN_ALL``)."""
    page.goto(url)
    page.wait_for_function(SESSION, timeout=60000)
    assert page.evaluate(RUN_ALL), "the kernel never became ready"


def lab_url(lab: dict[str, Any], notebook: str) -> str:
    """The JupyterLab page of ``notebook`` in the server ``lab``, its layout reset."""
    return f"{lab['url']}/lab/tree/{notebook}?token={lab['token']}&reset"


def board_version(page: Any, board: str = ".tavrei-board-widget") -> int:
    return int(page.locator(board).first.get_attribute("data-version") or 0)


def wait_board_redraw(page: Any, before: int, board: str = ".tavrei-board-widget",
                      timeout: float = 10000) -> None:
    page.wait_for_function("([sel, v]) => Number(document.querySelector(sel)"
                           ".dataset.version) > v", arg=[board, before], timeout=timeout)


def click_centre(page: Any, selector: str, board: str = ".tavrei-board-widget") -> None:
    """Click the mouse at the centre of ``selector`` and wait for ``board`` to redraw."""
    before = board_version(page, board)
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    wait_board_redraw(page, before, board)


HITS = """([x, y, sel]) => {
  // the point lands on the wanted element's square, in the wanted board
  const e = document.elementFromPoint(x, y);
  const wanted = document.querySelector(sel);
  if (!e || !wanted) return false;
  const board = wanted.closest('.tavrei-board-widget');
  const hit = e.closest('[data-square]');
  const square = wanted.closest('[data-square]').getAttribute('data-square');
  return !!hit && board.contains(hit) && hit.getAttribute('data-square') === square;
}"""


def steady_centre(page: Any, selector: str) -> tuple[float, float]:
    """The centre of an element of a board's drawing, once it holds still under the mouse.

    JupyterLab and Notebook 7 lay out cells as they scroll into view, so a board
    scrolled back to can still move for a moment; a point read then could miss
    its target. The point counts once it is the same twice and really hits the
    element's square on the element's own board.
    """
    target = page.locator(selector).first
    previous = None
    for _ in range(100):
        target.scroll_into_view_if_needed()
        box = target.bounding_box()
        assert box is not None, selector
        point = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        if point == previous and page.evaluate(HITS, [*point, selector]):
            return point
        previous = point
        page.wait_for_timeout(100)
    raise AssertionError(f"{selector} never held still under the mouse (last {previous})")


#: Resolves once the elements of ``sels`` have held the same boxes for ``frames``
#: animation frames running, with no animation or transition running inside them.
SETTLED = """async ([sels, frames, ms]) => {
  const deadline = performance.now() + ms;
  const finite = (a) => a.playState === "running" && a.effect
      && a.effect.getComputedTiming().endTime !== Infinity;
  const look = () => sels.map((s) => {
    const e = document.querySelector(s);
    if (!e) return "none";
    const r = e.getBoundingClientRect();
    const moving = e.getAnimations({subtree: true}).filter(finite).length;
    return moving ? "moving" : [r.x, r.y, r.width, r.height].join(",");
  }).join(" ");
  let last = look(), same = 0;
  while (performance.now() < deadline) {
    await new Promise((r) => requestAnimationFrame(() => r()));
    const now = look();
    same = now === last && !now.includes("moving") ? same + 1 : 0;
    last = now;
    if (same >= frames) return true;
  }
  return last;
}"""


def settle(page: Any, selectors: list[str], frames: int = 10, timeout: float = 15000) -> None:
    """Wait until the elements of ``selectors`` hold still: the same boxes for ``frames``
    frames in a row, no animation or transition running inside them. A layout that
    follows another (a panel opened, a fit after a resize, a banner's entrance) is
    waited for as the state it reaches, never for a time that a loaded machine exceeds."""
    done = page.evaluate(SETTLED, [selectors, frames, timeout])
    assert done is True, f"{selectors} never held still; last seen {done}"


def screenshot(page: Any, name: str) -> Path:
    """Save a screenshot of the page as a test artefact."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


RUN_ALL = """async () => {
  const app = window.jupyterapp;
  const deadline = Date.now() + 60000;
  // The notebook panel and its kernel must really be ready before Run All,
  // or the command is dropped silently (TESTING.md: "Kernel readiness").
  while (Date.now() < deadline) {
    const panel = app.shell.currentWidget;
    const ctx = panel && panel.sessionContext;
    if (ctx && ctx.session && ctx.session.kernel) {
      await ctx.ready;
      if (ctx.session.kernel.status === "idle") {
        await app.commands.execute("notebook:run-all-cells");
        return true;
      }
    }
    await new Promise(r => setTimeout(r, 100));
  }
  return false;
}"""

EXECUTE = """async (code) => {
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  const future = kernel.requestExecute({ code, store_history: false });
  let out = "";
  future.onIOPub = (msg) => {
    const t = msg.header.msg_type;
    if (t === "stream") out += msg.content.text;
    if (t === "error") out += "ERROR " + msg.content.ename + ": " + msg.content.evalue;
  };
  await future.done;
  return out;
}"""


class Notebook:
    """A notebook open in JupyterLab, with helpers to run Python in its kernel."""

    def __init__(self, page: Any) -> None:
        self.page = page

    def execute(self, code: str) -> str:
        out = self.page.evaluate(EXECUTE, code)
        assert "ERROR" not in out, out
        return out

    def state(self, board: str) -> dict[str, Any]:
        """The Python-side state of ``board`` (a variable in the notebook)."""
        return json.loads(self.execute(f"state({board})").strip().splitlines()[-1])


@contextmanager
def voila_app(notebook: str, root: Path) -> Iterator[str]:
    """Serve ``NOTEBOOKS/notebook`` as a Voila app on 127.0.0.1; yields its base URL.

    Voila runs the notebook in a new kernel for every GET of "/", so readiness
    is probed on a static file, idle kernels are culled, and the server is
    stopped at the end.
    """
    work = root / "work"
    work.mkdir()
    shutil.copy(NOTEBOOKS / notebook, work)
    port = free_port()
    log = root / "voila.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "voila", notebook, "--no-browser",
             "--Voila.ip=127.0.0.1", f"--port={port}", "--Voila.port_retries=0",
             "--MappingKernelManager.cull_idle_timeout=120"],
            cwd=work, env=private_jupyter_env(root), stdout=out, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_for_http(f"{base}/voila/static/voila.js", process, log)
        yield base
    finally:
        stop(process)


def verdict_banner(page: Any, scope: str, kind: str, height: int) -> dict[str, Any]:
    """Wait for the verdict banner of ``kind`` over the board in ``scope`` and check it
    is where the class looks: inside a viewport ``height`` tall
    whenever the board's top is, large type, and green for right / red for wrong.
    Returns what was measured."""
    board = f"{scope} .tavrei-board-widget"
    page.wait_for_selector(f"{board} .tavrei-banner.shown.{kind}", timeout=10000)
    settle(page, [f"{board} .tavrei-banner"])        # its entrance (260 ms) is over
    seen = page.evaluate("""(sel) => {
      const el = document.querySelector(sel);
      const svg = el.querySelector('.tavrei-board-svg').getBoundingClientRect();
      const banner = el.querySelector('.tavrei-banner');
      const box = banner.getBoundingClientRect(), style = getComputedStyle(banner);
      return {boardTop: svg.top, boardLeft: svg.left, boardRight: svg.right,
              top: box.top, bottom: box.bottom, left: box.left, right: box.right,
              font: parseFloat(style.fontSize), background: style.backgroundColor,
              text: banner.innerText, visibility: style.visibility, display: style.display};
    }""", board)
    print(f"\nbanner {kind}: y {seen['top']:.0f}-{seen['bottom']:.0f} (board top "
          f"{seen['boardTop']:.0f}, viewport {height}), font {seen['font']:.0f}px, "
          f"{seen['background']}", end="")
    assert seen["display"] == "block" and seen["visibility"] == "visible", seen
    if 0 <= seen["boardTop"] <= height:
        assert 0 <= seen["top"] and seen["bottom"] <= height, seen
    assert seen["boardLeft"] <= seen["left"] and seen["right"] <= seen["boardRight"], seen
    assert seen["font"] >= 34, seen                  # read from the back of a room
    green, red = "rgba(27, 128, 45", "rgba(183, 28, 28"
    assert seen["background"].startswith(green if kind == "right" else red), seen
    return seen


# -- a Russian board: the words it shows ------------------------------------------------
PLACEHOLDER = re.compile(r"\{(\w*)[^{}]*\}")
#: notation and names that are not English prose: keys, agent specs, a callback's name
NOTATION = {"home", "end", "play", "alphabeta", "utf", "on_move"}

#: Everything a person reads inside the board app: its text (select options included),
#: every tooltip (title attributes, SVG <title>s), placeholders and button labels.
SHOWN = """(sel) => {
  const app = document.querySelector(sel || '.tavrei-board-app');
  const out = [app.innerText];
  for (const node of app.querySelectorAll('[title]')) out.push(node.getAttribute('title'));
  for (const node of app.querySelectorAll('title')) out.push(node.textContent);
  for (const node of app.querySelectorAll('[placeholder]'))
    out.push(node.getAttribute('placeholder'));
  for (const node of app.querySelectorAll('option')) out.push(node.textContent);
  return out.join('\\n');
}"""


def assert_status_fits(page: Any, selector: str = ".tavrei-status") -> None:
    """The status line never clips, in Russian too."""
    fits = page.evaluate("""(sel) => { const s = document.querySelector(sel);
      return [s.scrollHeight, s.clientHeight, s.innerText]; }""", selector)
    assert fits[0] <= fits[1], fits


def english_words() -> set[str]:
    words: set[str] = set()
    for msgid in catalogue("ru").messages:
        words.update(w.lower() for w in re.findall(r"[A-Za-z]{3,}", PLACEHOLDER.sub("", msgid)))
    return words - NOTATION


