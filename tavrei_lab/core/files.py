"""Writing an output file so that a failure loses nothing.

A file the package writes (an SVG, a record, a table) is written to a
temporary file beside it and renamed over it only once every byte is on disk:
a full disk, a quota or an interrupted write leaves the old file exactly as it
was (a plain write had replaced a good 20,581-byte SVG with a truncated one),
and the error names the file that failed, not the stream it went through.

Only a regular file (or a name not yet taken) is replaced so: a FIFO, a device
such as ``/dev/null`` or ``/dev/full``, or a terminal is written in place, as
renaming over it would replace the device with a file. A FIFO nobody reads is
opened without blocking and refused, instead of waiting forever.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path


def _is_special(path: str) -> bool:
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except FileNotFoundError:
        return False
    except OSError:      # unreadable: the open below says why, naming the file
        return False


def _fail(exc: OSError, name: str) -> OSError:
    if exc.errno == errno.ENXIO:
        return OSError(exc.errno, "a pipe (FIFO) that nobody reads", name)
    return OSError(exc.errno, exc.strerror or str(exc), name)


def write_atomically(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write ``data`` (text is UTF-8 with ``\\n`` line ends) to ``path``: all of it, or
    an ``OSError`` naming ``path`` and the old file left untouched."""
    name = os.fspath(path)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if _is_special(name):
        _write_in_place(name, raw)
        return
    # a symbolic link is written through (its target replaced), not replaced by a file
    target = Path(os.path.realpath(name)) if os.path.islink(name) else Path(name)
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{target.name[:100]}.", suffix=".part",
                                    dir=target.parent if str(target.parent) else ".")
    except OSError as exc:
        raise _fail(exc, name) from None
    try:
        try:
            with open(fd, "wb") as f:
                f.write(raw)
                f.flush()
                os.fsync(f.fileno())
            try:
                mode = stat.S_IMODE(os.stat(target).st_mode)
            except OSError:          # a new file: the permissions a plain open would give
                umask = os.umask(0)
                os.umask(umask)
                mode = 0o666 & ~umask
            os.chmod(temp, mode)
            os.replace(temp, target)
        except OSError as exc:
            raise _fail(exc, name) from None
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise


def _write_in_place(name: str, raw: bytes) -> None:
    try:
        # non-blocking open: a FIFO nobody reads would otherwise block forever
        # (it fails with "No such device or address" instead); then an ordinary write
        fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NONBLOCK, 0o666)
        os.set_blocking(fd, True)
        with open(fd, "wb") as f:
            f.write(raw)
    except OSError as exc:
        raise _fail(exc, name) from None


__all__ = ["write_atomically"]
