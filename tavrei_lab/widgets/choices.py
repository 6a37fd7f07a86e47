"""The board's half-made choice: kept in ``tavrei_lab.session.choices`` (plain Python,
below the widgets); its names stay importable from here."""

from tavrei_lab.session.choices import (
    CHOOSE_PROMOTION,
    PROMOTION_FIRST,
    Choices,
)

__all__ = [
    "CHOOSE_PROMOTION",
    "PROMOTION_FIRST",
    "Choices",
]
