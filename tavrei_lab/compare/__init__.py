"""The old path of the lab's tournaments: ``tavrei_lab.compare`` is now part of
``tavrei_lab.lab``, the one experiments package (one results table, one runner, one
plotting module, one statistics module).

Every name this package and its modules gave is still importable from here, for one
release, with a ``DeprecationWarning`` on import; new code imports from
``tavrei_lab.lab``::

    from tavrei_lab.lab import tournament

================================  ==================================================
old                               new
================================  ==================================================
``compare.tournament``            ``lab.tournament`` (``tournament``,
                                  ``TournamentResult``) and ``lab.runner``
                                  (``play_game``, ``schedule``, ``derive_seed``)
``compare.table``                 ``lab.table`` (``games_table`` is
                                  ``tournament_games_table`` there)
``compare.stats``                 ``lab.game_stats`` and ``lab.statistics``
``compare.statistics``            ``lab.statistics``
``compare.parallel``              ``lab.parallel``
``compare.plots``                 ``lab.plots``
``compare.results``               ``lab.results``
``compare.shipping``              ``lab.shipping``
``compare.table_json``            ``lab.table_json``
================================  ==================================================
"""

from __future__ import annotations

import warnings

from tavrei_lab.i18n import gettext as _
from tavrei_lab.lab.game_stats import GameStats as GameStats
from tavrei_lab.lab.game_stats import prisoner_changes as prisoner_changes
from tavrei_lab.lab.parallel import InlineExecutor as InlineExecutor
from tavrei_lab.lab.parallel import Progress as Progress
from tavrei_lab.lab.parallel import resolve_executor as resolve_executor
from tavrei_lab.lab.results import ADJUDICATED as ADJUDICATED
from tavrei_lab.lab.results import GameResult as GameResult
from tavrei_lab.lab.runner import DEFAULT_MAX_PLIES as DEFAULT_MAX_PLIES
from tavrei_lab.lab.runner import GameSpec as GameSpec
from tavrei_lab.lab.runner import derive_seed as derive_seed
from tavrei_lab.lab.runner import play_game as play_game
from tavrei_lab.lab.runner import schedule as schedule
from tavrei_lab.lab.statistics import wilson_interval as wilson_interval
from tavrei_lab.lab.table import ResultsTable as ResultsTable
from tavrei_lab.lab.table import pairs_table as pairs_table
from tavrei_lab.lab.table import tournament_games_table as games_table
from tavrei_lab.lab.table import variants_table as variants_table
from tavrei_lab.lab.tournament import TournamentResult as TournamentResult
from tavrei_lab.lab.tournament import tournament as tournament

warnings.warn(_("tavrei_lab.compare is now part of tavrei_lab.lab (for example "
                "'from tavrei_lab.lab import tournament'); the old path works for one release"),
              DeprecationWarning, stacklevel=2)

__all__ = [
    "ADJUDICATED", "DEFAULT_MAX_PLIES", "GameResult", "GameSpec", "GameStats",
    "InlineExecutor", "Progress", "ResultsTable", "TournamentResult", "derive_seed",
    "games_table", "pairs_table", "play_game", "prisoner_changes", "resolve_executor",
    "schedule", "tournament", "variants_table", "wilson_interval",
]
