"""The old path of ``lab.tournament`` and ``lab.runner``: the same names, kept for one
release (``tavrei_lab.compare`` says why)."""

from __future__ import annotations

from tavrei_lab.lab.results import (
    ADJUDICATED as ADJUDICATED,
)
from tavrei_lab.lab.results import (
    GameResult as GameResult,
)
from tavrei_lab.lab.runner import (
    DEFAULT_MAX_PLIES as DEFAULT_MAX_PLIES,
)
from tavrei_lab.lab.runner import (
    MAX_TOURNAMENT_GAMES as MAX_TOURNAMENT_GAMES,
)
from tavrei_lab.lab.runner import (
    GameSpec as GameSpec,
)
from tavrei_lab.lab.runner import (
    agent_pairs as agent_pairs,
)
from tavrei_lab.lab.runner import (
    derive_seed as derive_seed,
)
from tavrei_lab.lab.runner import (
    play_game as play_game,
)
from tavrei_lab.lab.runner import (
    play_shipped as play_shipped,
)
from tavrei_lab.lab.runner import (
    schedule as schedule,
)
from tavrei_lab.lab.tournament import (
    SAVED_ENTRIES as SAVED_ENTRIES,
)
from tavrei_lab.lab.tournament import (
    TournamentResult as TournamentResult,
)
from tavrei_lab.lab.tournament import (
    tournament as tournament,
)

__all__ = ["ADJUDICATED", "agent_pairs", "DEFAULT_MAX_PLIES", "derive_seed", "GameResult",
           "GameSpec", "MAX_TOURNAMENT_GAMES", "play_game", "play_shipped", "SAVED_ENTRIES",
           "schedule", "tournament", "TournamentResult"]
