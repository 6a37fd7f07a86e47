"""Search over positions: perft, evaluation, hashing, the lesson and playing searches, agents.

>>> from tavrei_lab import Game
>>> from tavrei_lab.engine import make_agent
>>> game = Game("orthodox")
>>> _ = game.play("f2-f3 e7-e5 g2-g4")
>>> game.move_text(make_agent("alphabeta:2", seed=1).choose(game))
'd8-h4'
"""

from tavrei_lab.engine.agents import AGENTS, Agent, make_agent
from tavrei_lab.engine.evaluate import evaluate
from tavrei_lab.engine.perft import perft, perft_divide
from tavrei_lab.engine.play import PlaySearcher
from tavrei_lab.engine.search import Limits, Searcher, SearchResult, minimax
from tavrei_lab.engine.zobrist import update_hash, zobrist_hash

__all__ = ["AGENTS", "Agent", "Limits", "PlaySearcher", "SearchResult", "Searcher", "evaluate",
           "make_agent", "minimax", "perft", "perft_divide", "update_hash", "zobrist_hash"]
