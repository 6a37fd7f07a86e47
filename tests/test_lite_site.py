"""The zero-install classroom, tested the way a student meets it: offline, in a browser.

The module builds the JupyterLite site from a clean state (``scripts/build_site.py``,
the same code as ``make site``), serves it with ``python -m http.server`` on 127.0.0.1
and opens it in Debian's Chromium through Playwright with **every request that leaves
the loopback address aborted**. In that browser it runs the quick-start tutorial, a
second tutorial, the sweep notebook (whose store is an SQLite file) and the classroom
demo in the Pyodide kernel (Python 3.14 compiled to
WebAssembly), plays a move on the classroom board with two mouse clicks and one by drag
and drop and checks Python's reply on the board, runs a tournament on its default
(process pool) path to see it fall back to running in-process, and downloads the
student's notebook. Finally it asserts that no request was aborted: the site needed
nothing from outside itself. A build that finds no Python >= 3.12 fails the tests;
Chromium missing is the only reason to skip (``make test`` installs it), and under
``CI=true`` that skip fails (tests/conftest.py).

Why the browser runs in a thread of its own: Playwright's sync API refuses to start
while another sync Playwright is alive in the same thread, and the JupyterLab
browser tests (tests/browser) keep one open for the whole session. A fresh thread
has no event loop, so this module's browser can start regardless of test order.

Figures (build time, site size, time to a ready kernel, click -> redraw, drop ->
redraw) are written to ``test-artifacts/lite/metrics.json`` and printed at the end of the run;
screenshots go to the same folder.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
import zipfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.conftest import CHROMIUM

pytestmark = pytest.mark.lite

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts" / "lite"

#: The notebooks the browser runs, in order: the quick start, a numbered tutorial
#: (with a board replaying a recorded game), the sweep notebook (its games kept in
#: SQLite in the browser), and the classroom demo, whose first board (a new game) is
#: played by mouse. ``LITE_NOTEBOOKS=all`` runs every notebook of the site instead
#: of the middle ones (about 10-20 s more each).
QUICK_START = "00_quick_start.ipynb"
TUTORIAL = "08_recorded_games.ipynb"
#: The sweep notebook: its games go into an SQLite file in the browser's storage.
SWEEP = "10_which_rule_is_better.ipynb"
CLASSROOM = "classroom_demo.ipynb"
#: A Russian lesson on the offline site: its words on the page in Russian.
RUSSIAN = "ru/01_meet_the_tavrels.ipynb"

#: Run in a notebook's kernel before its cells: notebook 10 plays a handful of games
#: (as in tests/test_notebooks.py), not a classroom's sixty.
PRELUDE = {SWEEP: "import os\nos.environ['TAVREI_LAB_QUICK'] = '1'\n"}


def notebooks_to_run() -> list[str]:
    """The notebooks opened in the browser: quick start first, the classroom demo last."""
    middle = [TUTORIAL, SWEEP, RUSSIAN]
    if os.environ.get("LITE_NOTEBOOKS") == "all":
        middle = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb")
                        if p.name not in (QUICK_START, CLASSROOM))
    return [QUICK_START, *middle, CLASSROOM]


#: Chromium on a closed network: no background services that would phone home.
LAUNCH_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage",
]

#: Pyodide's first start: fetching ~30 MB from the local server, compiling the wasm,
#: unpacking wheels. 13-40 s was seen on 2 shared cores; the limit leaves room.
KERNEL_TIMEOUT_MS = 180_000
RUN_TIMEOUT_MS = 240_000


def _load_builder() -> ModuleType:
    """scripts/build_site.py as a module (scripts/ is not a package)."""
    path = ROOT / "scripts" / "build_site.py"
    spec = importlib.util.spec_from_file_location("build_site", path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("build_site", module)
    spec.loader.exec_module(module)
    return module


builder = _load_builder()
METRICS: dict[str, Any] = {}


@pytest.fixture(scope="module", autouse=True)
def report_metrics(pytestconfig: pytest.Config) -> Iterator[None]:
    """Write the figures measured in this module to disk and to the terminal."""
    yield
    if not METRICS:
        return
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "metrics.json").write_text(json.dumps(METRICS, indent=2) + "\n")
    line = "zero-install classroom figures: " + json.dumps(METRICS)
    capture = pytestconfig.pluginmanager.get_plugin("capturemanager")
    reporter = pytestconfig.pluginmanager.get_plugin("terminalreporter")
    if capture is None or reporter is None:
        print(line)
        return
    with capture.global_and_fixture_disabled():   # shown even when the tests pass
        reporter.write_line("")
        reporter.write_line(line)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The site, built from clean by the same code as ``make site``."""
    output = tmp_path_factory.mktemp("lite") / "site"
    report = builder.build_site(output, log=False)
    METRICS["clean_build_s"] = round(report.seconds, 1)
    METRICS["site_mb"] = round(report.size_bytes / 1e6, 1)
    return report


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def server(site: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``python -m http.server`` on 127.0.0.1 serving the site, as a teacher's laptop would."""
    port = _free_port()
    log = tmp_path_factory.mktemp("lite-server") / "http.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "http.server", "--bind", "127.0.0.1",
             "--directory", str(site.output), str(port)],
            stdout=out, stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"http.server exited with {process.returncode}:\n"
                                   f"{log.read_text(errors='replace')[-2000:]}")
            try:
                with urllib.request.urlopen(f"{url}/jupyter-lite.json", timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


# -- finding a Python >= 3.12 for the build ----------------------------------------------


def _fake_python(path: Path, answer: str | None) -> Path:
    """An executable that answers the finder's probe like a Python ("3 12"), or fails
    like a pyenv shim for a version that is installed but not selected."""
    path.parent.mkdir(parents=True, exist_ok=True)
    body = f'echo "{answer}"' if answer else f'echo "pyenv: {path.name}: not found" >&2; exit 127'
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)
    return path


