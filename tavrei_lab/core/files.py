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
import hashlib
import json
import os
import shutil
import stat
import tempfile
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tavrei_lab.errors import OutputError, quote
from tavrei_lab.i18n import N_
from tavrei_lab.i18n import gettext as _

#: The system's words for the failures a user meets, said by the catalogue (``strerror``
#: is the C library's English whatever the language in force); the rest as the system says.
OS_FAILURES: dict[int, str] = {
    errno.ENOENT: N_("No such file or directory"),
    errno.EACCES: N_("Permission denied"),
    errno.EPERM: N_("Operation not permitted"),
    errno.EISDIR: N_("Is a directory"),
    errno.ENOTDIR: N_("Not a directory"),
    errno.EEXIST: N_("File exists"),
    errno.ENOSPC: N_("No space left on device"),
    errno.EROFS: N_("Read-only file system"),
    errno.ENAMETOOLONG: N_("File name too long"),
    errno.EBADF: N_("Bad file descriptor"),
    errno.EPIPE: N_("Broken pipe"),
    errno.EMFILE: N_("Too many open files"),
    errno.EIO: N_("Input/output error"),
    errno.ELOOP: N_("Too many levels of symbolic links"),
    errno.ENOTEMPTY: N_("Directory not empty"),
    errno.EXDEV: N_("Invalid cross-device link"),
}


def os_failure(exc: OSError) -> str:
    """What an ``OSError`` says, in the language in force where the catalogue knows it."""
    code = exc.errno
    known = OS_FAILURES.get(code) if isinstance(code, int) else None
    if known is not None and isinstance(code, int) and (
            exc.strerror is None or exc.strerror == os.strerror(code)):
        return _(known)
    return exc.strerror or str(exc)


def _is_special(path: str) -> bool:
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except FileNotFoundError:
        return False
    except OSError:      # unreadable: the open below says why, naming the file
        return False


def _fail(exc: OSError, name: str) -> OSError:
    if exc.errno == errno.ENXIO:
        return OSError(exc.errno, _("a pipe (FIFO) that nobody reads"), name)
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


# -- folders of outputs ---------------------------------------------------------------
#: The file in an output folder listing every file the package wrote there (with its
#: size and digest): an entry of the folder is replaced only when it is listed there,
#: unchanged; anything else in the folder is the user's and is never touched.
MANIFEST = "tavrei-lab-files.json"
#: The journal of a swap in progress: written once the new run is whole in its scratch
#: folder, removed once the swap is over. Finding it, the next save finishes the swap.
JOURNAL = ".tavrei-swap.json"
_SCRATCH = ".tavrei-save."
_TRASH = ".tavrei-old."
#: Largest manifest read (a run of 100,000 records lists about 15 MB).
MAX_MANIFEST_BYTES = 64 * 1024 * 1024


class NotOursError(OutputError):
    """An output folder holds, under a name the package writes, something it did not
    write (or that was changed since): it is not replaced, nor deleted."""


