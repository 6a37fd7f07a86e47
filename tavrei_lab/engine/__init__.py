"""Search over positions: perft now; agents and alpha-beta build on it."""

from tavrei_lab.engine.perft import perft, perft_divide

__all__ = ["perft", "perft_divide"]
