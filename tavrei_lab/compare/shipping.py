"""The old path of ``lab.shipping``: the same names, kept for one
release (``tavrei_lab.compare`` says why)."""

from __future__ import annotations

from tavrei_lab.lab.shipping import (
    VariantParcel as VariantParcel,
)
from tavrei_lab.lab.shipping import (
    probe as probe,
)
from tavrei_lab.lab.shipping import (
    variant_fingerprint as variant_fingerprint,
)

__all__ = ["probe", "variant_fingerprint", "VariantParcel"]
