"""tavrei_lab: teach and explore Tavreli ("Russian chess") and its relatives.

The small public surface::

    from tavrei_lab import Game
    game = Game()                    # Tavreli; Game(variant="orthodox") for chess
    game.play("e2-e4 e7-e5")
    game.legal_moves(), game.push(move), game.pop(), game.outcome()
    game.position.string             # the position string

``tavrei_lab.compiled`` says whether the move generator runs compiled (the optional
Cython build, docs/compiled.md) or as the pure Python it is compiled from.
"""

import importlib

# builds first: importing it decides, before any hot module is imported, whether a compiled
# file may run (a stale one never shadows its edited source; TAVREI_PURE=1 forces the source).
from tavrei_lab import builds  # isort: skip
from tavrei_lab import render  # noqa: F401 -- registers the notebook pictures (core.pictures)
from tavrei_lab.core import BLACK, WHITE, Geometry, Move, Position, Tavrel
from tavrei_lab.core.move import Roll
from tavrei_lab.errors import (
    ChessHabitError,
    ChessHabitWarning,
    IllegalMoveError,
    LimitError,
    NotationError,
    PositionError,
    RecordError,
    TavreiError,
    VariantError,
)
from tavrei_lab.game import Game, read_games, read_record
from tavrei_lab.i18n import N_, get_language, set_language
from tavrei_lab.i18n import gettext as _
from tavrei_lab.rules.base import Option, Outcome, RuleModule
from tavrei_lab.variant import load_variant, variants

# The one version source: pyproject.toml reads it, `tavrei-lab --version` shows it.
__version__ = "0.1.0"

#: True when every hot module (``builds.HOT_MODULES``) runs compiled; False on the pure
#: Python build (Pyodide, no C compiler, ``TAVREI_PURE=1``, or a stale compiled file).
#: Answered on first use (``__getattr__`` below): answering imports every hot module, the
#: game tree's and so networkx among them, which ``import tavrei_lab`` alone does not need.
compiled: bool


def _compiled() -> bool:
    for module in builds.HOT_MODULES:
        importlib.import_module(module)
    return builds.compiled_modules() == builds.HOT_MODULES

__all__ = [
    "BLACK", "WHITE", "Game", "Geometry", "IllegalMoveError", "LimitError", "Move",
    "NotationError", "Option", "Outcome", "Position", "PositionError", "RecordError",
    "Roll", "RuleModule", "Tavrel", "TavreiError", "VariantError", "load_variant",
    "variants", "read_games", "read_record", "ChessHabitError", "ChessHabitWarning",
    "get_language", "set_language",
]


def __getattr__(name: str) -> object:
    if name == "compiled":
        answer = globals()["compiled"] = _compiled()
        return answer
    if name == "compiled":
        value = globals()["compiled"] = _compiled()
        return value
    # python-chess's first guess is chess.Board: point at this package's two boards
    if name == "Board":
        raise ChessHabitError(
            _("tavrei_lab has no Board: a game (python-chess's chess.Board) is "
              "tavrei_lab.Game(), and the board widget for a notebook is "
              "tavrei_lab.widgets.Board(game)"), name=name)
    hint = _MODULE_HABITS.get(name)
    said = None if hint is None else _(hint)
    if hint is None and len(name) == 2 and name[0] in "ABCDEFGH" and name[1] in "12345678":
        # python-chess's square constants (chess.E2)
        said = _("squares are taken by their names: game.piece_at({square!r}), "
                 "game.position.tower({square!r}); on an 8x8 board its number is "
                 "game.rules.geometry.parse({square!r})").format(square=name.lower())
    if said is not None:
        raise ChessHabitError(_("tavrei_lab has no {name}: {hint}").format(name=name, hint=said),
                              name=name)
    raise AttributeError(f"module 'tavrei_lab' has no attribute {name!r}", name=name)


#: python-chess's module-level names, and where this package has each.
_MODULE_HABITS = {
    "svg": N_("tavrei_lab.render.board_svg(game) draws a board, as chess.svg.board does"),
    "pgn": N_("tavrei_lab.read_games(file) reads each game of a file in turn, "
              "tavrei_lab.read_record(text) one game, and game.record() writes one"),
    "SQUARES": N_("squares are numbered on each variant's board: game.rules.geometry.names "
                  "lists their names"),
    "SQUARE_NAMES": N_("game.rules.geometry.names lists the board's square names"),
    "square_name": N_("game.rules.geometry.name(square) names a square of the game's board"),
    "parse_square": N_("game.rules.geometry.parse('e4') is the number of a square of the "
                       "game's board"),
    "square": N_("game.rules.geometry.square(file, rank) numbers a square of the game's board"),
    "Piece": N_("a piece is a Tavrel (tavrei_lab.Tavrel); a square holds a tower of them: "
                "game.position.tower(square)"),
    "STARTING_FEN": N_("Game() starts the Tavreli position; Game(variant).position.string is "
                       "its position string"),
}
