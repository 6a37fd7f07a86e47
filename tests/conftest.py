"""Shared fixtures and the rule that keeps the real-browser tests honest.

The recorded games of ../shared/data are loaded here.

Browser tests (marker ``browser``: everything under tests/browser, the pixel
tests and the offline site's browser run) need Debian's Chromium. Where it is
missing they are skipped with the reason -- on a developer's machine. Under
``CI=true`` a skipped browser or lite test **fails** instead, so a
CI machine without Chromium cannot report green having tested no browser at
all. ``TAVREI_CHROMIUM`` names the executable (default: ``chromium`` on PATH,
else ``/usr/bin/chromium``); pointing it at a missing file shows what CI does
without a browser::

    CI=true TAVREI_CHROMIUM=/nonexistent python -m pytest tests/test_render_pixels.py
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import sys
import time
from collections.abc import Generator
from pathlib import Path

import pluggy
import pytest

from tests import processes as procs

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
GAMES_JSON = SHARED / "data" / "games.json"

#: The browser the browser, pixel and lite tests drive.
CHROMIUM = Path(os.environ.get("TAVREI_CHROMIUM")
                or shutil.which("chromium") or "/usr/bin/chromium")

#: Markers of the tests that may not skip under CI ("browser" ones need CHROMIUM).
BROWSER_MARKERS = ("browser", "lite")
BROWSER_DIR = Path(__file__).resolve().parent / "browser"


def in_ci() -> bool:
    """Is this a CI run? (CI services set CI=true; so does this project's .ci/run.)"""
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes", "on"}


def load_games() -> dict:
    if not GAMES_JSON.exists():
        pytest.fail(f"the recorded games are missing: {GAMES_JSON} (shared/ must sit beside the "
                    "repository)")
    return json.loads(GAMES_JSON.read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def games_data() -> dict:
    return load_games()


def _needs_browser(item: pytest.Item) -> bool:
    return any(item.get_closest_marker(name) for name in BROWSER_MARKERS)


def pytest_unconfigure(config: pytest.Config) -> None:
    """Drop dask's exit hook before the interpreter runs it. It closes whatever client is
    still the default, and once that client's loop is gone its close waits forever: the
    fresh-clone CI's pytest hung after printing "1739 passed", in
    ``distributed.client._close_global_client`` -> ``LoopRunner.stop``. The tests close
    the clients they make; the hook has nothing left to do but hang."""
    client = sys.modules.get("distributed.client")
    if client is not None:
        atexit.unregister(client._close_global_client)


def pytest_report_header(config: pytest.Config) -> str:
    found = "found" if CHROMIUM.exists() else "MISSING"
    rule = "browser/lite skips fail (CI=true)" if in_ci() else "browser/lite tests skip"
    return f"chromium: {CHROMIUM} ({found}); without it {rule}"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark tests/browser as browser tests; skip what needs Chromium where there is none."""
    for item in items:
        if BROWSER_DIR in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)
        if item.get_closest_marker("browser") and not CHROMIUM.exists():
            item.add_marker(pytest.mark.skip(
                reason=f"{CHROMIUM} is missing: run 'make browser' (apt-get install chromium)"))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]
                               ) -> Generator[None, pluggy.Result[pytest.TestReport], None]:
    """Under CI=true a browser or lite test that skipped, for any reason, has failed."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and in_ci() and _needs_browser(item) and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = (f"CI=true: this browser test may not skip, and it skipped: {reason}\n"
                           "CI must install Chromium ('make browser') and run it.")
    return None


# -- no process outlives the run ---------------------------------------------------------
#: Every process the tests started (by pid and start time): its command line and the
#: test after which it was first seen running.
_STARTED: dict[tuple[int, int], tuple[procs.Proc, str, str]] = {}
#: Sessions started by those processes (a kernel's, a server's): whatever runs in one is
#: the suite's too, even once its parent is gone and it hangs from init.
_SESSIONS: set[int] = set()


def _ours(whole: bool = False) -> list[procs.Proc]:
    """The processes below this one; with ``whole``, also every process in a session one
    of them started (found by a scan of all processes, too slow to do after every test)."""
    own_session = os.getsid(0)
    found = {p.pid: p for p in procs.descendants(os.getpid())}
    _SESSIONS.update(p.sid for p in found.values() if p.sid == p.pid != own_session)
    if whole:
        for p in procs.processes().values():
            if p.sid in _SESSIONS and p.state != "Z":
                found.setdefault(p.pid, p)
    return [p for p in found.values()
            if not any(h in procs.command_line(p.pid) for h in procs.INTERPRETER_HELPERS)]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None
                            ) -> Generator[None, None, None]:
    """Note which test a still-running process was first seen after."""
    yield
    for p in _ours():
        if p.key not in _STARTED:
            _STARTED[p.key] = (p, procs.command_line(p.pid), item.nodeid)


def _first_seen(p: procs.Proc) -> str:
    """The test after which ``p`` -- or, when it began between two looks, the process that
    started it or the session it runs in -- was first seen running."""
    for known, _command, test in _STARTED.values():    # in the order they were seen
        if known.key == p.key or known.pid in (p.ppid, p.sid):
            return test
    return "the last test"


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail the run when a process the tests started is still running at its end (every
    fixture is torn down by then), naming it and the test it was first seen after; then
    end it, so that it does not outlive the run either."""
    if not procs.PROC.is_dir():
        return
    left = _ours(whole=True)
    deadline = time.monotonic() + 10.0     # a process in its last moments of shutting down
    while left and time.monotonic() < deadline:
        time.sleep(0.2)
        left = _ours(whole=True)
    if not left:
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    lines = [f"{len(left)} process(es) started by the tests still running at the end of the "
             "run (a fixture must stop what it started, with its process group):"]
    for p in left:
        lines.append(f"  pid {p.pid}: {procs.command_line(p.pid)[:200]} (first seen after "
                     f"{_first_seen(p)})")
    if reporter is not None:
        reporter.ensure_newline()
        reporter.write_sep("=", "processes left running", red=True)
    for line in lines:
        if reporter is not None:
            reporter.write_line(line, red=True)
        else:
            print(line, file=sys.stderr)
    procs.kill(left)
    session.exitstatus = pytest.ExitCode.TESTS_FAILED
