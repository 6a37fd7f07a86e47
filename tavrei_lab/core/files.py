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
import shutil
import stat
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
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


def check_file_writable(path: str | os.PathLike[str]) -> None:
    """An ``OSError`` naming ``path`` now if ``write_atomically`` could not write it later.

    A command that plays a game first and writes its record after asks this before the
    first move: a folder given as the file, or a folder that is missing or closed to us,
    would otherwise be found only once the game -- perhaps typed by hand -- is over.
    Nothing is created. A device or a FIFO passes: it is written in place, and a FIFO's
    reader may come only later.
    """
    name = os.fspath(path)
    try:
        mode = os.stat(name).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise _fail(exc, name) from None
    if mode is not None and stat.S_ISDIR(mode):
        raise OSError(errno.EISDIR, os.strerror(errno.EISDIR), name)
    if mode is not None and not stat.S_ISREG(mode):
        return
    target = os.path.realpath(name) if os.path.islink(name) else name
    _check_folder_open(os.path.dirname(target) or ".")


def check_folder_writable(path: str | os.PathLike[str]) -> None:
    """An ``OSError`` naming the culprit now if a folder of outputs could not be written
    at ``path`` later: ``path`` (or, while it is missing, the nearest folder above it,
    where it would be made) must be a folder we may write in.

    Asked before a run of games, whose results would otherwise be lost to a file
    standing where the folder should be. Nothing is created.
    """
    probe = os.path.normpath(os.fspath(path))
    while not os.path.lexists(probe):
        parent = os.path.dirname(probe) or "."
        if parent == probe:
            break
        probe = parent
    _check_folder_open(probe)


def _check_folder_open(folder: str) -> None:
    try:
        mode = os.stat(folder).st_mode
    except OSError as exc:
        raise _fail(exc, folder) from None
    if not stat.S_ISDIR(mode):
        raise OSError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), folder)
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OSError(errno.EACCES, os.strerror(errno.EACCES), folder)


def replace_entries(folder: str | os.PathLike[str], fresh: str | os.PathLike[str],
                    names: Sequence[str]) -> None:
    """Put ``fresh``'s entries called ``names`` in ``folder`` in place of the ones there.

    An output folder holds one run's files (records, tables, plots); writing a new run
    over an old one file by file left the old run's extra files beside the new (four
    records of one run, two of the next, and a games table listing two). So a run is
    written whole into ``fresh`` first (a folder on the same file system) and only then
    swapped in by renames: every old entry called ``names`` is taken out first, last
    name first, then the new ones put in, in order; what is put in last (a run's
    ``settings.json``) being there says the run is complete. Other entries of
    ``folder`` -- the user's own -- are left alone. A failed rename puts back what it
    can; what it cannot is kept in a hidden ``.tavrei-old.*`` folder, not deleted.
    """
    out, new = Path(folder), Path(fresh)
    trash = Path(tempfile.mkdtemp(prefix=".tavrei-old.", dir=out))
    taken: list[str] = []
    put: list[str] = []
    try:
        for name in reversed(names):
            if os.path.lexists(out / name):
                os.rename(out / name, trash / name)
                taken.append(name)
        for name in names:
            if os.path.lexists(new / name):
                os.rename(new / name, out / name)
                put.append(name)
    except BaseException:
        try:
            for name in reversed(put):
                os.rename(out / name, new / name)
            for name in reversed(taken):
                os.rename(trash / name, out / name)
            os.rmdir(trash)
        except OSError:
            pass                  # what could not be put back stays in the hidden folder
        raise
    shutil.rmtree(trash, ignore_errors=True)


@contextmanager
def swapped_in(folder: str | os.PathLike[str], names: Sequence[str]) -> Iterator[Path]:
    """A scratch folder inside ``folder`` to write a whole run into; once the block ends
    without an error, its entries called ``names`` replace ``folder``'s
    (``replace_entries``), and the scratch folder goes either way. A run that fails
    halfway leaves the earlier run in ``folder`` as it was."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    part = Path(tempfile.mkdtemp(prefix=".tavrei-save.", suffix=".part", dir=out))
    try:
        yield part
        replace_entries(out, part, names)
    finally:
        shutil.rmtree(part, ignore_errors=True)


__all__ = ["check_file_writable", "check_folder_writable", "replace_entries", "swapped_in",
           "write_atomically"]
