"""The board's picture: kept in ``tavrei_lab.session.drawing`` (plain Python, below the
widgets); its names stay importable from here."""

from tavrei_lab.session.drawing import (
    DEFAULT_LETTER_PX,
    PROJECTOR_LETTER_PX,
    PROJECTOR_SCALE,
    PROJECTOR_SIZE,
    board_width,
    draw,
    has_die,
    other_roll,
)

__all__ = [
    "DEFAULT_LETTER_PX",
    "PROJECTOR_LETTER_PX",
    "PROJECTOR_SCALE",
    "PROJECTOR_SIZE",
    "board_width",
    "draw",
    "has_die",
    "other_roll",
]