@pytest.fixture
def bare_machine(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A machine where the finder looks only under ``tmp_path``: PATH, HOME, pyenv, /usr."""
    for variable, folder in (("PATH", "bin"), ("HOME", "home"), ("PYENV_ROOT", "pyenv")):
        (tmp_path / folder).mkdir()
        monkeypatch.setenv(variable, str(tmp_path / folder))
    monkeypatch.delenv("LITE_PYTHON", raising=False)
    monkeypatch.setattr(builder, "SYSTEM_BIN_DIRS", (str(tmp_path / "usr-bin"),))
    monkeypatch.setattr(builder, "_running_python", lambda: None)
    return tmp_path


def test_no_python_312_fails_loudly_naming_what_was_tried(bare_machine: Path) -> None:
    shim = _fake_python(bare_machine / "bin" / "python3.12", None)
    _fake_python(bare_machine / "usr-bin" / "python3.13", "3 11")   # too old, whatever its name
    with pytest.raises(builder.SiteBuildError, match=r"needs Python >= 3\.12") as failure:
        builder.find_build_python()
    assert str(shim) in str(failure.value) and "LITE_PYTHON" in str(failure.value)


def test_python_312_is_found_under_pyenv_past_a_broken_shim(bare_machine: Path) -> None:
    _fake_python(bare_machine / "bin" / "python3.12", None)
    real = _fake_python(
        bare_machine / "home" / ".pyenv" / "versions" / "3.12.1" / "bin" / "python3.12", "3 12")
    assert builder.find_build_python() == str(real)


def test_lite_python_that_does_not_run_is_an_error(bare_machine: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LITE_PYTHON", str(bare_machine / "no-such-python"))
    with pytest.raises(builder.SiteBuildError, match="does not run"):
        builder.find_build_python()


def _fake_pyodide(path: Path, stdlib: dict[str, str]) -> Path:
    """An npm-style pyodide tarball whose python_stdlib.zip holds ``stdlib``."""
    import io
    import tarfile
    files = {name: b"" for name in builder.PYODIDE_RUNTIME_FILES}
    files["package.json"] = json.dumps({"version": "9.9.9"}).encode()
    files["pyodide-lock.json"] = json.dumps(
        {"info": {"python": "3.14.0"}, "packages": {"micropip": {"version": "0.1"}}}).encode()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zipped:
        for name, text in stdlib.items():
            zipped.writestr(name, text)
    files["python_stdlib.zip"] = buffer.getvalue()
    with tarfile.open(path, "w:gz") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(f"package/{name}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return path


def test_runtime_without_sqlite3_in_its_stdlib_is_refused(tmp_path: Path) -> None:
    """Notebook 10 keeps its games in SQLite: a Pyodide whose standard library lacks
    sqlite3 (some releases ship it as a separate package) stops the build."""
    good = _fake_pyodide(tmp_path / "good.tgz", {"sqlite3/__init__.py": "", "os.py": ""})
    assert builder.stage_pyodide(good, "9.9.9", tmp_path / "ok") == {"micropip": "0.1"}
    bad = _fake_pyodide(tmp_path / "bad.tgz", {"os.py": ""})
    with pytest.raises(builder.SiteBuildError, match="python_stdlib.zip lacks sqlite3"):
        builder.stage_pyodide(bad, "9.9.9", tmp_path / "no")


def test_build_refuses_to_wipe_a_folder_that_is_not_a_site(tmp_path: Path) -> None:
    """The build deletes its output first: never a folder of someone's files."""
    precious = tmp_path / "homework"
    precious.mkdir()
    (precious / "essay.txt").write_text("mine")
    for output in (precious, ROOT, ROOT.parent):
        with pytest.raises(builder.SiteBuildError, match="refusing"):
            builder.build_site(output, log=False)
    assert (precious / "essay.txt").read_text() == "mine"


# -- the built site, read from disk -----------------------------------------------------


def test_build_publishes_the_tutorials_with_a_local_runtime(site: Any) -> None:
    """What ``make site`` must produce; build_site() ran ``jupyter lite check`` already."""
    out = site.output
    tutorials = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
    assert {QUICK_START, TUTORIAL, CLASSROOM} <= set(tutorials)
    assert set(site.notebooks) >= set(tutorials)
    listing = json.loads((out / "api" / "contents" / "all.json").read_text())
    assert {entry["name"] for entry in listing["content"]} >= set(tutorials)
    # the Russian lessons, and each rules page beside the notebooks that link to it
    # (../docs/rules.md is outside the site: a link to it would be a 404)
    russian = sorted("ru/" + p.name for p in (ROOT / "notebooks" / "ru").glob("*.ipynb"))
    assert len(russian) >= 7 and set(site.notebooks) >= set(russian)
    for page, source in (("rules.md", "docs/rules.md"), ("ru/rules.md", "docs/ru/rules.md")):
        assert (out / "files" / page).read_bytes() == (ROOT / source).read_bytes(), page

    settings = json.loads((out / "jupyter-lite.json").read_text())["jupyter-config-data"]
    assert settings["exposeAppInBrowser"] is True
    kernel = settings["litePluginSettings"][builder.KERNEL_PLUGIN]
    assert kernel["pyodideUrl"] == "./static/pyodide/pyodide.mjs"
    assert (out / "static" / "pyodide" / "pyodide.asm.wasm").is_file()
    assert kernel["disablePyPIFallback"] is True
    lock_path = out / kernel["loadPyodideOptions"]["lockFileURL"]
    lock = json.loads(lock_path.read_text())
    assert lock["info"]["python"].startswith("3.14"), lock["info"]
    remote = {name: p["file_name"] for name, p in lock["packages"].items()
              if "://" in p["file_name"]}
    assert remote == {}, f"lock entries pointing off the site: {remote}"
    for needed in ("tavrei-lab", "ipywidgets", "anywidget", "svgwrite", "networkx", "tqdm",
                   "micropip", "ipykernel", "pyodide-kernel"):
        assert needed in lock["packages"], f"{needed} missing from the site's lock"
    # Python and JavaScript halves of the widgets must be the same versions.
    assert f"{lock['packages']['anywidget']['version']}" in {
        json.loads(p.read_text())["version"]
        for p in out.glob("extensions/anywidget/package.json")
    }
    # Widget front ends are in the site; the kernel has shims for the lab-only packages.
    assert (out / "extensions" / "@jupyter-widgets" / "jupyterlab-manager").is_dir()
    assert "widgetsnbextension" not in lock["packages"]
    assert "jupyterlab" not in lock["packages"]


def test_site_wheel_is_this_checkout(site: Any) -> None:
    """The tavrei_lab served to students is this tree: every module, the board's JavaScript,
    the variant files and the recorded games (a file missing from the wheel would only
    show up as an error in a student's browser)."""
    wheels = list((site.output / "static" / "pyodide-lock").glob("tavrei_lab-*.whl"))
    assert len(wheels) == 1, wheels
    # the compiled build's outputs (make compiled, beside the sources) are not part of the
    # pure wheel the site ships: Pyodide runs the .py files
    in_tree = {path.relative_to(ROOT).as_posix() for path in (ROOT / "tavrei_lab").rglob("*")
               if path.is_file() and "__pycache__" not in path.parts
               and path.suffix not in (".so", ".pyd") and path.name != "_compiled.json"}
    # the lessons (tavrei-lab lessons) are built into the wheel from notebooks/ and the rules
    in_tree |= {"tavrei_lab/lessons/" + path.relative_to(ROOT / "notebooks").as_posix()
                for path in (ROOT / "notebooks").rglob("*.ipynb")
                if ".ipynb_checkpoints" not in path.parts}
    in_tree |= {"tavrei_lab/lessons/rules.md", "tavrei_lab/lessons/ru/rules.md"}
    with zipfile.ZipFile(wheels[0]) as wheel:
        in_wheel = {name for name in wheel.namelist() if name.startswith("tavrei_lab/")}
        assert in_wheel == in_tree, {"not in the wheel": sorted(in_tree - in_wheel),
                                     "not in the tree": sorted(in_wheel - in_tree)}
        init = "tavrei_lab/__init__.py"
        assert wheel.read(init) == (ROOT / init).read_bytes()


@pytest.mark.parametrize("damage, complaint", [
    ("lock", "remote address"),
    ("pyodide", "pyodideUrl is not local"),
    ("expose", "exposeAppInBrowser"),
])
def test_offline_checks_catch_a_site_that_reaches_out(site: Any, tmp_path: Path, damage: str,
                                                      complaint: str) -> None:
    """verify_site() is what keeps a CDN address out of a classroom site: it must bite."""
    copy = tmp_path / "site"
    shutil.copytree(site.output, copy)
    builder.verify_site(copy)                     # the undamaged copy passes
    config_path = copy / "jupyter-lite.json"
    config = json.loads(config_path.read_text())
    data = config["jupyter-config-data"]
    kernel = data["litePluginSettings"][builder.KERNEL_PLUGIN]
    if damage == "lock":
        lock_path = copy / kernel["loadPyodideOptions"]["lockFileURL"]
        lock = json.loads(lock_path.read_text())
        lock["packages"]["svgwrite"]["file_name"] = (
            "https://cdn.jsdelivr.net/pyodide/full/svgwrite-1.4.3-py3-none-any.whl")
        lock_path.write_text(json.dumps(lock))
    elif damage == "pyodide":
        kernel["pyodideUrl"] = "https://cdn.jsdelivr.net/pyodide/v314.0.6/full/pyodide.mjs"
    else:
        data["exposeAppInBrowser"] = "true"
    config_path.write_text(json.dumps(config))
    with pytest.raises(builder.SiteBuildError, match=complaint):
        builder.verify_site(copy)


def test_server_sends_the_types_a_browser_insists_on(server: str) -> None:
    """Module workers need JavaScript, WebAssembly streaming needs application/wasm."""
    for path, wanted in (("static/pyodide/pyodide.mjs", "javascript"),
                         ("static/pyodide/pyodide.asm.wasm", "application/wasm")):
        with urllib.request.urlopen(f"{server}/{path}", timeout=10) as response:
            assert wanted in response.headers["Content-Type"], (path, response.headers)


# -- in the browser, offline ------------------------------------------------------------


@dataclass
class NetworkGuard:
    """Lets loopback requests through and aborts, and records, everything else."""

    origin: str
    aborted: list[str] = field(default_factory=list)
    seen: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)

    @staticmethod
    def is_local(url: str) -> bool:
        parsed = urllib.parse.urlparse(url)
        if parsed.scheme in ("data", "blob", "about"):
            return True
        return parsed.hostname in ("127.0.0.1", "localhost", "::1")

    def route(self, route: Any) -> None:
        url = route.request.url
        if self.is_local(url):
            route.continue_()
        else:
            self.aborted.append(url)
            route.abort("blockedbyclient")

    def record_failure(self, request: Any) -> None:
        """Keep failed loads, except those the page itself cancelled (``ERR_ABORTED``:
        a navigation, such as the root page's redirect, or a closed notebook, cuts its
        pending loads short). Requests this guard blocks are in ``aborted`` anyway."""
        if request.failure != "net::ERR_ABORTED":
            self.failed.append(f"{request.url}: {request.failure}")

    def watch(self, context: Any, page: Any) -> None:
        context.route("**/*", self.route)
        context.on("request", lambda request: self.seen.append(request.url))
        context.on("requestfailed", self.record_failure)
        page.on("websocket", lambda socket: self.seen.append(socket.url))


