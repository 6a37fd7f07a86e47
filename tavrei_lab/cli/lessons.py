"""``tavrei-lab lessons [DIR]``: the tutorials and the classroom demo, written out of the package.

A pip user has no clone: the notebooks travel in the wheel (``tavrei_lab/lessons``,
copied from the repository's ``notebooks/`` when the wheel is built, see
``setup.py``), and this command writes them where JupyterLab can open them, with
the rules they link to. A copy the user changed is never overwritten (a lesson is
where a student's answers are); an unchanged one is simply written again.
"""

from __future__ import annotations

import argparse
import sys
from importlib import resources
from pathlib import Path
from typing import Any

from tavrei_lab.core.files import write_atomically
from tavrei_lab.errors import ArgumentError
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


def write_lessons(folder: Path) -> tuple[list[str], list[str], list[str]]:
    """Write the lessons into ``folder``: (written, unchanged, kept) file names. Kept
    ones differ from the shipped text -- the user's work -- and are not touched."""
    written, unchanged, kept = [], [], []
    files = lesson_files()
    for name, data in files.items():
        target = folder / name
        if target.exists():
            if target.is_dir() or target.read_bytes() != data:
                kept.append(name)
                continue
            unchanged.append(name)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(target, data)   # a half-written lesson is never left
        written.append(name)
    return written, unchanged, kept


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("lessons", help=_("write the tutorials and the classroom demo into a "
                                         "folder"),
                       description=_("Write the tutorials (English, and Russian in ru/ where "
                                     "translated), the classroom demo and the rules into DIR, "
                                     "to open with `jupyter lab DIR`. A lesson you changed is "
                                     "never overwritten."))
    p.add_argument("dir", nargs="?", default=DEFAULT_DIR, metavar="DIR",
                   help=_("the folder to write into (default: ./{default_dir})")
                            .format(default_dir=DEFAULT_DIR))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    folder = Path(args.dir)
    if folder.exists() and not folder.is_dir():
        raise ArgumentError(_("{dir}: not a folder").format(dir=args.dir))
    written, unchanged, kept = write_lessons(folder)
    print(ngettext("{count} lesson file written to {folder}",
                   "{count} lesson files written to {folder}", len(written)).format(
        count=len(written), folder=folder)
          + (ngettext(", {count} already there unchanged", ", {count} already there unchanged",
                      len(unchanged)).format(count=len(unchanged)) if unchanged else ""))
    for name in kept:
        print(_("kept {file}: it differs from the shipped lesson (your changes); remove it to "
                "get the shipped one back").format(file=folder / name), file=sys.stderr)
    print(_("open them with: jupyter lab {folder}").format(folder=folder))
    return 0
