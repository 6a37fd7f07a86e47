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
