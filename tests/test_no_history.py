"""History lives in the CHANGELOG and the commit messages: the package, the docs, the
notebooks, the README, the benchmarks and the tests say why, never which issue.

A comment or docstring that cites "issue 27" tells a reader where a line came from,
not what it guards, and goes stale as the issues are closed; a test named after an
issue says nothing of what it checks. CHANGELOG.md is the one file that may cite them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: "issue 27", "Issue 25 item 3", "issue 26.8", "issue-27", "issues 23", "issue #12".
CITATION = re.compile(r"\bissues?[ -]?#?\d+", re.IGNORECASE)
#: The files whose words a reader of the project meets, by suffix.
TEXT_SUFFIXES = {".py", ".pyx", ".pxd", ".toml", ".json", ".po", ".md", ".txt", ".rst",
                 ".css", ".js", ".html", ".cfg", ".ipynb", ".yml", ".yaml"}
#: Where they live: folders walked whole, and single files.
FOLDERS = ["tavrei_lab", "docs", "notebooks", "benchmarks", "binder", "tests", "scripts"]
FILES = ["README.md", "Makefile", "pyproject.toml", "CONTRIBUTING.md"]
#: Built or fetched, never written by hand: a docs build, caches.
SKIPPED_PARTS = {"_build", "__pycache__", ".ipynb_checkpoints", ".pytest_cache",
                 ".hypothesis", "node_modules"}
#: This file names the pattern it looks for.
SELF = Path(__file__).resolve()


def _files() -> list[Path]:
    found = [ROOT / name for name in FILES if (ROOT / name).is_file()]
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*")):
            if (path.is_file() and path.suffix in TEXT_SUFFIXES
                    and not SKIPPED_PARTS & set(path.relative_to(ROOT).parts)
                    and path.resolve() != SELF):
                found.append(path)
    return found


def _text(path: Path) -> str:
    """What a reader reads: a notebook's cell sources and outputs, any other file whole."""
    text = path.read_text(encoding="utf-8", errors="replace")
    if path.suffix != ".ipynb":
        return text
    cells = json.loads(text)["cells"]
    parts = []
    for cell in cells:
        parts.append("".join(cell.get("source", [])))
        for out in cell.get("outputs", []):
            parts.append("".join(out.get("text", [])))
            parts.extend("".join(v) if isinstance(v, list) else str(v)
                         for v in out.get("data", {}).values())
    return "\n".join(parts)


def citations(text: str) -> list[str]:
    """Each line of ``text`` that cites an issue, with its number (1-based)."""
    return [f"{n}: {line.strip()[:120]}" for n, line in enumerate(text.splitlines(), 1)
            if CITATION.search(line)]


@pytest.mark.parametrize("line, cites", [
    ("# the playing search (issue 27: nodes/s spent on depth)", True),
    ('"""Issue 25 item 1 in JupyterLab at 1280x720: ...', True),
    ("the drawing's goal (issue 26.8).", True),
    ("what the issue-27 ratio can never lose", True),
    ("issues 23 and 24", True),
    ("see issue #12", True),
    ("the key used to sign a row", False),
    ("an issue of the store: the file is read only", False),
    ("tissue 12", False),
])
def test_the_pattern_finds_citations_and_only_them(line: str, cites: bool) -> None:
    assert bool(citations(line)) is cites


def test_the_walk_reads_the_places_a_citation_would_hide() -> None:
    files = {p.relative_to(ROOT).as_posix() for p in _files()}
    for expected in ("README.md", "tavrei_lab/game/game.py", "tavrei_lab/i18n/ru.po",
                     "docs/speed.md", "notebooks/00_quick_start.ipynb",
                     "notebooks/ru/00_quick_start.ipynb", "tests/test_lab_hygiene.py",
                     "benchmarks/bench_tree.py"):
        assert expected in files
    assert "CHANGELOG.md" not in files and "tests/test_no_history.py" not in files


def test_nothing_but_the_changelog_cites_an_issue() -> None:
    found = [f"{path.relative_to(ROOT)}:{hit}" for path in _files()
             for hit in citations(_text(path))]
    assert found == [], ("say why, not which issue (history belongs in CHANGELOG.md "
                         "and commit messages):\n" + "\n".join(found))


def test_no_test_is_named_after_an_issue() -> None:
    named = re.compile(r"^\s*(?:async\s+)?(?:def|class)\s+(\w*issue\w*)", re.IGNORECASE | re.M)
    found = [f"{path.relative_to(ROOT)}: {m.group(1)}"
             for path in sorted((ROOT / "tests").rglob("*.py")) if path.resolve() != SELF
             for m in named.finditer(path.read_text(encoding="utf-8"))]
    files = [p.relative_to(ROOT).as_posix() for p in (ROOT / "tests").rglob("*issue*")]
    assert found == [] and files == [], found + files