CURRENT_PANEL = """(path) => {
  const app = window.jupyterapp;
  const panel = app && app.shell.currentWidget;
  return !!(panel && panel.sessionContext && panel.context && panel.context.path === path);
}"""

SESSION_READY = "async () => { await window.jupyterapp.shell.currentWidget.sessionContext.ready; }"

KERNEL_IDLE = """() => {
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session?.kernel;
  return !!kernel && kernel.status === 'idle';
}"""

RUN_ALL = "async () => await window.jupyterapp.commands.execute('notebook:run-all-cells')"

CODE_CELLS = """() => {
  const model = window.jupyterapp.shell.currentWidget.content.model;
  const cells = [];
  for (let i = 0; i < model.cells.length; i++) {
    const cell = model.cells.get(i);
    if (cell.type !== 'code') continue;
    cells.push({source: cell.sharedModel.getSource(), count: cell.executionCount,
                outputs: cell.outputs.toJSON()});
  }
  return cells;
}"""

PANEL_ID = "() => window.jupyterapp.shell.currentWidget.id"

SAVE_CURRENT = "async () => { await window.jupyterapp.shell.currentWidget.context.save(); }"

DOWNLOAD_CURRENT = (
    "async () => { await window.jupyterapp.commands.execute('docmanager:download'); }")

