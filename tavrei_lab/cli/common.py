"""Arguments and helpers shared by several subcommands."""

from __future__ import annotations

import argparse
import errno
import json
import os
import select
import shutil
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from tavrei_lab.core.files import (
    NotOursError,
    check_file_writable,
    check_folder_writable,
    check_output_folder,
    os_failure,
    write_atomically,
)
from tavrei_lab.core.progress import (  # noqa: F401 -- the commands' progress flags
    add_progress_flags,
    progress_mode,
    wants_progress_lines,
)
from tavrei_lab.errors import LimitError, OutputError, RecordError, TavreiError, quote
from tavrei_lab.game import Game
from tavrei_lab.i18n import gettext as _
from tavrei_lab.lab.parallel import EXECUTOR_NAMES
from tavrei_lab.notation.record import MAX_RECORD_BYTES

#: Most worker processes or threads one run of games may start.
MAX_WORKERS = 64


def add_variant(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", default=None, metavar="ID|FILE",
                        help=_("variant id (see `tavrei-lab variants`) or a variant .toml file "
                               "(default: tavreli, or the record's Variant tag)"))


def add_start(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--moves", default="", metavar="MOVETEXT",
                        help=_('moves to play first, e.g. "e2-e4 e7-e5"'))
    parser.add_argument("--position", default=None, metavar="STR",
                        help=_("start from this position string (or FEN)"))


def add_run_options(parser: argparse.ArgumentParser, *, out_help: str) -> None:
    """Where the games of a run are played, and what it writes: ``--executor``,
    ``--scheduler``, ``--workers``, ``--out`` (``out_help`` says what goes there)
    and ``--no-progress``. ``compare`` and ``sweep`` take the same ones, so their
    help and checks stay in step; ``run_executor`` reads them."""
    parser.add_argument("--executor", choices=EXECUTOR_NAMES, default="processes",
                        help=_("where games run without --scheduler (default: processes, one "
                               "per core)"))
    parser.add_argument("--scheduler", default=None, metavar="ADDRESS",
                        help=_("run the games on this dask scheduler (e.g. tcp://host:8786; the "
                               "[cluster] extra)"))
    parser.add_argument("--workers", type=int, default=None, metavar="N",
                        help=_("parallel workers, 1..{max_workers} (default: the number of "
                               "cores)").format(max_workers=MAX_WORKERS))
    parser.add_argument("--out", default=None, metavar="DIR", help=out_help)
    add_progress_flags(parser)




@contextmanager
def run_executor(args: argparse.Namespace) -> Iterator[Any]:
    """The executor for ``add_run_options``' arguments: a dask client for
    ``--scheduler`` (closed when the run ends, however it ends), else the
    ``--executor`` name. ``--workers`` is checked first, before anything starts."""
    if args.workers is not None and not 1 <= args.workers <= MAX_WORKERS:
        raise LimitError(_("--workers must be 1..{max_workers}, got {workers}")
                             .format(max_workers=MAX_WORKERS, workers=args.workers))
    if args.scheduler is None:
        yield args.executor
        return
    client = connect_scheduler(args.scheduler)
    try:
        with _quiet_cluster_logs():
            try:
                yield client
            finally:
                client.close()
    except Exception as exc:
        if not (type(exc).__module__.split(".")[0] in ("distributed", "tornado")
                and not isinstance(exc, TavreiError)):
            raise
        raise TavreiError(_("--scheduler {shown}: the dask cluster failed ({name})").format(
            shown=args.scheduler.strip()[:200], name=type(exc).__name__)) from None


#: The loggers a dask client reports through: a worker or scheduler killed mid-run
#: made them print 25-36 lines of tracebacks above the command's own one line.
CLUSTER_LOGGERS = ("distributed", "tornado", "asyncio")


@contextmanager
def _quiet_cluster_logs() -> Iterator[None]:
    """The dask client's own logging kept off the terminal while a command uses it:
    what failed is the command's one line (and the games kept), as the package says
    everywhere. The loggers' levels are put back after."""
    import logging
    names = [name for name in list(logging.Logger.manager.loggerDict)
             if name.split(".")[0] in CLUSTER_LOGGERS]   # dask sets its children's levels
    saved = [(logging.getLogger(name), logging.getLogger(name).level)
             for name in {*CLUSTER_LOGGERS, *names}]
    for logger, _level in saved:
        logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for logger, level in saved:
            logger.setLevel(level)


def game_from_args(args: argparse.Namespace) -> Game:
    """A game of ``--variant`` from ``--position``, after ``--moves``."""
    game = Game(args.variant or "tavreli", args.position)
    if args.moves:
        game.play(args.moves)
    return game


