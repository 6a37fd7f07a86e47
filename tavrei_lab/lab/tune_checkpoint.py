"""A tune's bounds and its games folder (``W.json.games/``): its settings and games.

``check_tune_settings`` refuses a tune past its bounds before anything is made
or played; ``check_weights_out`` refuses an ``--out`` it could not write.

A tune keeps each finished game there as one JSON line, so the same command
resumes a stopped tune. What it reads back is bounded and checked: the folder
is the user's (its games may be all a long tune has to show), so nothing in it
is removed, and anything it cannot read is named, not a traceback.

- ``settings.json``: the settings the games were played with, read as a regular
  file of at most ``MAX_SETTINGS_BYTES``; anything but the object a tune writes
  (a file cut short, not UTF-8, nested past Python's depth, ``null``) is
  *damaged*, never taken for "other settings". A folder holding games without
  it is refused: which tune played them cannot be told.
- ``generation-G.jsonl``: one game a line, each at most ``MAX_GAME_LINE_BYTES``
  and checked as far as the fit reads it; a line that is not one (cut short by a
  kill, damaged, a number no float holds) is one more game played again.
"""

from __future__ import annotations

import json
import math
import os
import stat
from pathlib import Path
from typing import Any

from tavrei_lab.core.files import check_file_writable, os_failure, write_atomically
from tavrei_lab.engine.search import MAX_SEARCH_NODES
from tavrei_lab.engine.weights import NAMES
from tavrei_lab.errors import LimitError, OutputError, TavreiError, quote
from tavrei_lab.i18n import gettext as _
from tavrei_lab.notation.record import MAX_GAME_PLIES

#: The largest settings.json read: a variant's definition is at most 64 KiB.
MAX_SETTINGS_BYTES = 1024 * 1024
#: The longest game line read (bytes): a game's row is its result and at most
#: ``SAMPLES_PER_GAME`` positions of at most one amount per weight, about 20 KB; a
#: longer line is no game of a tune and is played again, unparsed.
MAX_GAME_LINE_BYTES = 256 * 1024
#: Positions a stored game may hold (``lab.tune.SAMPLES_PER_GAME``).
MAX_GAME_POSITIONS = 24


