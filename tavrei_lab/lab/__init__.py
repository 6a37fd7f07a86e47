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

Layers: the lab builds on ``compare`` (games, executors, statistics),
``engine``, ``game``, ``rules`` and ``core``; nothing but the command line
imports the lab.
"""

from tavrei_lab.lab.cells import Cell, build_cells, parse_grid_args
from tavrei_lab.lab.differences import Difference, holm
from tavrei_lab.lab.measures import GameWatch, cell_measures, drama, entropy_bits, lead_changes
from tavrei_lab.lab.piece_values import fit_logistic, material_counts, piece_values
from tavrei_lab.lab.plots import store_plots
from tavrei_lab.lab.store import ResultsStore, StoredGame
from tavrei_lab.lab.sweep import SweepResult, play_lab_game, sweep
from tavrei_lab.lab.table import ResultsTable

__all__ = ["Cell", "Difference", "GameWatch", "ResultsStore", "ResultsTable", "StoredGame",
           "SweepResult",
           "build_cells", "cell_measures", "drama", "entropy_bits", "fit_logistic",
           "holm", "lead_changes", "material_counts", "parse_grid_args", "piece_values",
           "play_lab_game", "store_plots", "sweep"]
