"""``{cli-reference}``: every ``tavrei-lab`` command's help, taken from the parser itself.

The page is made from ``tavrei_lab.cli.build_parser()`` at build time, so it shows
exactly what ``tavrei-lab COMMAND --help`` prints: a new command or option
appears on the next build without anyone editing the page.
"""

from __future__ import annotations

import argparse
import os

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective


def commands(parser: argparse.ArgumentParser) -> list[tuple[str, argparse.ArgumentParser]]:
    """(name, parser) of each subcommand, in the order ``--help`` lists them."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return list(action.choices.items())
    return []


class CliReference(SphinxDirective):
    has_content = False

    def run(self) -> list[nodes.Node]:
        from tavrei_lab.cli import build_parser

        os.environ["COLUMNS"] = "78"          # argparse wraps help to the terminal width
        parser = build_parser()
        out: list[nodes.Node] = [help_block(parser)]
        for name, sub in commands(parser):
            section = nodes.section(ids=[f"command-{name}"])
            section += nodes.title(text=f"tavrei-lab {name}")
            section += help_block(sub)
            out.append(section)
        return out


def help_block(parser: argparse.ArgumentParser) -> nodes.literal_block:
    """The parser's help as plain preformatted text (not highlighted as code)."""
    block = nodes.literal_block(text=parser.format_help())
    block["language"] = "text"
    return block


def setup(app: Sphinx) -> dict[str, object]:
    app.add_directive("cli-reference", CliReference)
    return {"version": "1", "parallel_read_safe": True}