def _digest(path: Path) -> str:
    h = hashlib.blake2b(digest_size=16)
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _listing(folder: Path, names: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Every file under ``folder``'s entries called ``names``: size and digest by path."""
    files: dict[str, dict[str, Any]] = {}
    for name in names:
        top = folder / name
        paths = [top] if top.is_file() else sorted(p for p in top.rglob("*") if p.is_file())
        for p in paths:
            files[p.relative_to(folder).as_posix()] = {"bytes": p.stat().st_size,
                                                       "blake2b": _digest(p)}
    return files


def _read_manifest(out: Path) -> dict[str, dict[str, Any]] | None:
    """The files the manifest lists, ``{}`` without one, None when it is not ours."""
    path = out / MANIFEST
    if not os.path.lexists(path):
        return {}
    try:
        if os.path.islink(path) or not path.is_file() or \
                path.stat().st_size > MAX_MANIFEST_BYTES:
            return None
        doc = json.loads(path.read_bytes().decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    files = doc.get("files") if isinstance(doc, dict) else None
    if not (isinstance(doc, dict) and doc.get("written_by") == "tavrei_lab"
            and isinstance(files, dict)
            and all(isinstance(v, dict) for v in files.values())):
        return None
    return files


def _not_ours(out: Path, listed: dict[str, dict[str, Any]], name: str) -> Path | None:
    """The first path under ``out / name`` the package did not write, or None."""
    top = out / name
    if not os.path.lexists(top):
        return None
    if top.is_symlink() or not (top.is_file() or top.is_dir()):
        return top
    if top.is_file():
        paths = [top]
    else:
        paths = []
        for p in sorted(top.rglob("*")):
            if p.is_symlink() or not (p.is_file() or p.is_dir()):
                return p
            if p.is_file():
                paths.append(p)
    for p in paths:
        entry = listed.get(p.relative_to(out).as_posix())
        try:
            if entry is None or entry.get("bytes") != p.stat().st_size or \
                    entry.get("blake2b") != _digest(p):
                return p
        except OSError:
            return p
    return None


def _check_ours(out: Path, names: Sequence[str]) -> None:
    """A ``NotOursError`` naming the first entry of ``out`` called one of ``names`` (or
    the manifest) that the package did not write, or that changed since it did."""
    listed = _read_manifest(out)
    if listed is None:
        culprit: Path | None = out / MANIFEST
    else:
        culprit = next((p for p in (_not_ours(out, listed, n) for n in names
                                         if n != MANIFEST) if p), None)
    if culprit is not None and not os.path.lexists(out / MANIFEST):
        # (a folder written by a tavrei_lab that kept no manifest reads so too)
        raise NotOursError(_("{path}: the folder has no {manifest} listing the files "
                             "tavrei_lab wrote there, so it is not replaced; move it away "
                             "or choose another --out").format(
            path=quote(os.fspath(culprit), 200), manifest=MANIFEST))
    if culprit is not None:
        raise NotOursError(_("{path}: not written by tavrei_lab, or changed since: it is not "
                             "replaced; move it away or choose another --out")
                               .format(path=quote(os.fspath(culprit), 200)))


@contextmanager
def _locked(out: Path) -> Iterator[None]:
    """The folder locked against another process's save (a lock on the folder itself:
    no file is left behind, and a killed holder's lock goes with it)."""
    try:
        import fcntl
    except ImportError:          # (no such locks here: one save at a time is assumed)
        yield
        return
    try:
        fd = os.open(out, os.O_RDONLY)
    except OSError:              # a folder that cannot be opened so (a browser's file system)
        yield
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:          # a file system without locks (a browser's, some mounts)
            pass
        yield
    finally:
        os.close(fd)


def _finish_swap(out: Path, plan: dict[str, Any]) -> None:
    """Carry out a swap its journal describes; each step is a rename, and one already
    made is seen and skipped, so a swap cut off anywhere is finished by running this
    again: the old entries go to the trash folder (last name first), the new ones come
    in from the scratch folder (in order, the manifest last), then both folders go."""
    part, trash = out / plan["part"], out / plan["trash"]
    names, old, new = plan["names"], set(plan["old"]), set(plan["new"])
    trash.mkdir(exist_ok=True)
    for name in reversed(names):
        moved_in = name in new and not os.path.lexists(part / name)
        if name in old and not moved_in and not os.path.lexists(trash / name) \
                and os.path.lexists(out / name):
            os.rename(out / name, trash / name)
    for name in names:
        if name in new and os.path.lexists(part / name):
            os.rename(part / name, out / name)
    shutil.rmtree(trash, ignore_errors=True)
    shutil.rmtree(part, ignore_errors=True)
    os.unlink(out / JOURNAL)


def _safe_name(name: Any, prefix: str) -> bool:
    return isinstance(name, str) and name.startswith(prefix) and "/" not in name \
        and os.sep not in name and name not in (".", "..")


def recover_output_folder(folder: str | os.PathLike[str]) -> None:
    """Finish, or clean up after, a save into ``folder`` that was cut off (a kill, a
    power cut): a swap whose journal is there is finished (its new run was whole
    before the first rename); a scratch folder without a journal held a run not yet
    whole and goes. Callers hold the folder's lock. A hidden folder of replaced
    files left without a journal (by an older tavrei_lab) is not deleted, only named
    in a warning: it may hold what the user wants back."""
    out = Path(folder)
    journal = out / JOURNAL
    if os.path.lexists(journal):
        try:
            plan = json.loads(journal.read_bytes()[:MAX_MANIFEST_BYTES].decode("utf-8"))
            ok = isinstance(plan, dict) and _safe_name(plan.get("part"), _SCRATCH) \
                and _safe_name(plan.get("trash"), _TRASH) and all(
                    isinstance(plan.get(k), list) and
                    all(isinstance(n, str) and _safe_name(n, "") for n in plan[k])
                    for k in ("names", "old", "new"))
        except (OSError, ValueError, RecursionError):
            ok = False
        if not ok:
            raise OutputError(_("{path}: the journal of an earlier save is damaged; look "
                                "through the folder, then delete it").format(
                path=quote(os.fspath(journal), 200)))
        _finish_swap(out, plan)
        warnings.warn(_("{path}: an earlier save into this folder was cut off; it has been "
                        "finished").format(path=quote(os.fspath(out), 200)),
                      RuntimeWarning, stacklevel=3)
    for entry in sorted(out.iterdir()):
        if entry.name.startswith(_SCRATCH) and entry.name.endswith(".part") \
                and entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        elif entry.name.startswith(f".{JOURNAL}.") and entry.name.endswith(".part") \
                and entry.is_file() and not entry.is_symlink():
            os.unlink(entry)          # a journal cut off while written: no swap began
        elif entry.name.startswith(_TRASH):
            warnings.warn(_("{path}: left by a save that was cut off, it holds files that "
                            "were being replaced: look through it, then delete it").format(
                path=quote(os.fspath(entry), 200)), RuntimeWarning, stacklevel=3)


def check_output_folder(folder: str | os.PathLike[str], names: Sequence[str]) -> None:
    """A ``NotOursError`` now if a save into ``folder`` would have to replace something
    the package did not write there (a file of the user's called ``settings.json``,
    ``records/`` holding the user's own games). Asked before a run of games; a save
    cut off earlier is finished first (``recover_output_folder``)."""
    out = Path(folder)
    if not out.is_dir():
        return
    with _locked(out):
        recover_output_folder(out)
        _check_ours(out, [*names, MANIFEST])


def replace_entries(folder: str | os.PathLike[str], fresh: str | os.PathLike[str],
                    names: Sequence[str]) -> None:
    """Put ``fresh``'s entries called ``names`` in ``folder`` in place of the ones there.

    An output folder holds one run's files (records, tables, plots); writing a new run
    over an old one file by file left the old run's extra files beside the new. So a
    run is written whole into ``fresh`` (a folder inside ``folder``) first and only then
    swapped in by renames (``_finish_swap``), after a journal naming every step is on
    disk: a swap cut off anywhere is finished by the next save. ``fresh`` gets a
    manifest (``MANIFEST``) of what it holds, put in last. Only entries the folder's
    manifest lists, unchanged, are replaced; anything else called one of ``names`` is
    refused (``NotOursError``), and other entries -- the user's own -- are left alone.
    """
    out, new = Path(folder), Path(fresh)
    if new.parent.resolve() != out.resolve() or not _safe_name(new.name, _SCRATCH):
        raise ValueError(_("{path}: not a scratch folder of {folder} (see swapped_in)")
                             .format(path=quote(os.fspath(new), 200),
                                     folder=quote(os.fspath(out), 200)))
    entries = [*names, MANIFEST]
    _check_ours(out, entries)
    listing = _listing(new, [n for n in names if os.path.lexists(new / n)])
    write_atomically(new / MANIFEST, json.dumps(
        {"written_by": "tavrei_lab", "files": listing}, indent=1, sort_keys=True) + "\n")
    plan = {"part": new.name, "trash": f"{_TRASH}{new.name[len(_SCRATCH):-len('.part')]}",
            "names": entries, "old": [n for n in entries if os.path.lexists(out / n)],
            "new": [n for n in entries if os.path.lexists(new / n)]}
    write_atomically(out / JOURNAL, json.dumps(plan))
    try:
        _finish_swap(out, plan)
    except BaseException:
        _roll_back(out, plan)
        raise


def _roll_back(out: Path, plan: dict[str, Any]) -> None:
    """Undo a swap that failed in this process (a rename refused): the new entries
    back to the scratch folder, the old ones back in place, the journal gone. What
    cannot be put back stays, with the journal, for the next save to finish."""
    part, trash = out / plan["part"], out / plan["trash"]
    try:
        for name in reversed(plan["names"]):
            if name in plan["new"] and not os.path.lexists(part / name) \
                    and os.path.lexists(out / name):
                os.rename(out / name, part / name)
        for name in plan["names"]:
            if os.path.lexists(trash / name) and not os.path.lexists(out / name):
                os.rename(trash / name, out / name)
        os.rmdir(trash)
        os.unlink(out / JOURNAL)
    except OSError:
        pass


@contextmanager
def swapped_in(folder: str | os.PathLike[str], names: Sequence[str]) -> Iterator[Path]:
    """A scratch folder inside ``folder`` to write a whole run into; once the block ends
    without an error, its entries called ``names`` replace ``folder``'s
    (``replace_entries``), and the scratch folder goes either way. A run that fails
    halfway leaves the earlier run in ``folder`` as it was; a save cut off before is
    finished first, and an entry the package did not write is refused before anything
    is written (``NotOursError``). The folder is locked against another save meanwhile."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    with _locked(out):
        recover_output_folder(out)
        _check_ours(out, [*names, MANIFEST])
        part = Path(tempfile.mkdtemp(prefix=_SCRATCH, suffix=".part", dir=out))
        try:
            yield part
            replace_entries(out, part, names)
        finally:
            if not os.path.lexists(out / JOURNAL):   # a journal: the swap is finished later
                shutil.rmtree(part, ignore_errors=True)


__all__ = ["JOURNAL", "MANIFEST", "NotOursError", "check_file_writable",
           "check_folder_writable", "check_output_folder", "recover_output_folder",
           "os_failure", "replace_entries", "swapped_in", "write_atomically"]
