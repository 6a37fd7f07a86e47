"""The old path of ``lab.parallel``: the same names, kept for one
release (``tavrei_lab.compare`` says why)."""

from __future__ import annotations

from tavrei_lab.lab.parallel import (
    EXECUTOR_NAMES as EXECUTOR_NAMES,
)
from tavrei_lab.lab.parallel import (
    InlineExecutor as InlineExecutor,
)
from tavrei_lab.lab.parallel import (
    Progress as Progress,
)
from tavrei_lab.lab.parallel import (
    resolve_executor as resolve_executor,
)

__all__ = ["EXECUTOR_NAMES", "InlineExecutor", "Progress", "resolve_executor"]
