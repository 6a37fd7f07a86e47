"""Text forms: move text, position strings and game records (read and write); chess
notation (SAN, PGN movetext) for the variants played as chess."""

from tavrei_lab.notation.moves import MoveSpec, normalize, parse_move_spec
from tavrei_lab.notation.pgn import tokenize_pgn
from tavrei_lab.notation.position_string import read_position, write_position
from tavrei_lab.notation.san import parse_san, plays_chess, read_san, write_san

__all__ = ["MoveSpec", "normalize", "parse_move_spec", "parse_san", "plays_chess", "read_position",
           "read_san", "tokenize_pgn", "write_position", "write_san"]
