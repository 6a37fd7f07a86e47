"""The lab's hygiene that no other test holds.

The others are held where their code is tested: pool workers dying with the sweep
(``test_sweep_failures.test_pool_workers_die_with_their_parent``, kill -9 and
SIGTERM), Ctrl-C's kept count and resume command
(``test_sweep_failures.test_ctrl_c_says_how_many_games_are_kept_and_how_to_resume``),
the 100-column table (``test_lab_differences.test_cli_table_fits_100_columns*``),
the heat-map legend (``test_lab_differences.test_heat_map_text_is_not_clipped``),
measured times in ``sweep --help`` and t for means (``test_lab_differences``).
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

from tavrei_lab.engine.agents import split_specs

ROOT = Path(__file__).resolve().parent.parent
#: The pages a reader copies commands from: the README and the documentation.
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _text() -> str:
    return "\n".join(page.read_text(encoding="utf-8") for page in PAGES)


def _commands(name: str) -> list[list[str]]:
    """Every ``tavrei-lab NAME ...`` command of the README and the docs (continuation
    lines joined)."""
    text = _text().replace("\\\n", " ")
    out = []
    for line in text.splitlines():
        m = re.search(rf"tavrei-lab {name}\b(.*)", line)
        if m:
            out.append(shlex.split(m.group(1).split("#")[0].replace("[", "").replace("]", "")))
    return out


def test_compare_examples_do_not_pit_unequal_agents():
    """A documented `compare` of greedy vs alphabeta:2: the strong agent won every game, so
    white's score was 0.5 by construction (colours alternate) and read as "no first-move
    advantage". A compare example must let one agent play itself."""
    found = _commands("compare")
    assert found, "neither the README nor the docs show a compare command"
    for args in found:
        if "--agents" in args:
            specs = split_specs(args[args.index("--agents") + 1])
            assert len(specs) == 1, f"a documented compare pits {specs} against each other"
    assert "greedy,alphabeta:2" not in _text()


def test_help_texts_of_the_lab_give_measured_times_not_guesses():
    """`sweep --help` said level:3 takes "about a minute a game" (measured 9-11 s): the
    lab's help texts state times as measured, in seconds, for the games and the tunes."""
    for command in ("sweep", "tune"):
        proc = subprocess.run([sys.executable, "-m", "tavrei_lab", command, "--help"],
                              capture_output=True, text=True, timeout=60)
        text = " ".join(proc.stdout.split())
        assert proc.returncode == 0 and re.search(r"\b\d+ s\b", text), (command, text[-400:])
        assert "minute a game" not in text
        if command == "sweep":       # the tune a sweep runs, and a game of the default
            assert re.search(r"--tune .*\b\d+ s\b", text) and "s a game" in text