KERNEL_EXECUTE = """async (code) => {
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  const future = kernel.requestExecute({code, store_history: false});
  let text = '';
  future.onIOPub = (msg) => {
    if (msg.header.msg_type === 'stream') text += msg.content.text;
    const c = msg.content;
    if (msg.header.msg_type === 'error') text += `ERROR ${c.ename}: ${c.evalue}`;
  };
  await future.done;
  return text;
}"""

TOURNAMENT_CODE = """
import sys
from tavrei_lab.lab import tournament
result = tournament(["tavreli"], ["random"], games=2, seed=1, max_plies=20)
print("TOURNAMENT", sys.platform, len(result.games))
"""

OPEN = """async (path) => {
  await window.jupyterapp.commands.execute('docmanager:open', {path});   // the panel: not JSON
}"""

SHUT_DOWN_CURRENT = """async () => {
  const panel = window.jupyterapp.shell.currentWidget;
  await panel.sessionContext.shutdown();
  panel.dispose();                 // closed without the "save your work?" dialog
}"""


def _open_and_run(page: Any, path: str, started: float) -> dict[str, Any]:
    """Wait for ``path``'s kernel to be really ready, run all its cells, return them.

    The toolbar's "Idle" can show before the kernel exists, and a run-all sent then
    is silently dropped; waiting for ``sessionContext.ready`` and kernel status
    ``idle`` through the exposed app is what proved reliable (shared/TESTING.md).
    """
    page.wait_for_function(CURRENT_PANEL, arg=path, timeout=60_000)
    page.evaluate(SESSION_READY)
    page.wait_for_function(KERNEL_IDLE, timeout=KERNEL_TIMEOUT_MS, polling=100)
    ready_s = time.perf_counter() - started
    if path in PRELUDE:
        said = page.evaluate(KERNEL_EXECUTE, PRELUDE[path])
        assert "ERROR" not in said, f"{path}: the prelude failed: {said}"
    ran = page.evaluate(RUN_ALL)
    page.wait_for_function(KERNEL_IDLE, timeout=RUN_TIMEOUT_MS, polling=100)
    run_s = time.perf_counter() - started - ready_s
    return {"ready_s": ready_s, "run_s": run_s, "ran": ran, "cells": page.evaluate(CODE_CELLS)}


