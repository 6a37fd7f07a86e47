"""``tavrei-lab lessons [DIR]``: the tutorials and the classroom demo, written out of the package.

A pip user has no clone: the notebooks travel in the wheel (``tavrei_lab/lessons``,
copied from the repository's ``notebooks/`` when the wheel is built, see
``setup.py``), and this command writes them where JupyterLab can open them, with
the rules they link to. A copy the user changed is never overwritten (a lesson is
where a student's answers are); an unchanged one is simply written again.
"""

from __future__ import annotations

import argparse
import os
import stat
import sys
from importlib import resources
from pathlib import Path
from typing import Any

from tavrei_lab.core.files import os_failure, write_atomically
from tavrei_lab.core.reading import read_regular
from tavrei_lab.errors import ArgumentError, one_line
from tavrei_lab.i18n import gettext as _
from tavrei_lab.i18n import ngettext

#: Where the lessons go when no folder is named.
DEFAULT_DIR = "tavrei-lessons"
#: The rules pages written beside the notebooks of their language, where the notebooks'
#: links (``rules.md#a3-towers``) find them, and each page's source in a checkout.
RULES_PAGES = {"rules.md": "docs/rules.md", "ru/rules.md": "docs/ru/rules.md"}


def lesson_source() -> Any:   # a Traversable, or _Checkout
    """The shipped lessons: the wheel's ``tavrei_lab/lessons``, or in a checkout (an
    editable install) the repository's own ``notebooks/``, its one source."""
    shipped = resources.files("tavrei_lab").joinpath("lessons")
    if shipped.is_dir():
        return shipped
    checkout = Path(__file__).resolve().parents[2]
    if (checkout / "notebooks").is_dir() and all(
            (checkout / source).is_file() for source in RULES_PAGES.values()):
        return _Checkout(checkout)
    raise ArgumentError(_("this installation carries no lessons (tavrei_lab/lessons is "
                          "missing): reinstall the package from its wheel"))