#: How long ``replay`` waits for a named pipe (FIFO) or device to deliver its text, in
#: seconds: a pipe that nobody writes to would otherwise block the command forever.
PIPE_WAIT_SECONDS = 10.0
#: Longest line typed at ``play --human``'s prompt (a move is at most 64 characters).
MAX_TYPED_LINE = 256


def _decode(raw: bytes, where: str, limit: int | None = None) -> str:
    if limit is not None and len(raw) >= limit:
        # over the record limit whatever it says: a character cut at the end is no reason
        return raw.decode("utf-8", errors="replace")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(_("{where}: not UTF-8 text ({reason} at byte {start})")
                              .format(where=where, reason=exc.reason, start=exc.start)) \
            from None


def read_input(name: str, wait: float = PIPE_WAIT_SECONDS) -> str:
    """The text of FILE (or stdin for ``-``), read only up to just past the record limit
    (so ``/dev/zero`` or an endless pipe cannot fill memory); not UTF-8 is a RecordError.

    A named pipe or a device must deliver all its text within ``wait`` seconds: a FIFO
    with no writer, or a writer that stops, is a ``RecordError``, not a hang. (Standard
    input is someone typing, or a pipe the shell made: it is waited for.)
    """
    limit = MAX_RECORD_BYTES * 4 + 4   # UTF-8 takes at most 4 bytes per character
    if name == "-":
        if sys.stdin is None:
            raise OSError(9, _("standard input is closed"))
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:   # a text stream standing in for stdin (tests, notebooks)
            try:
                return sys.stdin.read(MAX_RECORD_BYTES + 1)
            except UnicodeDecodeError as exc:
                raise RecordError(_("standard input: not UTF-8 text ({reason} at byte {start})")
                                      .format(reason=exc.reason, start=exc.start)) from None
        return _decode(stream.read(limit), _("standard input"), limit)[:MAX_RECORD_BYTES + 1]
    fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK)   # a FIFO's open does not wait then
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise OSError(21, _("is a directory"), name)
        if stat.S_ISREG(mode):
            os.set_blocking(fd, True)
            with os.fdopen(fd, "rb", closefd=False) as f:
                raw = f.read(limit)
        else:
            raw = _read_pipe(fd, limit, wait, name)
    except OSError as exc:
        if exc.filename is None:
            exc.filename = name
        raise
    finally:
        os.close(fd)
    return _decode(raw, name, limit)[:MAX_RECORD_BYTES + 1]


def _read_pipe(fd: int, limit: int, wait: float, name: str) -> bytes:
    """Read a pipe or device until its end (or ``limit`` bytes) within ``wait`` seconds."""
    deadline = time.monotonic() + wait
    poller = select.poll()
    poller.register(fd, select.POLLIN | select.POLLHUP)
    chunks: list[bytes] = []
    size = 0
    while size < limit:
        left = deadline - time.monotonic()
        if left <= 0 or not poller.poll(left * 1000):
            what = _("sent nothing") if not size else _("did not finish")
            raise RecordError(_("{name}: the pipe or device {what} in {wait:g} s (a FIFO with "
                                "no writer?)").format(name=name, what=what, wait=wait))
        try:
            chunk = os.read(fd, min(65536, limit - size))
        except BlockingIOError:
            continue
        if not chunk:
            if size or _had_writer(poller):
                break
            time.sleep(min(0.05, max(left, 0)))   # no writer yet: it may still come
            continue
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _had_writer(poller: select.poll) -> bool:
    """After an empty read: did a writer come and go (POLLHUP), so this is the end?"""
    return any(ev & select.POLLHUP for _, ev in poller.poll(0))


def write_output(name: str, text: str) -> None:
    """Write ``text`` to the file ``name`` (``-``: standard output). A failure -- a full
    disk, a closed stdout -- is an ``OSError`` naming the file, for one line of error;
    a file is replaced only once all of it is written (``core.files``)."""
    if name == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    write_atomically(name, text)   # a failure leaves the old file and names this one


def os_reason(exc: OSError) -> str:
    """An ``OSError`` as the one line the command reports: the file it names, and why."""
    what = os_failure(exc)
    if exc.filename is None:
        return what
    return f"{quote(os.fsdecode(exc.filename), 200)}: {what}"