HIT = """([x, y]) => {
  const hit = document.elementFromPoint(x, y);
  const square = hit && hit.closest('[data-square]');
  return square ? square.getAttribute('data-square') : null;
}"""


def _aim(page: Any, board: str, square: str) -> tuple[float, float]:
    """The centre of ``square`` once the page holds still and that point hits the square.

    Right after run-all the notebook is still laying itself out (outputs below
    render, JupyterLab measures cells as they scroll into view), so a position read
    too early can be stale by the time the mouse arrives: the click then lands on
    another square, or none, and no redraw follows.
    """
    target = page.locator(f'{board} .square[data-square="{square}"]').first
    previous = None
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        target.scroll_into_view_if_needed()
        box = target.bounding_box()
        if box is not None:
            point = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            if point == previous and page.evaluate(HIT, list(point)) == square:
                return point
            previous = point
        page.wait_for_timeout(150)
    raise AssertionError(f"square {square} never held still under the mouse: last {previous}")


def _status_showing(status: Any, words: str) -> str:
    """The status line once it shows ``words``: it redraws after the board, in a message
    of its own, so a read at once can still show the state before. If it never does,
    what it shows after the wait, for the assertion to report."""
    from playwright.sync_api import expect
    try:
        expect(status).to_contain_text(words, timeout=30_000)
    except AssertionError:
        pass
    return str(status.inner_text())


