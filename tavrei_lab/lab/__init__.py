"""The variant lab: which rule makes the better game, measured with real statistics.

The method follows Tomašev, Paquet, Hassabis and Kramnik, "Assessing Game
Balance with AlphaZero: Exploring Alternative Rule Sets in Chess" (2020):
for each rule set, play many games with the same agents and measure the
first-move advantage, the draw rate and decisiveness, game length, opening
diversity and piece values estimated from the outcomes; Ludii's game
metrics (after Browne 2008) add lead changes and drama. ``lab.measures``
says where each measure comes from.

>>> from tavrei_lab.lab import sweep
>>> res = sweep(base="tavreli", grid={"splits": [True, False]}, agents="greedy",
...             games=2, seed=1, max_plies=12, executor="inline", progress=False)
>>> [(r["cell"], r["games"]) for r in res.table.rows]
[('tavreli[splits=true]', 2), ('tavreli[splits=false]', 2)]

With ``store="lab.sqlite"`` every game is kept in an SQLite file; running the
same sweep again plays only what is missing, and
``ResultsTable.from_store("lab.sqlite")`` and ``store_plots("lab.sqlite")`` read
the tables and charts back. On the
command line::

    tavrei-lab sweep --base tavreli --grid splits=true,false --grid castling=true,false \\
        --agents greedy --games 200 --store lab.sqlite

Is a difference real? ``res.table.compare("tavreli[splits=true]",
"tavreli[splits=false]", "decisive")`` gives the difference with its 95 %
interval and p-value, ``res.differences()`` every pair of cells with
Holm-adjusted p-values (``lab.differences`` names the methods).

**Tournaments**, the quickest experiment: every variant against every pair of
agents, the colours alternating.

>>> from tavrei_lab.lab import tournament
>>> res = tournament(["tavreli", "tavreli-no-split"], ["greedy", "random"],
...                  games=2, seed=1, max_plies=4, executor="inline", progress=False)
>>> len(res.games), len(res.table)
(4, 2)

``res`` shows its tables and plots in Jupyter; ``res.save("out/")`` writes the
records, ``variants.csv``/``.json``, ``pairs.csv``/``.json`` and the SVG plots. The
command line does the same: ``tavrei-lab compare --variants tavreli,orthodox
--agents greedy,alphabeta:2 --games 50 --seed 1 --out DIR``.

Games run in parallel through any ``concurrent.futures.Executor``: processes by
default, ``executor="threads"``, ``executor="inline"`` (JupyterLite), or one you
pass in -- a dask cluster's, for example::

    from dask.distributed import Client
    client = Client("scheduler-address:8786")
    res = tournament(["tavreli", "tavreli-no-split"], ["greedy", "alphabeta:2"],
                     games=500, seed=1, executor=client)

Results do not depend on the executor: every game is seeded from the experiment's
seed and put back in order (``lab.runner``, ``lab.parallel``).

One package, one of each: one runner (``lab.runner``) plays every game of a
tournament, a sweep, a tune or a strength check; one ``ResultsTable``
(``lab.table``); one plotting module (``lab.plots``); one module where every
interval, test, Elo and SPRT is defined (``lab.statistics``).

Layers: the lab builds on ``engine``, ``game``, ``rules`` and ``core``; above it are
only the opening book and the command line (and ``tavrei_lab.compare``, the old path
of the tournaments).
"""

from tavrei_lab.lab.cells import Cell, build_cells, parse_grid_args
from tavrei_lab.lab.differences import Difference, holm
from tavrei_lab.lab.game_stats import GameStats, prisoner_changes
from tavrei_lab.lab.measures import GameWatch, cell_measures, drama, entropy_bits, lead_changes
from tavrei_lab.lab.parallel import InlineExecutor, Progress, resolve_executor
from tavrei_lab.lab.piece_values import fit_logistic, material_counts, piece_values
from tavrei_lab.lab.plots import store_plots, tournament_plots
from tavrei_lab.lab.results import ADJUDICATED, TERMINATIONS, GameResult
from tavrei_lab.lab.runner import DEFAULT_MAX_PLIES, GameSpec, derive_seed, play_game, schedule
from tavrei_lab.lab.statistics import score_interval, wilson_interval
from tavrei_lab.lab.store import ResultsStore, StoredGame
from tavrei_lab.lab.sweep import SweepResult, play_lab_game, sweep
from tavrei_lab.lab.table import ResultsTable, pairs_table, variants_table
from tavrei_lab.lab.tournament import TournamentResult, tournament

__all__ = ["ADJUDICATED", "Cell", "DEFAULT_MAX_PLIES", "Difference", "GameResult", "GameSpec",
           "GameStats", "GameWatch", "InlineExecutor", "Progress", "ResultsStore",
           "ResultsTable", "StoredGame", "SweepResult", "TERMINATIONS", "TournamentResult",
           "build_cells", "cell_measures", "derive_seed", "drama", "entropy_bits",
           "fit_logistic", "holm", "lead_changes", "material_counts", "pairs_table",
           "parse_grid_args", "piece_values", "play_game", "play_lab_game", "prisoner_changes",
           "resolve_executor", "schedule", "score_interval", "store_plots", "sweep",
           "tournament", "tournament_plots", "variants_table", "wilson_interval"]
