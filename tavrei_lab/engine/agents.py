"""Agents: anything that picks a move (or nothing, at a chance node) for a game.

The common interface is deliberately tiny so a tournament, the widget and the
terminal player can use any agent: ``choose(game) -> Move``. Agents are
seeded; two agents with the same seed make the same choices.
"""

from __future__ import annotations

import random
from typing import Any, Protocol, runtime_checkable

from tavrei_lab.core.move import Move


@runtime_checkable
class Agent(Protocol):
    name: str

    def choose(self, game: Any) -> Move:
        """A legal move for the side to move of ``game`` (a decision node)."""
        ...


class RandomAgent:
    """Uniformly random among the legal moves: the baseline every agent must beat."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, game: Any) -> Move:
        moves = game.legal_moves()
        if not moves:
            raise ValueError("no legal move to choose from")
        return self.rng.choice(moves)


AGENTS: dict[str, Any] = {"random": RandomAgent}


def make_agent(spec: str, seed: int | None = None) -> Agent:
    """An agent from a spec like ``"random"`` or ``"alphabeta:2"`` (name:argument)."""
    from tavrei_lab.errors import TavreiError
    name, _, arg = spec.partition(":")
    cls = AGENTS.get(name)
    if cls is None:
        raise TavreiError(f"unknown agent {spec!r}; known: {', '.join(sorted(AGENTS))}")
    if arg:
        factory = getattr(cls, "from_arg", None)
        if factory is None:
            raise TavreiError(f"agent {name!r} takes no argument (got {arg!r})")
        return factory(arg, seed=seed)
    return cls(seed=seed)