def _click_square(page: Any, board: str, square: str) -> float:
    """Click the centre of a drawn square; wait for Python's redraw; return its time in ms."""
    x, y = _aim(page, board, square)
    before = int(page.locator(board).get_attribute("data-version") or 0)
    page.mouse.click(x, y)
    try:
        page.wait_for_function(
            "([sel, v]) => Number(document.querySelector(sel).dataset.version) > v",
            arg=[board, before], timeout=30_000, polling="raf")
    except Exception as error:
        panel = board.split()[0]                  # "#<notebook panel id> .tavrei-board-widget"
        status = page.locator(f"{panel} .tavrei-status").first.inner_text()
        raise AssertionError(
            f"no redraw 30 s after clicking {square} at ({x:.0f}, {y:.0f}): the point now hits "
            f"{page.evaluate(HIT, [x, y])!r}, board version {before} -> "
            f"{page.locator(board).get_attribute('data-version')}, status {status!r}"
        ) from error
    return float(page.locator(board).get_attribute("data-redraw-ms") or "nan")


def _drag(page: Any, board: str, start: str, end: str) -> float:
    """Drag the tower on ``start`` to ``end`` with the mouse; return drop-to-redraw in ms.

    The view already holds the legal destinations, so the drag itself never
    waits for the (slow, in-browser) kernel; only the drop goes to Python.
    """
    x1, y1 = _aim(page, board, start)
    x2, y2 = _aim(page, board, end)
    before = int(page.locator(board).get_attribute("data-version") or 0)
    page.mouse.move(x1, y1)
    page.mouse.down()
    page.mouse.move(x2, y2, steps=8)
    page.mouse.up()
    page.wait_for_function(
        "([sel, v]) => Number(document.querySelector(sel).dataset.version) > v",
        arg=[board, before], timeout=30_000, polling="raf")
    return float(page.locator(board).get_attribute("data-redraw-ms") or "nan")


def _drawn(page: Any, board: str, css_class: str) -> set[str]:
    """Squares whose drawing carries ``css_class`` (selected, lastmove, dest-empty, ...)."""
    return set(page.evaluate(
        "([sel, cls]) => Array.from(document.querySelectorAll(`${sel} .square.${cls}`))"
        ".map(e => e.dataset.square)", [board, css_class]))


