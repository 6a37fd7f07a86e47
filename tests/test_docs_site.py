"""The documentation site's generated parts (the whole site is built by `make docs`,
which `make test` runs with warnings as errors)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from tavrei_lab.cli import COMMANDS, build_parser

EXT = Path(__file__).resolve().parents[1] / "docs" / "_ext" / "cli_reference.py"


def load_extension():  # noqa: ANN201 - a module
    spec = importlib.util.spec_from_file_location("cli_reference", EXT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cli_reference_covers_every_command_with_its_own_help() -> None:
    parser = build_parser()
    found = load_extension().commands(parser)
    assert [name for name, _ in found] == list(COMMANDS)
    for name, sub in found:
        text = sub.format_help()
        assert text.startswith(f"usage: tavrei-lab {name}")
        assert "-h, --help" in text
    assert "--version" in parser.format_help()


def test_front_page_public_api_changelog_and_download_buttons_are_wired() -> None:
    """What a user of the site meets first (the whole site: `make docs`)."""
    docs = EXT.parents[1]
    spec = importlib.util.spec_from_file_location("tavrei_docs_conf", docs / "conf.py")
    conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conf)
    public = conf.public_page()
    assert ".. autoclass:: tavrei_lab.Game\n   :no-index:\n   :members:" in public
    assert ".. autofunction:: tavrei_lab.render.board_svg" in public
    assert ".. autoclass:: tavrei_lab.widgets.Board" in public
    index = (docs / "api" / "index.md").read_text(encoding="utf-8")
    modules, internals = index.split(":caption: Internals")
    assert "tavrei_lab.cli." not in modules and "tavrei_lab.cli.tree" in internals
    front = (docs / "index.md").read_text(encoding="utf-8")
    for needed in ("img/board.svg", 'pip install ".[lab]"', "tavrei-lab lessons",
                   "jupyter lab", "00_quick_start.ipynb", "api/public", "changelog"):
        assert needed in front, needed
    assert "../CHANGELOG.md" in (docs / "changelog.md").read_text(encoding="utf-8")
    css = (docs / "_static" / "tavrei.css").read_text(encoding="utf-8")
    assert "overflow-x: auto" in css and conf.html_css_files == ["tavrei.css"]
    assert conf.download_button.__doc__
