"""Where the games run: any ``concurrent.futures.Executor``, and a progress bar.

A tournament only ever calls ``executor.submit(play_game, spec)`` and waits
on the futures, so anything that implements the standard ``Executor``
interface runs it unchanged:

- ``"processes"`` (the default): a ``ProcessPoolExecutor`` with one worker per
  core -- games are pure Python, so threads would share one core;
- ``"threads"``: a ``ThreadPoolExecutor`` (useful where processes cannot be
  started, and to show that results do not depend on the executor);
- ``"inline"``: every game in this process, one after another (Pyodide /
  JupyterLite, which has neither processes nor threads, and debugging);
- a ``distributed.Client`` (the optional ``[cluster]`` extra): the games run on
  the dask cluster's workers::

      from dask.distributed import Client
      client = Client("scheduler-address:8786")
      results = tournament(["tavreli", "orthodox"], ["greedy", "alphabeta:2"],
                           games=200, seed=1, executor=client)

- any other ``Executor`` you made yourself.

  An executor or client you pass in is yours: the tournament does not shut it down.

When the process pool cannot be created (Pyodide, a sandbox without
``fork``/``sem_open``) the tournament falls back to ``"inline"`` and says so
with a warning instead of failing.

The progress bar is tiny on purpose (no dependency): an ``ipywidgets``
progress bar when running inside a Jupyter kernel, a ``\\r``-rewritten line
when the terminal is interactive, nothing otherwise (logs and CI stay clean).
"""

from __future__ import annotations

import os
import sys
import time
import warnings
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from typing import Any, TextIO

from tavrei_lab.errors import TavreiError

EXECUTOR_NAMES = ("processes", "threads", "inline")


class InlineExecutor(Executor):
    """Runs each submitted call at once, in this process (a valid ``Executor``).

    >>> InlineExecutor().submit(pow, 2, 10).result()
    1024
    """

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # delivered through the future, as a pool would
            future.set_exception(exc)
        return future


def default_workers() -> int:
    return max(1, os.cpu_count() or 1)


def _process_pool(workers: int) -> Executor:
    """A process pool; imported here because Pyodide cannot even import it."""
    from concurrent.futures import ProcessPoolExecutor
    return ProcessPoolExecutor(max_workers=workers)


def is_dask_client(obj: Any) -> bool:
    """Is ``obj`` a ``distributed.Client``? (Asked without importing dask, an optional
    extra: a client is recognised by its class and its ``get_executor`` method.)"""
    return (type(obj).__module__.split(".")[0] == "distributed"
            and callable(getattr(obj, "get_executor", None)))


def resolve_executor(executor: Executor | str | None,
                     workers: int | None = None) -> tuple[Executor, bool]:
    """The executor to use and whether the tournament owns (and must shut down) it.

    A ``distributed.Client`` is taken as it is: its ``get_executor()`` runs the games
    on the cluster's workers, and the client stays the caller's to close.
    """
    if isinstance(executor, Executor):
        return executor, False
    if is_dask_client(executor):
        return executor.get_executor(), False   # type: ignore[union-attr]
    name = "processes" if executor is None else executor
    if name not in EXECUTOR_NAMES:
        raise TavreiError(f"unknown executor {executor!r}; expected an Executor or one of "
                          f"{', '.join(EXECUTOR_NAMES)}")
    workers = workers or default_workers()
    if workers < 1:
        raise TavreiError(f"workers must be 1 or more, got {workers}")
    if name == "inline" or sys.platform == "emscripten":
        return InlineExecutor(), True
    if name == "threads":
        return ThreadPoolExecutor(max_workers=workers), True
    try:
        pool = _process_pool(workers)
        pool.submit(int).result()         # fails here when workers cannot start
        return pool, True
    except (OSError, NotImplementedError, ImportError, RuntimeError, ValueError) as exc:
        warnings.warn(f"process pool unavailable ({exc!s}); running games in this process",
                      RuntimeWarning, stacklevel=3)
        return InlineExecutor(), True


def _in_kernel() -> bool:
    """Are we inside a Jupyter kernel (where a widget can be shown)?"""
    ipython = sys.modules.get("IPython")
    if ipython is None:
        return False
    try:
        shell = ipython.get_ipython()
    except Exception:  # pragma: no cover - odd IPython states
        return False
    if shell is None:
        return False
    # ipykernel's shell has a kernel; JupyterLite's Pyodide kernel runs in the browser.
    return getattr(shell, "kernel", None) is not None or sys.platform == "emscripten"


class Progress:
    """A progress bar: a widget in notebooks, a ``\\r`` line in terminals, else silent.

    ``mode`` forces "widget", "terminal" or "off"; by default it is chosen.
    """

    def __init__(self, total: int, description: str = "games", mode: str | None = None,
                 stream: TextIO | None = None) -> None:
        self.total = total
        self.done = 0
        self.description = description
        self.stream = stream or sys.stderr
        self._started = time.perf_counter()
        self._widget: Any = None
        if mode is None:
            if _in_kernel():
                mode = "widget"
            elif hasattr(self.stream, "isatty") and self.stream.isatty():
                mode = "terminal"
            else:
                mode = "off"
        self.mode = mode
        if mode == "widget":
            try:
                import ipywidgets
                from IPython.display import display
                self._bar = ipywidgets.IntProgress(min=0, max=max(total, 1), value=0)
                self._label = ipywidgets.Label(self._text())
                self._widget = ipywidgets.HBox([self._bar, self._label])
                display(self._widget)
            except Exception:   # no widget front end: fall back to silence, never fail
                self.mode = "off"
        self._draw()

    def _text(self) -> str:
        elapsed = time.perf_counter() - self._started
        eta = ""
        if 0 < self.done < self.total:
            eta = f", ~{elapsed / self.done * (self.total - self.done):.0f}s left"
        return f"{self.description}: {self.done}/{self.total} ({elapsed:.0f}s{eta})"

    def _draw(self) -> None:
        if self.mode == "widget":
            self._bar.value = self.done
            self._label.value = self._text()
        elif self.mode == "terminal":
            width = 30
            filled = int(width * self.done / self.total) if self.total else width
            self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self._text()}")
            self.stream.flush()

    def update(self, n: int = 1) -> None:
        self.done += n
        self._draw()

    def close(self) -> None:
        if self.mode == "terminal":
            self.stream.write("\n")
            self.stream.flush()
        elif self.mode == "widget":
            self._bar.bar_style = "success"


__all__ = ["EXECUTOR_NAMES", "InlineExecutor", "Progress", "resolve_executor"]
