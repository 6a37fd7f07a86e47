"""The shape a ``ResultsTable`` JSON file must have: defined in ``compare.table_json``
beside the one results table that reads it, and importable from here by its names."""

from __future__ import annotations

from tavrei_lab.compare.table_json import (
    COUNT_COLUMNS,
    MAX_TABLE_BYTES,
    MAX_TABLE_INT,
    TableShapeError,
    table_parts,
)

__all__ = ["COUNT_COLUMNS", "MAX_TABLE_BYTES", "MAX_TABLE_INT", "TableShapeError",
           "table_parts"]
