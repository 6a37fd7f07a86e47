"""docs/rules.md, the rules as the package tells them: complete, and every link into it lands.

The rule book is for people, so these tests check what can drift without anyone
noticing: an option added to a rule module but never explained, a citation that
points at a heading that was renamed, a citation of the project-internal RULES.md
that a user of the package cannot open.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from tavrei_lab.variant import load_variant, variants

ROOT = Path(__file__).resolve().parents[1]
RULES_DOC = ROOT / "docs" / "rules.md"


def github_slug(heading: str) -> str:
    """The anchor GitHub (and MyST's heading anchors) give a Markdown heading."""
    slug = heading.strip().lower().replace(" ", "-")
    return re.sub(r"[^\w\-]", "", slug)


RULES_DOC_RU = ROOT / "docs" / "ru" / "rules.md"


def anchors(doc: Path = RULES_DOC) -> set[str]:
    text = doc.read_text(encoding="utf-8")
    return {github_slug(h) for h in re.findall(r"^#{1,6} (.+)$", text, flags=re.M)}


def test_every_option_of_every_shipped_variant_is_explained() -> None:
    text = RULES_DOC.read_text(encoding="utf-8")
    table = text.split("## All the options at a glance", 1)[1]
    named = set(re.findall(r"^\| `(\w+)` \|", table, flags=re.M))
    options = {name for vid in variants() for name in load_variant(vid).options}
    assert options, "no options found: the variants did not load"
    assert options - named == set(), "options missing from the table in docs/rules.md"
    assert named - options == set(), "docs/rules.md explains options no variant has"


def test_every_shipped_variant_is_named() -> None:
    text = RULES_DOC.read_text(encoding="utf-8")
    missing = [vid for vid in variants() if f"`{vid}`" not in text]
    assert missing == []


def test_the_heading_anchor_rule_matches_a_known_heading() -> None:
    assert github_slug("A3. Towers") == "a3-towers"
    assert github_slug("Part B: the Gavrilov chess-die game") == \
        "part-b-the-gavrilov-chess-die-game"


def _markdown_sources() -> list[tuple[Path, str]]:
    """(file, markdown text) for the README, docs/*.md and every notebook's markdown cells."""
    out = [(ROOT / "README.md", (ROOT / "README.md").read_text(encoding="utf-8"))]
    out += [(p, p.read_text(encoding="utf-8")) for p in sorted((ROOT / "docs").glob("*.md"))]
    out += [(RULES_DOC_RU, RULES_DOC_RU.read_text(encoding="utf-8"))]
    for nb in sorted((ROOT / "notebooks").rglob("*.ipynb")):
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        out.append((nb, "\n".join("".join(c["source"]) for c in cells
                                  if c["cell_type"] == "markdown")))
    return out


def test_links_into_the_rules_land_on_a_heading() -> None:
    known = {RULES_DOC: anchors(RULES_DOC), RULES_DOC_RU: anchors(RULES_DOC_RU)}
    links = []
    for path, text in _markdown_sources():
        for target, anchor in re.findall(r"\]\(([^)#\s]*rules\.md)(?:#([^)\s]+))?\)", text):
            doc = (path.parent / target).resolve()
            assert doc in known, f"{path.name}: {target}"   # the rules, English or Russian
            links.append((path.name, doc, anchor))
    assert len(links) >= 9, "the README and the tutorials cite the rules"
    broken = [(name, anchor) for name, doc, anchor in links if anchor and anchor not in known[doc]]
    assert broken == []


def test_nothing_cites_the_internal_rules_file() -> None:
    """RULES.md lives outside the package; users read docs/rules.md instead."""
    files = [ROOT / "README.md"]
    for folder in ("tavrei_lab", "notebooks", "docs"):
        files += [p for p in (ROOT / folder).rglob("*")
                  if p.suffix in {".py", ".toml", ".md", ".ipynb", ".js", ".json"}]
    assert len(files) > 50
    citing = [str(p.relative_to(ROOT)) for p in files if "RULES.md" in p.read_text("utf-8")]
    # the recorded games' "about" text too: a pip user has the data, not RULES.md
    assert ROOT / "tavrei_lab" / "data" / "games.json" in files
    assert citing == []


# -- the links work where a class opens the notebooks ------------------------------------
NOTEBOOKS = ROOT / "notebooks"
LINK = re.compile(r"\]\((?!https?:|#|mailto:)([^)#\s]+)(?:#[^)\s]*)?\)")


def _notebook_links(files: dict[str, str]) -> list[tuple[str, str]]:
    """(notebook, relative link target) for every link in the notebooks' markdown."""
    links = []
    for name, text in files.items():
        if name.endswith(".ipynb"):
            cells = json.loads(text)["cells"]
            markdown = "\n".join("".join(c["source"]) for c in cells
                                  if c["cell_type"] == "markdown")
            links += [(name, target) for target in LINK.findall(markdown)]
    return links


def _lands(name: str, target: str) -> str:
    """Where a link of notebook ``name`` lands, as a path inside the folder it was
    opened from, or "outside" (which JupyterLab and the offline site answer with 404)."""
    parts: list[str] = name.split("/")[:-1]
    for part in target.split("/"):
        if part == "..":
            if not parts:
                return "outside"
            parts.pop()
        elif part not in ("", "."):
            parts.append(part)
    return "/".join(parts)


def test_tutorial_links_land_inside_the_folder_lab_and_the_offline_site_open() -> None:
    """`make lab` opens notebooks/ as JupyterLab's root and the offline site's contents
    are notebooks/: a link to ../docs/rules.md left that folder and was a 404. Each link
    lands on a file JupyterLab's own contents manager serves from that root."""
    from jupyter_server.services.contents.filemanager import FileContentsManager

    served = FileContentsManager(root_dir=str(NOTEBOOKS))
    files = {p.relative_to(NOTEBOOKS).as_posix(): p.read_text(encoding="utf-8")
             for p in NOTEBOOKS.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts}
    links = _notebook_links(files)
    assert sum(target == "rules.md" for _, target in links) >= 13, links   # 01-05, 08; ru 00-05
    for name, target in links:
        where = _lands(name, target)
        assert where != "outside", (name, target)
        model = served.get(where, content=where.endswith(".md"))
        assert model["type"] in ("file", "notebook"), (name, target)
        if where.endswith("rules.md"):
            language = "ru" if where.startswith("ru/") else "en"
            source = RULES_DOC_RU if language == "ru" else RULES_DOC
            assert model["content"] == source.read_text(encoding="utf-8"), where
            assert name.startswith("ru/") == (language == "ru"), (name, "links across")


def test_lesson_links_land_on_lesson_files() -> None:
    """`tavrei-lab lessons` writes the same layout: each rules page beside its notebooks."""
    from tavrei_lab.cli.lessons import lesson_files

    files = lesson_files()
    assert files["rules.md"] == RULES_DOC.read_bytes()
    assert files["ru/rules.md"] == RULES_DOC_RU.read_bytes()
    texts = {name: data.decode("utf-8") for name, data in files.items()}
    links = _notebook_links(texts)
    assert len(links) >= 9
    missing = [(n, t) for n, t in links if _lands(n, t) not in files]
    assert missing == []
