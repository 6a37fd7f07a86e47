"""Compare rule variants by self-play: tournaments, statistics, tables and plots.

>>> from tavrei_lab.compare import tournament
>>> res = tournament(["tavreli", "tavreli-no-split"], ["greedy", "random"],
...                  games=2, seed=1, max_plies=4, executor="inline", progress=False)
>>> len(res.games), len(res.table)
(4, 2)

``res`` shows its tables and plots in Jupyter; ``res.save("out/")`` writes
the records, ``variants.csv``/``.json``, ``pairs.csv``/``.json`` and the SVG
plots. The command line does the same: ``tavrei-lab compare --variants
tavreli,orthodox --agents greedy,alphabeta:2 --games 50 --seed 1 --out DIR``.

Games run in parallel through any ``concurrent.futures.Executor``: processes
by default, ``executor="threads"``, ``executor="inline"`` (JupyterLite), or
one you pass in -- a dask cluster's, for example::

    from dask.distributed import Client
    client = Client("scheduler-address:8786")
    res = tournament(["tavreli", "tavreli-no-split"], ["greedy", "alphabeta:2"],
                     games=500, seed=1, executor=client)

Results do not depend on the executor: every game is seeded from the
tournament seed and put back in order (see ``compare.parallel``).
"""

from tavrei_lab.compare.parallel import InlineExecutor, Progress, resolve_executor
from tavrei_lab.compare.stats import GameStats, prisoner_changes, wilson_interval
from tavrei_lab.compare.table import ResultsTable, games_table, pairs_table, variants_table
from tavrei_lab.compare.tournament import (
    ADJUDICATED,
    DEFAULT_MAX_PLIES,
    GameResult,
    GameSpec,
    TournamentResult,
    derive_seed,
    play_game,
    schedule,
    tournament,
)

__all__ = [
    "ADJUDICATED", "DEFAULT_MAX_PLIES", "GameResult", "GameSpec", "GameStats",
    "InlineExecutor", "Progress", "ResultsTable", "TournamentResult", "derive_seed",
    "games_table", "pairs_table", "play_game", "prisoner_changes", "resolve_executor",
    "schedule", "tournament", "variants_table", "wilson_interval",
]
