"""The opening explorer and the opening book.

``build_index`` counts the first plies of many games -- a results store, record
files, the recorded tournament games, a book -- into an ``OpeningIndex``: for
each position (transpositions merged, other rules kept apart) the moves played,
the games, white's score with its interval, the draw rate, the average length
and the engine's figure. ``openings.book`` builds a book by self-play and says
which moves it finds better; ``openings.widget`` shows an index beside the board.
"""

from __future__ import annotations

from tavrei_lab.openings.index import (
    Entry,
    IndexedGame,
    OpeningIndex,
    OpeningsError,
    Tally,
    game_line,
    rules_identity,
)
from tavrei_lab.openings.sources import (
    build_index,
    record_lines,
    store_lines,
    tournament_lines,
)

__all__ = ["Entry", "IndexedGame", "OpeningIndex", "OpeningsError", "Tally", "build_index",
           "game_line", "record_lines", "rules_identity", "store_lines", "tournament_lines"]
