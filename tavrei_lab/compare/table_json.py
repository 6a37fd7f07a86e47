"""The old path of ``lab.table_json``: the same names, kept for one
release (``tavrei_lab.compare`` says why)."""

from __future__ import annotations

from tavrei_lab.lab.table_json import (
    COUNT_COLUMNS as COUNT_COLUMNS,
)
from tavrei_lab.lab.table_json import (
    MAX_TABLE_BYTES as MAX_TABLE_BYTES,
)
from tavrei_lab.lab.table_json import (
    MAX_TABLE_INT as MAX_TABLE_INT,
)
from tavrei_lab.lab.table_json import (
    TableShapeError as TableShapeError,
)
from tavrei_lab.lab.table_json import (
    table_parts as table_parts,
)

__all__ = ["COUNT_COLUMNS", "MAX_TABLE_BYTES", "MAX_TABLE_INT", "table_parts", "TableShapeError"]