def check_out(out: str | None, *, folder: bool, entries: Sequence[str] = ()) -> None:
    """Refuse ``--out`` before any game is played if what it names cannot be written
    (a folder of outputs for ``folder``, else one file; ``-`` is standard output), or
    if a folder holds, under one of the names the run writes (``entries``), something
    the package did not write there (``core.files.check_output_folder``).

    ``compare``, ``sweep`` and ``play`` wrote only at the end: ``--out`` naming a file
    where a folder was needed (or a folder where a file was) failed after every game
    was played, and the games -- a person's typed moves among them -- were lost.
    """
    if not out or (out == "-" and not folder):
        return
    try:
        (check_folder_writable if folder else check_file_writable)(out)
    except OSError as exc:
        culprit = os.fsdecode(exc.filename) if exc.filename is not None else out
        path = quote(culprit, 200)
        if exc.errno == errno.EISDIR:
            why = _("{path} is a folder, not a file").format(path=path)
        elif exc.errno in (errno.ENOTDIR, errno.EEXIST):
            why = _("{path} is not a folder").format(path=path)
        elif exc.errno == errno.EACCES:
            why = _("{path} is a folder we may not write in").format(path=path)
        elif exc.errno == errno.ENOENT:
            why = _("{path}: no such folder").format(path=path)
        else:
            why = os_reason(exc)
        if culprit == out:        # "--out 'd1' is a folder, not a file; ..."
            raise OutputError(_("--out {why}; no game was played").format(why=why)) from None
        raise OutputError(_("--out {out}: {why}; no game was played").format(
            out=quote(out, 200), why=why)) from None
    if folder and entries:
        try:
            check_output_folder(out, entries)
        except NotOursError as exc:
            raise OutputError(_("--out {why}; no game was played").format(why=exc)) from None


def save_run(save: Callable[[str], Any], out: str, command: str) -> Any:
    """``save(out)``; if that fails after all (a disk that filled up during the run),
    ``save`` into a new folder of the system's temporary folder and an ``OutputError``
    saying where: a run's games are not lost to a failed write."""
    try:
        return save(out)
    except OSError as exc:
        first = os_reason(exc)
    except NotOursError as exc:   # a file of the user's put there while the games ran
        first = str(exc)
    spare = ""
    try:
        spare = tempfile.mkdtemp(prefix=f"tavrei-lab-{command}-")
        save(spare)
    except OSError as exc:
        if spare:                     # a half-written folder would pass for the results
            shutil.rmtree(spare, ignore_errors=True)
        raise OutputError(_("{reason}; a temporary folder would not take the results either "
                            "({reason2}): they are lost").format(
            reason=first, reason2=os_reason(exc))) from None
    raise OutputError(_("{reason}; the results are saved in {spare} instead").format(
        reason=first, spare=spare))


class TypedLines:
    """Lines a person types, read with the bounds ``replay -`` reads with: each line at
    most ``MAX_TYPED_LINE`` characters (the rest of a longer one is skipped), and all of
    them together at most ``MAX_RECORD_BYTES`` -- ``/dev/zero`` as input ends the game
    with a message instead of filling memory."""

    def __init__(self, stream: Any, line_limit: int = MAX_TYPED_LINE,
                 total_limit: int | None = None) -> None:
        self.stream = stream
        self.line_limit = line_limit
        self.total_limit = MAX_RECORD_BYTES if total_limit is None else total_limit
        self.total = 0
        self.ended = ""          # why no more lines come: "" while they still may
        self.failed = False      # ended by input that is not lines of text (not a plain end)
        self.last_too_long = False

    def readline(self) -> str | None:
        """The next line (without its end), ``""`` for a line that was too long, or None
        when the input ended (``ended`` says why)."""
        self.last_too_long = False
        line = self._read(self.line_limit + 1)
        if line is None:
            return None
        if len(line) <= self.line_limit or line.endswith("\n"):
            return line.rstrip("\r\n")
        self.last_too_long = True
        while not line.endswith("\n"):     # skip the rest of the long line, still bounded
            line = self._read(4096)
            if line is None:
                return None
            if not line:
                break
        return ""

    def _read(self, n: int) -> str | None:
        room = self.total_limit - self.total
        if room <= 0:
            self._fail(_("more than {limit} characters typed").format(limit=self.total_limit))
            return None
        if self.stream is None:        # started with standard input closed (<&-)
            self._fail(_("the input is closed"))
            return None
        try:
            line = self.stream.readline(min(n, room))
        except UnicodeDecodeError:
            self._fail(_("the input is not UTF-8 text"))
            return None
        except (OSError, ValueError):
            self._fail(_("the input cannot be read"))
            return None
        if not line:
            self.ended = _("end of input")
            return None
        self.total += len(line)
        return line

    def _fail(self, why: str) -> None:
        self.ended = why
        self.failed = True


def print_json(obj: Any) -> None:
    print(json.dumps(obj, ensure_ascii=False))


#: How long ``--scheduler`` may take to connect and finish dask's handshake, in seconds.
SCHEDULER_TIMEOUT = 20.0


