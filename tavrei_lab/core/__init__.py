"""Variant-agnostic data: board geometry, tavrels, towers, positions and moves."""

from tavrei_lab.core.geometry import Geometry
from tavrei_lab.core.move import Move
from tavrei_lab.core.pieces import PieceKind, PieceSet
from tavrei_lab.core.position import Position
from tavrei_lab.core.tavrel import BLACK, WHITE, Color, Tavrel

__all__ = ["BLACK", "WHITE", "Color", "Geometry", "Move", "PieceKind", "PieceSet",
           "Position", "Tavrel"]