#: The bounds of a tune (``check_tune_settings``), refused before anything is made or
#: played. Measured on ``tavreli`` games (nodes=20): a game's row is about 6 KB on disk
#: and 56 KB in memory while its generation runs, and its positions about 6 KB after,
#: kept for every later fit; each fit passes over all of them ``FIT_STEPS`` times. At
#: the limit: about 30 MB of positions, up to 280 MB for a generation of 5,000 games,
#: and a fit of some minutes.
MAX_TUNE_GAMES = 5_000          # in all: generations x (games + the gate's extra games)
MAX_TUNE_GENERATIONS = 100
def check_tune_settings(*, generations: Any, games: Any, nodes: Any, gate_games: Any = None,
                        max_plies: Any, seed: Any = 0) -> int:
    """Refuse, before anything is made or played, a tune past its bounds (a
    ``LimitError`` naming the setting and the bound) or with settings that are not
    whole numbers; returns the gate's extra games (``gate_games``, or ``games``)."""
    for name, value in (("generations", generations), ("games", games), ("nodes", nodes),
                        ("max_plies", max_plies)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise TavreiError(_("tune: {name} must be a whole number 1 or more, got {value}")
                              .format(name=name, value=repr(value)[:40]))
    extra_cap = games if gate_games is None else gate_games
    if isinstance(extra_cap, bool) or not isinstance(extra_cap, int) or extra_cap < 0:
        raise TavreiError(_("tune: gate_games must be a whole number 0 or more, got {value}")
                          .format(value=repr(gate_games)[:40]))
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TavreiError(_("tune: seed must be a whole number, got {value}")
                          .format(value=repr(seed)[:40]))
    for name, value, most in (("generations", generations, MAX_TUNE_GENERATIONS),
                              ("nodes", nodes, MAX_SEARCH_NODES),
                              ("max_plies", max_plies, MAX_GAME_PLIES),
                              ("games", games, MAX_TUNE_GAMES),
                              ("gate_games", extra_cap, MAX_TUNE_GAMES)):
        if value > most:
            raise LimitError(_("tune: {name} must be at most {most}, got {value}")
                             .format(name=name, most=most, value=value))
    total = generations * (games + extra_cap)
    if total > MAX_TUNE_GAMES:
        raise LimitError(_("tune: {generations} generations x ({games} games + {extra} the gate "
                           "may add) is {total} games; the limit is {limit}").format(
            generations=generations, games=games, extra=extra_cap, total=total,
            limit=MAX_TUNE_GAMES))
    return extra_cap


class TuneInterrupted(TavreiError):
    """A tune stopped before its end (a full disk, a dask cluster that failed, the
    weights file that could not be written): the message says what happened, and
    ``games_kept`` and ``folder`` say what is kept for the same command to resume."""

    def __init__(self, message: str, games_kept: int = 0, folder: str = "") -> None:
        super().__init__(message)
        self.games_kept = games_kept
        self.folder = folder


def cluster_failure(exc: BaseException) -> str:
    """What a dask failure means, in one line ("" when it is not one)."""
    name = type(exc).__name__
    if name == "KilledWorker":
        return _("a game's dask worker died again and again (KilledWorker)")
    if name in ("CommClosedError", "StreamClosedError") or (
            type(exc).__name__ == "CancelledError" and not isinstance(exc, KeyboardInterrupt)):
        return _("the dask scheduler went away mid-tune ({name})").format(name=name)
    if type(exc).__module__.split(".")[0] == "distributed" and isinstance(exc, Exception):
        return _("the dask cluster failed ({name}: {reason})").format(
            name=name, reason=" ".join(str(exc).split())[:120])
    return ""


class TuneCheckpointError(TavreiError):
    """A tune's games folder that cannot be resumed. ``folder`` and ``problem`` let
    ``sweep --tune``, whose folder the user never chose, give its own advice: what
    ``tune`` says (choose another ``--out``) means nothing there. Nothing in the
    folder is removed: its games may be all a long tune has to show."""

    def __init__(self, message: str, folder: Path | str = "", problem: str = "") -> None:
        self.folder = str(folder)
        self.problem = problem
        super().__init__(message)


def checkpoint_error(folder: Path, problem: str) -> TuneCheckpointError:
    return TuneCheckpointError(_("{folder}: {problem}; remove it or choose another --out")
                               .format(folder=folder, problem=problem), folder, problem)


def checkpoint_dir(out: Path) -> Path:
    return out.with_name(out.name + ".games")


def check_weights_out(out: Any) -> Path:
    """``out`` as the weights file a tune may write, checked before any game is played:
    a regular file or none yet, in a folder that exists (a tune does not make folders,
    as ``play`` does not) and that we may write in, with room for the games folder
    beside it. Nothing is created."""
    name = os.fspath(out) if isinstance(out, (str, os.PathLike)) else None
    if not isinstance(name, str) or not name.strip():
        raise OutputError(_("--out {out}: no file named; give the weights file to write, like "
                            "--out W.json").format(out=quote(str(out), 60)))
    shown = quote(name, 200)
    if name.endswith(("/", os.sep)):
        raise OutputError(_("--out {out} names a folder; give the weights file to write, like "
                            "--out W.json; no game was played").format(out=shown))
    path = Path(name)
    parent = path.parent
    try:
        parent_is_dir = parent.is_dir()
        mode = os.stat(name).st_mode if os.path.lexists(name) else None
    except (OSError, ValueError) as exc:
        raise OutputError(_("--out {out}: {reason}; no game was played").format(
            out=shown, reason=getattr(exc, "strerror", None) or exc)) from None
    if not parent_is_dir:
        raise OutputError(_("--out {out}: no such folder {folder} (a tune makes no folders); "
                            "no game was played").format(out=shown,
                                                          folder=quote(str(parent), 200)))
    if mode is not None and stat.S_ISDIR(mode):
        raise OutputError(_("--out {out} is a folder, not a file; no game was played")
                          .format(out=shown))
    if mode is not None and not stat.S_ISREG(mode):
        raise OutputError(_("--out {out} is not a regular file (a FIFO or a device): a weights "
                            "file is read back by the players; no game was played")
                          .format(out=shown))
    try:
        check_file_writable(name)
    except OSError as exc:
        raise OutputError(_("--out {out}: {reason}; no game was played").format(
            out=shown, reason=os_failure(exc))) from None
    folder = checkpoint_dir(path)
    if os.path.lexists(folder) and not folder.is_dir():
        raise OutputError(_("--out {out}: {folder}, where its games would be kept, is not a "
                            "folder; no game was played").format(out=shown,
                                                                 folder=quote(str(folder), 200)))
    return path


def _read_regular(path: Path, limit: int) -> bytes | None:
    """At most ``limit`` + 1 bytes of a regular file (never waited for: a FIFO), or None
    when it is not one."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        with os.fdopen(fd, "rb", closefd=False) as f:
            os.set_blocking(fd, True)
            return f.read(limit + 1)
    finally:
        os.close(fd)


def read_settings(meta: Path) -> dict[str, Any]:
    """The settings a checkpoint was started with. A file cut short or overwritten (it
    is written atomically, so by something else) is not taken for other settings: the
    user is told that it is damaged, not that they changed a setting."""
    def damaged(reason: str) -> TuneCheckpointError:
        return checkpoint_error(meta.parent, _("its settings.json cannot be read ({reason})")
                                .format(reason=reason))

    try:
        raw = _read_regular(meta, MAX_SETTINGS_BYTES)
    except OSError as exc:
        raise damaged(os_failure(exc)) from None
    if raw is None:
        raise damaged(_("not a regular file"))
    if len(raw) > MAX_SETTINGS_BYTES:
        raise damaged(_("over {limit} bytes").format(limit=MAX_SETTINGS_BYTES))
    try:
        doc = json.loads(raw)
    except RecursionError:
        raise damaged(_("nested too deep")) from None
    except ValueError as exc:      # not JSON, not UTF-8, or a number too long
        reason = (exc.msg if isinstance(exc, json.JSONDecodeError) else
                  _("not UTF-8 text") if isinstance(exc, UnicodeDecodeError) else
                  _("a number too long"))
        raise damaged(reason) from None
    if not isinstance(doc, dict) or not {"settings_hash", "games", "nodes", "seed"} <= set(doc):
        raise damaged(_("not the settings a tune writes"))
    return doc


def _game_row(line: bytes) -> dict[str, Any]:
    """One stored game, checked as far as the fit and the gate read it (ValueError,
    KeyError, TypeError or OverflowError when it is not one). A row of another shape
    would stop the fit with a traceback generations later; checked here, it is one
    more game played again."""
    row = json.loads(line)
    if not isinstance(row, dict):
        raise TypeError
    index, score, plies = row["index"], row["score"], row["plies"]
    if type(index) is not int or index < 0 or score not in (0, 0.5, 1) \
            or type(plies) is not int or not isinstance(row["adjudicated"], bool):
        raise ValueError
    positions = row["positions"]
    if not isinstance(positions, list) or len(positions) > MAX_GAME_POSITIONS:
        raise ValueError
    for position in positions:
        if not isinstance(position, list) or len(position) > len(NAMES):
            raise ValueError
        for i, amount in position:
            if not 0 <= int(i) < len(NAMES) or not math.isfinite(float(amount)):
                raise ValueError
    return row


def _lines(path: Path) -> Any:
    """The lines of ``path``, each at most ``MAX_GAME_LINE_BYTES`` (a longer one is
    given as ``b""``, read past in bounded pieces); nothing for a file that is not a
    regular one."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return
        os.set_blocking(fd, True)
        while True:
            line = f.readline(MAX_GAME_LINE_BYTES + 1)
            if not line:
                return
            if len(line) > MAX_GAME_LINE_BYTES and not line.endswith(b"\n"):
                while line and not line.endswith(b"\n"):
                    line = f.readline(65536)
                yield b""
                continue
            yield line


def read_games(path: Path, limit: int | None = None) -> dict[int, dict[str, Any]]:
    """The games stored in ``path`` by index (those below ``limit`` when given)."""
    done: dict[int, dict[str, Any]] = {}
    if not os.path.lexists(path):
        return done
    if not path.is_file():      # a FIFO would hang the games' append, a folder fail it
        raise checkpoint_error(path.parent, _("its {name} is not a regular file")
                               .format(name=path.name))
    for line in _lines(path):
        try:
            row = _game_row(line)
        except (ValueError, KeyError, TypeError, OverflowError, RecursionError):
            continue      # a line cut short by a kill, or damaged: that game is played again
        if limit is None or row["index"] < limit:
            done[row["index"]] = row
    return done


def has_games(folder: Path) -> bool:
    """Does the folder hold any game line (a generation file that is not empty)?"""
    try:
        return any(p.name.startswith("generation-") and p.suffix == ".jsonl"
                   and (not p.is_file() or p.stat().st_size > 0) for p in folder.iterdir())
    except OSError:
        return True     # cannot tell: treat it as holding games, so nothing is overwritten


def open_checkpoint(ckpt: Path, settings: dict[str, Any]) -> None:
    """Make or resume the games folder ``ckpt`` for a tune of ``settings``: its
    settings.json written when it holds no game yet (a run refused before its first
    game, say for a typo, does not block the corrected command), checked otherwise."""
    try:
        ckpt.mkdir(exist_ok=True)
    except OSError as exc:
        raise OutputError(_("{folder}: cannot make the folder for the tune's games ({reason})")
                          .format(folder=ckpt, reason=os_failure(exc))) from None
    meta = ckpt / "settings.json"
    games = has_games(ckpt)
    if os.path.lexists(meta):
        same = read_settings(meta) == settings
        if not same and games:
            raise checkpoint_error(ckpt, _("holds the games of a tune with other settings"))
        if same:
            return
    elif games:
        raise checkpoint_error(ckpt, _("holds games but no settings.json, so which tune played "
                                       "them cannot be told"))
    write_atomically(meta, json.dumps(settings, sort_keys=True))


__all__ = ["MAX_GAME_LINE_BYTES", "MAX_SETTINGS_BYTES", "MAX_TUNE_GAMES", "MAX_TUNE_GENERATIONS",
           "TuneCheckpointError", "TuneInterrupted", "check_tune_settings", "check_weights_out",
           "cluster_failure", "checkpoint_dir", "checkpoint_error", "has_games",
           "open_checkpoint", "read_games", "read_settings"]