def connect_scheduler(address: str, timeout: float | None = None) -> Any:
    """A ``distributed.Client`` for ``--scheduler ADDRESS``, or a one-line error saying
    what is missing (the optional ``[cluster]`` extra, or a scheduler that answers).

    The whole handshake is bounded: something that accepts TCP but is not a dask
    scheduler (a web server, the dashboard's port, a silent listener, random bytes)
    is an error after ``SCHEDULER_TIMEOUT`` seconds, not a command that waits forever.
    """
    wait = SCHEDULER_TIMEOUT if timeout is None else timeout
    shown = address.strip()[:200]
    if not shown:
        raise TavreiError(_("--scheduler '': no address; give tcp://HOST:PORT (or HOST:PORT), "
                            "or leave --scheduler out to run the games here"))
    scheme = shown.split("://", 1)[0].lower() if "://" in shown else "tcp"
    if scheme != "tcp":
        raise TavreiError(_("--scheduler {shown}: {scheme}:// addresses are not supported; give "
                            "a tcp://HOST:PORT address").format(shown=shown, scheme=scheme))
    host, port = scheduler_host_port(shown)
    _probe(shown, host, port, wait)
    try:
        from distributed import Client  # the optional [cluster] extra, imported when asked
    except ImportError:
        raise TavreiError(_("--scheduler needs dask.distributed: install the cluster extra (pip "
                            "install 'tavrei_lab[cluster]')")) from None
    import threading
    box: dict[str, Any] = {}

    def connect() -> None:
        try:
            box["client"] = Client(shown, timeout=wait)
        except BaseException as exc:   # delivered to the caller below, as one line
            box["error"] = exc

    thread = threading.Thread(target=connect, name="tavrei-connect", daemon=True)
    thread.start()
    thread.join(wait + 2)
    if thread.is_alive() or ("client" not in box and "error" not in box):
        raise TavreiError(_("--scheduler {shown}: no dask scheduler answered within {wait:g} s "
                            "(is it a scheduler's address, not the dashboard's?)")
                              .format(shown=shown, wait=wait))
    if "error" in box:
        exc = box["error"]
        if isinstance(exc, KeyboardInterrupt):
            raise exc
        what = " ".join(str(exc).split())[:200] or type(exc).__name__
        if isinstance(exc, MemoryError):
            what = _("it answered with something that is not dask's protocol")
        raise TavreiError(_("--scheduler {shown}: cannot connect to a dask scheduler: {what}")
                              .format(shown=shown, what=what)) from None
    return box["client"]


def scheduler_host_port(shown: str) -> tuple[str, int]:
    """The host and port of a ``--scheduler`` address (``tcp://HOST:PORT``, ``HOST:PORT``,
    ``[IPv6]:PORT``; dask's 8786 when the port is left out), refused at once when it
    cannot be one: a port past 65535 or an empty host made dask retry for its whole
    timeout before it said "Timed out"."""
    rest = shown.split("://", 1)[1] if "://" in shown else shown
    rest = rest.rstrip("/")
    if rest.startswith("["):
        host, bracket, tail = rest[1:].partition("]")
        port_text = tail[1:] if tail.startswith(":") else ("" if not tail else None)
        if not bracket or port_text is None:
            port_text = None
    elif rest.count(":") == 1:
        host, _colon, port_text = rest.partition(":")
        port_text = port_text or None           # "HOST:" names no port
    else:
        host, port_text = rest, ("" if ":" not in rest else None)
    if port_text is None or not host.strip():
        raise TavreiError(_("--scheduler {shown}: not an address; give tcp://HOST:PORT (or "
                            "HOST:PORT)").format(shown=shown))
    if not port_text:
        return host, 8786
    if not (port_text.isascii() and port_text.isdigit() and 1 <= int(port_text[:6]) <= 65535):
        raise TavreiError(_("--scheduler {shown}: the port must be a number 1..65535, got "
                            "{port!r}").format(shown=shown, port=port_text[:20]))
    return host, int(port_text)


def _probe(shown: str, host: str, port: int, wait: float) -> None:
    """Is anything listening at ``host:port``? A refused connection or an unknown host is
    said at once, in the words of what happened (dask retries them for its whole
    timeout, and its last error spoke of a protocol when nothing had answered)."""
    import socket
    try:
        with socket.create_connection((host, port), timeout=wait):
            return
    except socket.gaierror as exc:
        raise TavreiError(_("--scheduler {shown}: no such host ({reason})")
                          .format(shown=shown, reason=exc.strerror or exc)) from None
    except TimeoutError:
        raise TavreiError(_("--scheduler {shown}: nothing answered within {wait:g} s")
                          .format(shown=shown, wait=wait)) from None
    except ConnectionRefusedError:
        raise TavreiError(_("--scheduler {shown}: nothing is listening there (connection "
                            "refused); is the scheduler started?").format(shown=shown)) from None
    except (OSError, ValueError, OverflowError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise TavreiError(_("--scheduler {shown}: cannot connect: {reason}")
                          .format(shown=shown, reason=reason)) from None
