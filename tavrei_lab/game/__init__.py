"""A game: a start position, the moves (and die rolls) played, and undo.

``Game`` is the small public surface most users need (after python-chess's
``Board``): ``legal_moves()``, ``push``/``pop``, ``play("e2-e4 e7-e5")``,
``position``, ``outcome()``. Every failed operation raises a ``TavreiError``
and leaves the game exactly as it was.

Every per-move step costs the same however long the game already is (the ply
count is kept, not recounted), so replaying a 20,000-move record takes time in
proportion to its length (``python -m benchmarks replay`` prints plies/s).

The part's modules, one idea each: ``game.game`` (the ``Game`` itself, and one
record replayed: ``read_record``), ``game.played`` (the small types it hands out: a
played move, the legal moves, the ply, the turn), ``game.finding`` (the legal move a
text names, or why there is none), ``game.arguments`` (a seed, a variant or position
string, a time limit, checked), ``game.chess_names`` (python-chess's names on a
game, answered) and ``game.records`` (every game of a text or a file of records).
Every name is read from here.
"""

from __future__ import annotations

from tavrei_lab.game.arguments import (
    DEFAULT_REPLAY_SECONDS,
    LONG_MOVETEXT,
    MAX_SEED,
    check_seed,
    looks_like_position,
    replay_deadline,
)
from tavrei_lab.game.chess_names import CHESS_HABITS
from tavrei_lab.game.game import VARIANT_DATA_TAG, Game, read_record
from tavrei_lab.game.played import Action, LegalMoves, PlayedMove, Ply, Turn
from tavrei_lab.game.records import read_games

__all__ = ["CHESS_HABITS", "DEFAULT_REPLAY_SECONDS", "LONG_MOVETEXT", "MAX_SEED",
           "VARIANT_DATA_TAG", "Action", "Game", "LegalMoves", "PlayedMove", "Ply", "Turn",
           "check_seed", "looks_like_position", "read_games", "read_record",
           "replay_deadline"]
