"""The opening book's build: games per second with 1, 2 and N workers, and on a dask
cluster, all building the same games as the shipped book.

Run: ``python -m benchmarks book``. In one run, side by side, the first ``GAMES``
games of the shipped book's settings (``tavrei_lab/data/book_tavreli.json``: seed 1,
``play:nodes=100,noise=10`` against itself, 16 plies kept) are built:

1. inline (one worker, this process);
2. in 2 worker processes, and in N (the machine's cores, when that is more than 2);
3. on ``distributed.LocalCluster`` with 2 and N workers (when the ``[cluster]`` extra is
   installed; the cluster's start-up is not counted).

Printed for each: wall seconds, games per second and the speed-up over inline, and
whether the games are the shipped book's games of the same numbers (the yardstick: a
file built earlier, by another run, by the command in its provenance). Last, the CPU
seconds a game takes inline, and what that makes of the full book of the method
(20,000 games). Timings on a shared machine vary; the ratios, taken in one run, less.

Environment: ``TAVREI_BOOK_GAMES`` (default 24) games per build.
"""

from __future__ import annotations

import dataclasses
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from tavrei_lab.openings.book import Book, build_book, cpu_seconds, shipped_book

GAMES = int(os.environ.get("TAVREI_BOOK_GAMES", "24"))
#: The book of the method, for the projection.
FULL_BOOK = 20_000


def _build(executor: Any, workers: int | None, games: int) -> tuple[float, float, Book]:
    """(wall seconds, CPU seconds, the book) of one build into a scratch folder."""
    settings = dataclasses.replace(shipped_book().settings, games=games)
    with tempfile.TemporaryDirectory() as folder:
        started, cpu = time.perf_counter(), cpu_seconds()
        book = build_book(settings, Path(folder) / "book.json", executor=executor,
                          workers=workers)
        return time.perf_counter() - started, cpu_seconds() - cpu, book


def _line(label: str, seconds: float, games: int, inline: float | None, same: bool) -> str:
    rate = games / seconds
    ratio = f"{inline / seconds:4.2f}x inline" if inline else "          "
    return (f"{label:28} {seconds:7.1f} s  {rate:6.2f} games/s  {ratio}  "
            f"{'the shipped games' if same else 'NOT the shipped games'}")


def main() -> None:
    shipped = shipped_book()
    games = min(GAMES, len(shipped.games))
    yardstick = [g.as_list() for g in shipped.games[:games]]

    def same(book: Book) -> bool:
        return [g.as_list() for g in book.games] == yardstick

    cores = os.cpu_count() or 1
    print(f"{games} games of the shipped book's settings ({shipped.settings.player}, seed "
          f"{shipped.settings.seed}); {cores} cores")
    wall, cpu, book = _build("inline", None, games)
    print(_line("inline (1 worker)", wall, games, None, same(book)))
    inline = wall
    counts = [2] + ([cores] if cores > 2 else [])
    for n in counts:
        seconds, _cpu, book = _build("processes", n, games)
        print(_line(f"{n} processes", seconds, games, inline, same(book)))
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        print("LocalCluster                 (dask.distributed not installed: the [cluster] "
              "extra)")
    else:
        for n in counts:
            with LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                              dashboard_address=":0", silence_logs=40) as cluster, \
                    Client(cluster) as client:
                seconds, _cpu, book = _build(client, None, games)
            print(_line(f"LocalCluster, {n} workers", seconds, games, inline, same(book)))
    per_game = cpu / games
    print(f"inline: {per_game:.2f} CPU s a game; the full book of {FULL_BOOK:,} games: about "
          f"{per_game * FULL_BOOK / 3600:.1f} CPU hours, {per_game * FULL_BOOK / 3600 / cores:.1f} "
          f"hours on {cores} cores")


if __name__ == "__main__":
    main()
