"""The board's status sentences: kept in ``tavrei_lab.session.status`` (plain Python,
below the widgets); its names stay importable from here."""

from tavrei_lab.session.status import (
    TERMINATIONS,
    capitalised,
    count_options,
    face_text,
    kind_name,
    move_said,
    not_yours,
    piece_name,
    selection_text,
    side_players,
    side_word,
    state_text,
    termination_text,
)

__all__ = [
    "TERMINATIONS",
    "capitalised",
    "count_options",
    "face_text",
    "kind_name",
    "move_said",
    "not_yours",
    "piece_name",
    "selection_text",
    "side_players",
    "side_word",
    "state_text",
    "termination_text",
]