def _classroom_session(url: str) -> dict[str, Any]:
    """A student's visit, in its own thread: open, run two tutorials, play a move."""
    from playwright.sync_api import sync_playwright

    result: dict[str, Any] = {"page_errors": []}
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        try:
            context = browser.new_context(viewport={"width": 1400, "height": 1000})
            page = context.new_page()
            guard = NetworkGuard(url)
            guard.watch(context, page)
            result["guard"] = guard
            page.on("pageerror", lambda error: result["page_errors"].append(str(error)))
            try:
                # The address a teacher hands out (the site's root) leads into JupyterLab.
                page.goto(f"{url}/")
                page.wait_for_url(f"{url}/lab/**", timeout=60_000)
                result["root_lands_in"] = page.url
                page.wait_for_function("() => !!window.jupyterapp", timeout=60_000)
                runs: dict[str, dict[str, Any]] = {}
                result["runs"] = runs
                for number, path in enumerate(notebooks_to_run(), start=1):
                    started = time.perf_counter()
                    if number == 1:
                        page.goto(f"{url}/lab/index.html?path={path}")
                    else:
                        # One kernel at a time: each is a Pyodide of a few hundred MB.
                        page.evaluate(SHUT_DOWN_CURRENT)
                        page.evaluate(OPEN, path)
                    runs[path] = _open_and_run(page, path, started)
                    if path == RUSSIAN:      # what the class reads: the panel's words
                        page.wait_for_selector(f"#{page.evaluate(PANEL_ID)} .tavrei-puzzle",
                                               timeout=60_000)
                        result["russian_page"] = page.evaluate(
                            "(id) => Array.from(document.getElementById(id).querySelectorAll("
                            "'.tavrei-puzzle')).map(e => e.innerText).join('\\n')",
                            page.evaluate(PANEL_ID))
                    shot = path[:-6].replace("/", "-")        # ru/01_... is a folder's
                    page.screenshot(path=str(ARTIFACTS / f"{number:02d}-{shot}.png"))

                panel = f"#{page.evaluate(PANEL_ID)}"
                # The classroom demo has puzzle boards too: the one to click is part 1's.
                board = f"{panel} .classroom-board .tavrei-board-widget"
                page.wait_for_selector(f"{board} svg", timeout=60_000)
                status = page.locator(f"{panel} .tavrei-status").first
                result["redraw_ms"] = [_click_square(page, board, "e2")]
                result["after_select"] = {"selected": _drawn(page, board, "selected"),
                                          "destinations": _drawn(page, board, "dest-empty"),
                                          "status": _status_showing(status, "e3, e4")}
                result["redraw_ms"].append(_click_square(page, board, "e4"))
                result["after_move"] = {"lastmove": _drawn(page, board, "lastmove"),
                                        "status": _status_showing(status, "e2-e4")}
                page.locator(board).screenshot(path=str(ARTIFACTS / "board-after-e2-e4.png"))
                result["drop_ms"] = _drag(page, board, "e7", "e5")   # black answers by drag
                result["after_drag"] = {"lastmove": _drawn(page, board, "lastmove"),
                                        "status": _status_showing(status, "e7-e5")}
                page.locator(board).screenshot(path=str(ARTIFACTS / "board-after-drag-e7-e5.png"))

                # The comparison tools on their default path (a process pool on a
                # desktop) must fall back to running in-process in the browser.
                result["tournament"] = page.evaluate(KERNEL_EXECUTE, TOURNAMENT_CODE)

                # The student's work: saved in the browser's storage, then downloaded.
                page.evaluate(SAVE_CURRENT)
                with page.expect_download(timeout=30_000) as download:
                    page.evaluate(DOWNLOAD_CURRENT)
                result["downloaded"] = {
                    "name": download.value.suggested_filename,
                    "notebook": json.loads(Path(download.value.path()).read_text()),
                }
            except Exception:
                page.screenshot(path=str(ARTIFACTS / "zz-failure.png"))
                raise
            finally:
                context.close()
        finally:
            browser.close()
    return result


def _errors(cells: list[dict[str, Any]]) -> list[str]:
    return [f"{o.get('ename')}: {o.get('evalue')}  (in: {c['source'][:60]!r})"
            for c in cells for o in c["outputs"] if o.get("output_type") == "error"]


def _text(cells: list[dict[str, Any]]) -> str:
    """All text a notebook printed or displayed as text/plain."""
    parts = []
    for cell in cells:
        for output in cell["outputs"]:
            parts.append(output.get("text", ""))
            parts.append(output.get("data", {}).get("text/plain", ""))
    return "\n".join(parts)


