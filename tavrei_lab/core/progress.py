"""Progress of long runs, the Jupyter way: ``tqdm.auto``.

Tree builds, perft, sweeps, tournaments and long replays all report through
``progress_bar``: in a notebook (Jupyter or JupyterLite) tqdm's widget bar, in an
interactive terminal its text bar, and nothing at all where output is a log (not
a tty, no kernel), so CI logs and piped output stay clean. ``mode`` forces one:
``"widget"``, ``"terminal"`` or ``"off"``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from tavrei_lab.i18n import gettext as _

MODES = ("widget", "terminal", "off")


def in_kernel() -> bool:
    """Are we inside a Jupyter kernel (where a widget bar can be shown)?"""
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


def choose_mode(mode: str | None, stream: TextIO | None = None) -> str:
    """``mode`` if given, else the one that fits where we run (see the module docstring)."""
    if mode is not None:
        if mode not in MODES:
            raise ValueError(_("progress mode must be one of {names}, got {mode!r}").format(
                names=', '.join(MODES), mode=mode))
        return mode
    if in_kernel():
        return "widget"
    stream = stream or sys.stderr
    return "terminal" if stream is not None and getattr(stream, "isatty", lambda: False)() \
        else "off"


def progress_bar(total: int | None, description: str, *, mode: str | None = None,
                 stream: TextIO | None = None, unit: str = "it", delay: float = 0.0) -> Any:
    """A ``tqdm`` bar for ``total`` steps (None: unknown), or a disabled one. ``delay``:
    seconds before it shows (a quick run never shows a bar)."""
    chosen = choose_mode(mode, stream)
    if sys.platform == "emscripten":
        # Pyodide has no threads: tqdm's monitor thread would fail with a warning
        # printed into the learner's cell (seen in the offline site)
        from tqdm import tqdm as base_tqdm
        base_tqdm.monitor_interval = 0
    if chosen == "widget":
        try:
            from tqdm.notebook import tqdm as notebook_tqdm
            return notebook_tqdm(total=total, desc=description, unit=unit, delay=delay)
        except Exception:   # no widget front end (ipywidgets missing): the text bar
            chosen = "terminal"
    from tqdm import tqdm
    return tqdm(total=total, desc=description, unit=unit, file=stream or sys.stderr,
                disable=chosen == "off", dynamic_ncols=True, leave=True, delay=delay)


def progress_of(progress: Any, description: str, unit: str,
                delay: float = 1.0) -> tuple[Any, Any]:
    """What a long run's ``progress`` argument asks for: (a tqdm bar or None, a
    callback or None). True: the automatic bar (shown after ``delay`` seconds); a mode
    name: that bar; False or None: nothing; a callable: that callback, no bar."""
    if progress is None or progress is False:
        return None, None
    if callable(progress):
        return None, progress
    return progress_bar(None, description, mode=None if progress is True else progress,
                        unit=unit, delay=delay), None


def add_progress_flags(parser: argparse.ArgumentParser) -> None:
    """The same progress flags on every long command (compare, sweep, soak, tree, perft):
    by default a bar on an interactive terminal and nothing in a log; ``--progress``
    reports even into a log; ``--no-progress`` never does. Both flags keep the meaning
    they had on each command, so scripts that pass them keep working."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--progress", dest="progress", action="store_const", const=True,
                       default=None, help=_("report progress even when stderr is not a terminal "
                                            "(a log)"))
    group.add_argument("--no-progress", dest="progress", action="store_const", const=False,
                       help=_("no progress report"))


def progress_mode(args: argparse.Namespace) -> bool | str:
    """``add_progress_flags``' choice as the library's ``progress`` argument."""
    chosen = getattr(args, "progress", None)
    return True if chosen is None else "terminal" if chosen else False


def wants_progress_lines(args: argparse.Namespace) -> bool:
    """Whether a command that reports in lines (soak, tree, perft) should print them:
    --progress, or by default when stderr is a terminal."""
    chosen = getattr(args, "progress", None)
    if chosen is None:
        return bool(getattr(sys.stderr, "isatty", lambda: False)())
    return bool(chosen)


__all__ = ["MODES", "add_progress_flags", "choose_mode", "in_kernel", "progress_bar",
           "progress_mode", "progress_of", "wants_progress_lines"]
