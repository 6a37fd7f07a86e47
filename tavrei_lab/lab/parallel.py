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

The progress bar is tqdm's (``tqdm.auto``, see ``core.progress``): a widget bar
inside a Jupyter kernel, a text bar when the terminal is interactive, nothing
otherwise (logs and CI stay clean).
"""

from __future__ import annotations

import os
import sys
import time
import warnings
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from typing import Any, TextIO

from tavrei_lab.core.progress import choose_mode, progress_bar
from tavrei_lab.errors import TavreiError
from tavrei_lab.i18n import gettext as _

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


#: How often a pool worker looks whether its parent is still there, in seconds.
PARENT_WATCH_SECONDS = 0.5


def _die_with_parent() -> None:
    """Pool-worker initializer: the worker exits when the process that started it dies,
    and leaves Ctrl-C to it.

    A ``kill -9`` (or SIGTERM) of a sweep otherwise leaves its workers idle under PID 1
    for good. On Linux the kernel is asked to send SIGTERM at the parent's death
    (``prctl(PR_SET_PDEATHSIG)``); everywhere a daemon thread watches the parent's pid
    and ends the worker when it changes (the portable fallback, and the net for a
    parent that died before the ``prctl``).
    """
    parent = os.getppid()
    try:
        import signal
        # Ctrl-C reaches the whole process group: the parent stops the run and says
        # what is kept; a worker's own KeyboardInterrupt was a 30-line traceback each
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except (ImportError, OSError, ValueError):
        pass
    if sys.platform.startswith("linux"):
        try:
            import ctypes
            import signal
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, int(signal.SIGTERM), 0, 0, 0)     # 1: PR_SET_PDEATHSIG
        except (OSError, AttributeError):                   # no libc prctl: the watch
            pass
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_WATCH_SECONDS)
        os._exit(1)

    import threading
    threading.Thread(target=watch, name="tavrei-parent-watch", daemon=True).start()


def _process_pool(workers: int) -> Executor:
    """A process pool whose workers die with their parent; imported here because
    Pyodide cannot even import it."""
    from concurrent.futures import ProcessPoolExecutor
    return ProcessPoolExecutor(max_workers=workers, initializer=_die_with_parent)


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
        raise TavreiError(_("unknown executor {executor!r}; expected an Executor or one of "
                            "{names}").format(executor=executor, names=", ".join(EXECUTOR_NAMES)))
    workers = workers or default_workers()
    if workers < 1:
        raise TavreiError(_("workers must be 1 or more, got {workers}").format(workers=workers))
    if name == "inline" or sys.platform == "emscripten":
        return InlineExecutor(), True
    if name == "threads":
        return ThreadPoolExecutor(max_workers=workers), True
    try:
        pool = _process_pool(workers)
        pool.submit(int).result()         # fails here when workers cannot start
        return pool, True
    except (OSError, NotImplementedError, ImportError, RuntimeError, ValueError) as exc:
        warnings.warn(_("process pool unavailable ({exc!s}); running games in this process")
                          .format(exc=exc),
                      RuntimeWarning, stacklevel=3)
        return InlineExecutor(), True


class Progress:
    """The games' progress bar: ``tqdm.auto``'s (``core.progress``) -- a widget in
    notebooks, a text bar in terminals, silent in logs.

    ``mode`` forces "widget", "terminal" or "off"; by default it is chosen.
    """

    def __init__(self, total: int, description: str = "games", mode: str | None = None,
                 stream: TextIO | None = None) -> None:
        self.total = total
        self.done = 0
        self.description = description
        self.mode = choose_mode(mode, stream)
        # Silent: no bar at all, not a disabled tqdm (importing tqdm is CPU a short
        # sweep pays for nothing).
        self._bar = None if self.mode == "off" else progress_bar(
            total, description, mode=self.mode, stream=stream,
            unit=description.split()[-1] if description else "it")

    def update(self, n: int = 1) -> None:
        self.done += n
        if self._bar is not None:
            self._bar.update(n)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()


__all__ = ["EXECUTOR_NAMES", "InlineExecutor", "Progress", "resolve_executor"]
