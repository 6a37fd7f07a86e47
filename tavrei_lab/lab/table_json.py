"""The shape a ``ResultsTable`` JSON file must have, checked before a table is made.

``to_json`` writes ``{"title": text, "columns": [{"name": text, "description":
text}, ...], "rows": [{column: value, ...}, ...]}`` with plain values (text, a
number, true/false or null). A file read back is checked against exactly that, so
a hand-edited or foreign file is refused in one line naming the place
(``rows[3]['games']``) instead of failing later, deep in a comparison, with
Python's own error: a game count must be a whole number (``int(inf)`` is an
``OverflowError``) and no larger than the table's games.
"""

from __future__ import annotations

import math
from typing import Any

from tavrei_lab.i18n import gettext as _

#: Largest table file (or JSON text) read: a sweep's tables are far smaller (a
#: 512-cell ``cells.json`` is about 1 MB, a games table about 250 bytes a game).
MAX_TABLE_BYTES = 64 * 1024 * 1024

#: Largest whole number a value may hold: a 400-digit one makes ``float()`` overflow.
MAX_TABLE_INT = 10 ** 18

#: Columns holding counts of games, which the comparisons take as whole numbers.
COUNT_COLUMNS = ("games", "white_wins", "draws", "black_wins")


class TableShapeError(ValueError):
    """A table's JSON that is JSON, but not the shape ``to_json`` writes (said where)."""


def _value(value: Any, where: str) -> Any:
    if value is None or isinstance(value, (str, bool)):
        return value
    if isinstance(value, int):
        if abs(value) > MAX_TABLE_INT:
            raise TableShapeError(_("{where}: a number past {limit:.0e}").format(
                where=where, limit=MAX_TABLE_INT))
        return value
    if isinstance(value, float):
        if math.isinf(value):
            raise TableShapeError(_("{where}: a number past a float's range").format(
                where=where))
        return value
    raise TableShapeError(_("{where}: a {kind} where a plain value (text, a number, true or "
                            "false) is expected").format(where=where, kind=type(value).__name__))


def _row(row: Any, where: str) -> dict[str, Any]:
    if not isinstance(row, dict):
        raise TableShapeError(_("{where}: not an object").format(where=where))
    out = {key: _value(value, f"{where}[{key!r}]") for key, value in row.items()}
    for key in COUNT_COLUMNS:
        if key in out and (not isinstance(out[key], int) or isinstance(out[key], bool)
                           or out[key] < 0):
            raise TableShapeError(_("{where}[{key!r}]: not a whole number of games 0 or more")
                                  .format(where=where, key=key))
    if all(isinstance(out.get(k), int) for k in COUNT_COLUMNS) and \
            out["white_wins"] + out["draws"] + out["black_wins"] != out["games"]:
        raise TableShapeError(_("{where}: its wins and draws do not add up to its games")
                              .format(where=where))
    return out


def table_parts(data: Any) -> tuple[str, list[tuple[str, str]], list[dict[str, Any]]]:
    """(title, columns, rows) of a parsed table JSON, or ``TableShapeError`` saying where
    it is not the shape ``to_json`` writes."""
    if not isinstance(data, dict):
        raise TableShapeError(_("the JSON is a {kind}, not an object with columns and rows")
                              .format(kind=type(data).__name__))
    for key in ("columns", "rows"):
        if key not in data:
            raise TableShapeError(_("no {key!r} in it").format(key=key))
        if not isinstance(data[key], list):
            raise TableShapeError(_("{key!r} is not a list").format(key=key))
    title = data.get("title", "")
    if not isinstance(title, str):
        raise TableShapeError(_("'title' is not text"))
    columns = []
    for i, column in enumerate(data["columns"]):
        if not isinstance(column, dict) or not isinstance(column.get("name"), str):
            raise TableShapeError(_("columns[{i}]: not an object with a text 'name'").format(i=i))
        description = column.get("description", "")
        if not isinstance(description, str):
            raise TableShapeError(_("columns[{i}]: its 'description' is not text").format(i=i))
        columns.append((column["name"], description))
    rows = [_row(row, f"rows[{i}]") for i, row in enumerate(data["rows"])]
    return title, columns, rows


__all__ = ["COUNT_COLUMNS", "MAX_TABLE_BYTES", "MAX_TABLE_INT", "TableShapeError",
           "table_parts"]
