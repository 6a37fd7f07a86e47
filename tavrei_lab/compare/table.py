"""The old path of ``lab.table`` for a tournament's tables: the same names, kept for one
release (``tavrei_lab.compare`` says why). ``games_table`` here is a tournament's
(``lab.table.tournament_games_table``)."""

from __future__ import annotations

from tavrei_lab.lab.results import TERMINATIONS as TERMINATIONS
from tavrei_lab.lab.table import (
    ENDED as ENDED,
)
from tavrei_lab.lab.table import (
    HOVER as HOVER,
)
from tavrei_lab.lab.table import (
    ResultsTable as ResultsTable,
)
from tavrei_lab.lab.table import (
    pairs_table as pairs_table,
)
from tavrei_lab.lab.table import (
    tournament_games_table as games_table,
)
from tavrei_lab.lab.table import (
    variants_table as variants_table,
)

__all__ = ["ENDED", "HOVER", "ResultsTable", "TERMINATIONS", "games_table", "pairs_table",
           "variants_table"]
