"""Reading a small input file so that no path can hang the reader or fill memory.

A path a user names may be a FIFO (whose plain ``open`` waits for a writer for
ever), a device such as ``/dev/zero`` (endless), a folder, or a file far larger
than any the package writes. ``read_regular`` opens without blocking, checks
the open file (not the path, which can be swapped between a check and an open)
is a regular file, and reads at most its limit plus one byte, so "too large" is
known without reading the rest.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable

from tavrei_lab.i18n import gettext as _

#: How a refusal is built: the caller's own error class, from the reason in words.
Refusal = Callable[[str], Exception]


def open_regular(path: str | os.PathLike[str], refused: Refusal) -> int:
    """A file descriptor of the regular file at ``path``, opened for reading without
    waiting on a FIFO; anything else (a folder, a device, a pipe, a dangling link, no
    permission) is ``refused(reason)``. The caller closes the descriptor."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
                     | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0))
    except (OSError, ValueError) as exc:   # ValueError: a NUL byte in the name
        raise refused(str(getattr(exc, "strerror", None) or exc)) from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise refused(_kind(mode))
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return _("a folder, not a file")
    if stat.S_ISFIFO(mode):
        return _("a pipe (FIFO), not a regular file")
    return _("a device or other special file, not a regular file")


def read_regular(path: str | os.PathLike[str], limit: int, refused: Refusal) -> bytes:
    """The bytes of the regular file at ``path``, refused (``refused(reason)``) when it
    cannot be opened, is not a regular file, or holds more than ``limit`` bytes."""
    fd = open_regular(path, refused)
    try:
        chunks: list[bytes] = []
        size = 0
        while size <= limit:   # never past the limit, whatever the file's size says
            try:
                chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            except OSError as exc:
                raise refused(exc.strerror or str(exc)) from None
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if size > limit:
        raise refused(_("more than {limit} bytes").format(limit=f"{limit:,}"))
    return b"".join(chunks)