class _Checkout:
    """A checkout laid out as the wheel's ``lessons`` folder: the notebooks, and the rules."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def files(self) -> dict[str, bytes]:
        found = {p.relative_to(self.root / "notebooks").as_posix(): p.read_bytes()
                 for p in (self.root / "notebooks").rglob("*.ipynb")
                 if ".ipynb_checkpoints" not in p.parts}
        for page, source in RULES_PAGES.items():
            found[page] = (self.root / source).read_bytes()
        return found


def _walk(folder: Any, prefix: str = "") -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    for entry in folder.iterdir():
        name = f"{prefix}{entry.name}"
        if entry.is_dir():
            out.update(_walk(entry, f"{name}/"))
        elif entry.name.endswith((".ipynb", ".md")):
            out[name] = entry.read_bytes()
    return out


def lesson_files() -> dict[str, bytes]:
    """Each lesson file's path in the lessons folder and its text as written out. The
    notebooks link to the rules page beside them (``rules.md``, ``ru/rules.md``), as in
    ``notebooks/`` of a checkout, so the folder needs nothing outside itself."""
    source = lesson_source()
    files = source.files() if isinstance(source, _Checkout) else _walk(source)
    return dict(sorted(files.items()))


def _blocked_by(folder: Path, name: str) -> str | None:
    """The first folder on the way to lesson ``name`` that is taken by something else (a
    file named ``ru``), as a lesson path; None when the way is clear or not made yet."""
    parts = name.split("/")[:-1]
    for depth in range(1, len(parts) + 1):
        step = "/".join(parts[:depth])
        try:
            mode = os.stat(folder / step).st_mode
        except FileNotFoundError:
            return step if os.path.lexists(folder / step) else None   # a dangling link
        except OSError:
            return step
        if not stat.S_ISDIR(mode):
            return step
    return None


def _same_as_shipped(target: Path, data: bytes) -> bool:
    """Does the regular file ``target`` hold exactly ``data``? Read no further than that."""
    if os.stat(target).st_size != len(data):
        return False
    return read_regular(target, len(data), OSError) == data


def _os_reason(exc: OSError) -> str:
    what = os_failure(exc)
    return f"{os.fsdecode(exc.filename)}: {what}" if exc.filename is not None else what


def write_lessons(folder: Path) -> tuple[list[str], list[str], list[str]]:
    """Write the lessons into ``folder``: (written, unchanged, kept) file names. Kept
    ones differ from the shipped text -- the user's work -- and are not touched.

    Nothing the user made is replaced or read past need: a name taken by a folder, a
    link (even a dangling one), a pipe or a device is kept, never opened (a FIFO there
    hung the command). A lesson that cannot be checked or written (unreadable, a file
    ``ru`` where the Russian folder goes, a read-only folder) does not stop the others:
    ``LessonsNotWritten`` names each after all the rest are written."""
    written: list[str] = []
    unchanged: list[str] = []
    kept: list[str] = []
    failed: dict[str, list[str]] = {}     # reason -> lesson names it stopped
    for name, data in lesson_files().items():
        target = folder / name
        blocker = _blocked_by(folder, name)
        if blocker is not None:
            failed.setdefault(_("{path} is not a folder").format(path=folder / blocker),
                              []).append(name)
            continue
        try:
            mode = os.lstat(target).st_mode
        except FileNotFoundError:
            mode = None
        except OSError as exc:
            failed.setdefault(_os_reason(exc), []).append(name)
            continue
        if mode is not None:
            if not stat.S_ISREG(mode):         # a folder, a link, a pipe: the user's
                kept.append(name)
                continue
            try:
                same = _same_as_shipped(target, data)
            except OSError as exc:
                failed.setdefault(_("the file there cannot be read ({reason})").format(
                    reason=exc), []).append(name)
                continue
            (unchanged if same else kept).append(name)
            continue
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(target, data)   # a half-written lesson is never left
        except OSError as exc:
            failed.setdefault(_os_reason(exc), []).append(name)
            continue
        written.append(name)
    if failed:
        raise LessonsNotWritten(folder, failed, written, unchanged, kept)
    return written, unchanged, kept


class LessonsNotWritten(ArgumentError):
    """Some lessons could not be checked or written; the others were (``written``...)."""

    def __init__(self, folder: Path, failed: dict[str, list[str]], written: list[str],
                 unchanged: list[str], kept: list[str]) -> None:
        self.failed, self.written, self.unchanged, self.kept = failed, written, unchanged, kept
        count = sum(len(names) for names in failed.values())
        super().__init__(ngettext(
            "{count} lesson file not written to {folder}; each is named above",
            "{count} lesson files not written to {folder}; each is named above", count).format(
                count=count, folder=folder))

    def lines(self, folder: Path) -> list[str]:
        """One line for each reason: why, and which lessons (by their names in ``folder``)
        it stopped."""
        out = []
        for reason, names in self.failed.items():
            shown = ", ".join(names[:2])
            if len(names) > 2:
                shown += _(" and {count} more").format(count=len(names) - 2)
            out.append(_("{reason}: not written: {files}").format(reason=reason, files=shown))
        return out


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("lessons", help=_("write the tutorials and the classroom demo into a "
                                         "folder"),
                       description=_("Write the tutorials (in English, and in Russian in ru/), "
                                     "the classroom demo and the rules into DIR, to open with "
                                     "`jupyter lab DIR`. A lesson you changed is never "
                                     "overwritten."))
    p.add_argument("dir", nargs="?", default=DEFAULT_DIR, metavar="DIR",
                   help=_("the folder to write into (default: ./{default_dir})")
                            .format(default_dir=DEFAULT_DIR))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if not args.dir:
        raise ArgumentError(_("an empty folder name; name the folder to write into (default: "
                              "{default_dir})").format(default_dir=DEFAULT_DIR))
    folder = Path(args.dir)
    if os.path.lexists(folder) and not folder.is_dir():
        raise ArgumentError(_("{dir}: not a folder").format(dir=args.dir))
    try:
        written, unchanged, kept = write_lessons(folder)
        failure = None
    except LessonsNotWritten as exc:
        written, unchanged, kept, failure = exc.written, exc.unchanged, exc.kept, exc
    print(ngettext("{count} lesson file written to {folder}",
                   "{count} lesson files written to {folder}", len(written)).format(
        count=len(written), folder=folder)
          + (ngettext(", {count} already there unchanged", ", {count} already there unchanged",
                      len(unchanged)).format(count=len(unchanged)) if unchanged else ""))
    for name in kept:
        target = folder / name
        if target.is_symlink() or not target.is_file():
            print(_("kept {file}: not a lesson file (a folder, a link or a special file); "
                    "move it away to get the shipped lesson").format(file=target),
                  file=sys.stderr)
        else:
            print(_("kept {file}: it differs from the shipped lesson (your changes); remove "
                    "it to get the shipped one back").format(file=target), file=sys.stderr)
    if failure is not None:
        for line in failure.lines(folder):
            print(_("tavrei-lab lessons: {message}").format(message=one_line(line)),
                  file=sys.stderr)
        raise failure
    print(_("open them with: jupyter lab {folder}").format(folder=folder))
    return 0
