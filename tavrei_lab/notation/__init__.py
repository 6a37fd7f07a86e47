"""Text forms: move text, position strings and game records (read and write)."""

from tavrei_lab.notation.moves import MoveSpec, normalize, parse_move_spec
from tavrei_lab.notation.position_string import read_position, write_position

__all__ = ["MoveSpec", "normalize", "parse_move_spec", "read_position", "write_position"]
