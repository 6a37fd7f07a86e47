"""The processes a test run started, found through ``/proc`` (Linux), and how to stop them.

A test that starts a server or a kernel must leave nothing running when it ends: a
fresh-clone CI run on a loaded machine kept a dozen notebook kernels alive for 15
minutes after their tests, competing with the tests still running. ``stop_tree``
stops a process and everything it started, including children that moved to a
session of their own (a Jupyter server's kernels); ``tests/conftest.py`` checks at
the end of the run that no process the tests started is still alive.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

PROC = Path("/proc")

#: Helpers that live as long as the interpreter that started them, by design: the
#: multiprocessing resource tracker and fork server (they exit with pytest itself).
INTERPRETER_HELPERS = ("multiprocessing.resource_tracker", "multiprocessing.forkserver",
                       "multiprocessing.semaphore_tracker")


@dataclass(frozen=True)
class Proc:
    """One process: ``start`` (clock ticks after boot) tells it from a later one that
    reuses its pid."""

    pid: int
    ppid: int
    pgid: int
    sid: int
    state: str
    start: int

    @property
    def key(self) -> tuple[int, int]:
        return self.pid, self.start


def _read(pid: int) -> Proc | None:
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except (OSError, ValueError):    # it ended while we looked
        return None
    fields = text[text.rindex(")") + 2:].split()   # the name may hold spaces and ')'
    return Proc(pid, int(fields[1]), int(fields[2]), int(fields[3]), fields[0], int(fields[19]))


def processes() -> dict[int, Proc]:
    """Every process visible in /proc ({} where there is no /proc): a whole scan, about
    0.1 s on a loaded machine -- for the end of a run, not for every test."""
    try:
        entries = os.listdir(PROC)
    except OSError:
        return {}
    found = (_read(int(name)) for name in entries if name.isdigit())
    return {p.pid: p for p in found if p is not None}


def command_line(pid: int) -> str:
    try:
        raw = (PROC / str(pid) / "cmdline").read_bytes()
    except OSError:
        return "?"
    return raw.replace(b"\0", b" ").decode(errors="replace").strip()[:300]


def _children(pid: int) -> list[int]:
    """The children of ``pid`` from /proc/PID/task/*/children (a millisecond, where a
    whole scan takes a hundred)."""
    out: list[int] = []
    try:
        tasks = os.listdir(PROC / str(pid) / "task")
    except OSError:
        return out
    for task in tasks:
        try:
            out += [int(c) for c in (PROC / str(pid) / "task" / task / "children")
                    .read_text().split()]
        except (OSError, ValueError):
            continue
    return out


def descendants(root: int) -> list[Proc]:
    """The living (not zombie) processes below ``root``, children first."""
    found: list[Proc] = []
    todo = [root]
    while todo:
        for child in _children(todo.pop()):
            proc = _read(child)
            if proc is not None and proc.state != "Z":
                found.append(proc)
            todo.append(child)
    return found


def alive(proc: Proc) -> bool:
    """Is this very process (not a later one with its pid) still running?"""
    now = _read(proc.pid)
    return now is not None and now.start == proc.start and now.state != "Z"


def kill(procs: list[Proc]) -> None:
    """SIGKILL each process still alive, and the process group of each that leads one
    (its own children), never the test run's own group."""
    own_group = os.getpgid(0)
    for p in procs:
        if not alive(p):
            continue
        try:
            if p.pgid == p.pid and p.pgid != own_group:
                os.killpg(p.pgid, signal.SIGKILL)
            else:
                os.kill(p.pid, signal.SIGKILL)
        except OSError:          # it ended meanwhile, or is not ours to end
            pass


def stop_tree(process: subprocess.Popen, timeout: float = 10.0) -> None:
    """Stop ``process`` (SIGTERM, then SIGKILL after ``timeout`` s) and then every process
    it had started that is still running -- a server's kernels live in sessions of their
    own, so neither its process group nor its exit ends them."""
    started = descendants(process.pid)
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=timeout)
    # the ones it started, and what they started meanwhile (a kernel's own children)
    started += [d for p in started if alive(p) for d in descendants(p.pid)]
    deadline = time.monotonic() + 5.0      # a server's own shutdown of its kernels
    while any(alive(p) for p in started) and time.monotonic() < deadline:
        time.sleep(0.1)
    kill(started)
