"""Reading perft table files (tests/perft/*.perft), in the manner of python-chess's.

An entry: ``id <name>``, optionally ``variant <id>``, then ``position <string>``
and/or ``moves <movetext>``, then ``perft <depth> <count>`` lines. ``#`` starts
a comment line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class PerftEntry:
    ident: str
    variant: str
    position: str | None = None
    moves: str | None = None
    figures: list[tuple[int, int]] = field(default_factory=list)


def read_table(path: Path, variant: str) -> list[PerftEntry]:
    """The entries of a table whose entries default to ``variant``."""
    entries: list[PerftEntry] = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, _, value = line.partition(" ")
        if key == "id":
            entries.append(PerftEntry(value, variant))
        elif not entries:
            raise ValueError(f"{path.name}: {raw!r} before the first id line")
        elif key == "variant":
            entries[-1].variant = value
        elif key == "position":
            entries[-1].position = value
        elif key == "moves":
            entries[-1].moves = value
        elif key == "perft":
            depth, count = value.split()
            entries[-1].figures.append((int(depth), int(count)))
        else:
            raise ValueError(f"{path.name}: unknown line {raw!r}")
    return entries