@pytest.mark.browser
def test_tutorials_run_offline_and_the_board_answers_a_click_and_a_drag(site: Any,
                                                                        server: str) -> None:
    """The whole student path with every non-loopback request aborted."""
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="lite-browser") as pool:
        result = pool.submit(_classroom_session, server).result(timeout=900)

    assert result["root_lands_in"].startswith(f"{server}/lab/"), result["root_lands_in"]
    runs = result["runs"]
    assert list(runs) == notebooks_to_run()
    for name, run in runs.items():
        assert run["ran"] is True, f"{name}: run-all did not complete: {_errors(run['cells'])}"
        assert _errors(run["cells"]) == [], f"{name} raised in Pyodide"
        assert all(cell["count"] for cell in run["cells"] if cell["source"].strip()), (
            f"{name}: a code cell never ran")

    # A Russian lesson offline: its puzzle's buttons and board words are Russian and no
    # English word of the catalogue shows (the test for the board in Voila/Lab, offline)
    russian = result["russian_page"]
    for word in ("Проверить", "Подсказка"):
        assert word in russian, (word, russian[-2000:])
    from tavrei_lab.i18n import catalogue
    english = {w for msgid in catalogue("ru").messages for w in
               re.findall(r"[a-z]{4,}", msgid.lower())}
    left = set(re.findall(r"[a-z]{4,}", russian.lower())) & english
    assert not left, (sorted(left), russian)

    quick = _text(runs[QUICK_START]["cells"])
    assert "<Game tavreli" in quick and "The computer plays" in quick
    assert "IllegalMoveError" in quick            # the cell that shows a refused move

    # The sweep's games went into SQLite in the browser's storage and were read back.
    sweep = _text(runs[SWEEP]["cells"])
    for fact in ("played now: 0", "cells in the store", "first stored game replays to"):
        assert fact in sweep, f"{SWEEP}: {fact!r} not printed"

    # Python's replies on the board: the selection with its destinations, then the move.
    selection = result["after_select"]
    assert (selection["selected"], selection["destinations"]) == ({"e2"}, {"e3", "e4"})
    assert "e2" in selection["status"] and "e3, e4" in selection["status"], selection
    assert result["after_move"]["lastmove"] == {"e2", "e4"}
    assert "e2-e4" in result["after_move"]["status"], result["after_move"]["status"]
    # ... and a move by drag and drop, the destinations known in the page beforehand
    assert result["after_drag"]["lastmove"] == {"e7", "e5"}, result["after_drag"]
    assert "e7-e5" in result["after_drag"]["status"], result["after_drag"]["status"]

    # No threads, processes or sockets in the browser: the default executor falls back.
    assert result["tournament"].strip() == "TOURNAMENT emscripten 2", result["tournament"]

    # What docs/classroom.md promises: a student's run notebook downloads as a .ipynb
    # file, outputs and all (the board's move is in the widget state, not checked here).
    downloaded = result["downloaded"]
    assert downloaded["name"] == CLASSROOM
    counts = [c.get("execution_count") for c in downloaded["notebook"]["cells"]
              if c["cell_type"] == "code"]
    assert counts and all(counts), f"downloaded notebook lacks the run: {counts}"

    guard: NetworkGuard = result["guard"]
    assert guard.aborted == [], f"requests that tried to leave the site: {guard.aborted}"
    assert [u for u in guard.seen if not guard.is_local(u)] == []
    assert guard.failed == [], f"requests that failed: {guard.failed}"
    assert any(u.endswith("/static/pyodide/pyodide.asm.wasm") for u in guard.seen)
    assert any("/static/pyodide-lock/tavrei_lab-" in u for u in guard.seen)
    assert result["page_errors"] == []

    METRICS["kernel_ready_s"] = round(runs[QUICK_START]["ready_s"], 1)
    METRICS["notebooks"] = {name: {"kernel_ready_s": round(run["ready_s"], 1),
                                   "run_all_s": round(run["run_s"], 1)}
                            for name, run in runs.items()}
    METRICS["click_redraw_ms"] = result["redraw_ms"]
    METRICS["drop_redraw_ms"] = result["drop_ms"]
    METRICS["requests"] = len(guard.seen)


def test_contents_are_staged_with_the_rules_pages_as_files(tmp_path: Path) -> None:
    """notebooks/rules.md is a link to docs/rules.md; JupyterLite resolves links and failed
    ('not in the subpath of notebooks'), so the build stages a copy with the page itself."""
    assert (ROOT / "notebooks" / "rules.md").is_symlink()
    (staged,) = builder.stage_contents([ROOT / "notebooks"], tmp_path / "contents")
    for page, source in (("rules.md", "docs/rules.md"), ("ru/rules.md", "docs/ru/rules.md")):
        copy = staged / page
        assert not copy.is_symlink() and copy.read_bytes() == (ROOT / source).read_bytes()
    assert sorted(p.relative_to(staged).as_posix() for p in staged.rglob("*.ipynb")) == sorted(
        p.relative_to(ROOT / "notebooks").as_posix()
        for p in (ROOT / "notebooks").rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
