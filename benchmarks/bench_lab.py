"""Variant-lab benchmark: games per second inline, in 2 processes, on a 2-worker dask
LocalCluster, and what the results store and the measures cost per game.

Run: ``python -m benchmarks lab``. All in one run, side by side:

1. the same sweep (tavreli, splits on/off, greedy self-play) inline, with 2
   processes and on ``distributed.LocalCluster(n_workers=2)`` (when the
   ``[cluster]`` extra is installed; the cluster's start-up is not counted);
2. the store's cost: the finished games written to an SQLite file one
   transaction each (WAL), as a share of the time a greedy game takes to
   play (goal: under 5 %) -- each game verified by the worker that played it
   (its replay timed apart, as the worker's share), as a sweep writes them, and
   beside that the same games unverified, replayed by the store itself;
3. the measures' cost: a game played with the ``GameWatch`` (evaluation after
   every move, material samples) against the same game without it;
4. games per CPU second at the lab's default player (``sweep.DEFAULT_AGENTS``), in
   child processes on the same seeded games: this build, the pure Python build
   (``TAVREI_PURE=1``) and -- with ``TAVREI_LAB_BASELINE`` naming a checkout of the
   baseline code (``git archive 9f2feaf^ | tar -x -C DIR``) -- that
   code, for the goal: at least 3x its games/s. ``TAVREI_LAB_PART=default``
   runs this part alone.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from tavrei_lab.lab import ResultsStore, build_cells, sweep
from tavrei_lab.lab.runner import GameSpec, play_game
from tavrei_lab.lab.store import StoredGame, verification
from tavrei_lab.lab.sweep import LabTask, play_lab_game

GRID = {"splits": [True, False]}
GAMES = 12          # per cell: 24 games per run
MAX_PLIES = 200


def _rate(executor: object, workers: int | None = None) -> tuple[float, list]:
    start = time.perf_counter()
    res = sweep("tavreli", GRID, agents="greedy", games=GAMES, seed=1, max_plies=MAX_PLIES,
                executor=executor, workers=workers, progress=False)
    seconds = time.perf_counter() - start
    return len(res.games()) / seconds, res.comparable()


#: The default player's games, timed in a child (CPU seconds of the child alone).
DEFAULT_PLAYER_GAMES = 8
_CHILD = textwrap.dedent("""
    import json, sys, time
    from tavrei_lab.lab import sweep
    from tavrei_lab.lab.sweep import DEFAULT_AGENTS
    import tavrei_lab
    games = int(sys.argv[1])
    start = time.process_time()
    res = sweep("tavreli", {"splits": [True]}, agents=DEFAULT_AGENTS, games=games, seed=7,
                max_plies=200, executor="inline", progress=False)
    cpu = time.process_time() - start
    print(json.dumps({"games": len(res.games()), "cpu": cpu, "agents": DEFAULT_AGENTS,
                      "compiled": bool(getattr(tavrei_lab, "compiled", False))}))
""")


def default_player_rate(root: Path, pure: bool = False,
                        games: int = DEFAULT_PLAYER_GAMES) -> dict:
    """Games per CPU second of the lab's default player, in a child on ``root``'s code."""
    env = {k: v for k, v in os.environ.items() if k != "TAVREI_PURE"}
    env["PYTHONPATH"] = str(root)
    if pure:
        env["TAVREI_PURE"] = "1"
    run = subprocess.run([sys.executable, "-c", _CHILD, str(games)], cwd=root, env=env,
                         capture_output=True, text=True, timeout=3600)
    if run.returncode:
        raise RuntimeError(f"{root}: {run.stderr[-2000:]}")
    out = json.loads(run.stdout.strip().splitlines()[-1])
    out["rate"] = out["games"] / out["cpu"]
    return out


def main() -> None:
    if os.environ.get("TAVREI_LAB_PART") == "default":
        default_player_report()
        return
    inline, ref = _rate("inline")
    print(f"inline                 {inline:6.2f} games/s")
    procs, same = _rate("processes", 2)
    print(f"2 processes            {procs:6.2f} games/s  ({procs / inline:.2f}x inline"
          f"{', same games' if same == ref else ', DIFFERENT games'})")
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        print("LocalCluster           (dask.distributed not installed: the [cluster] extra)")
    else:
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                          dashboard_address=":0", silence_logs=40) as cluster, \
                Client(cluster) as client:
            dask_rate, same = _rate(client)
        print(f"LocalCluster, 2 workers {dask_rate:5.2f} games/s  ({dask_rate / inline:.2f}x "
              f"inline{', same games' if same == ref else ', DIFFERENT games'})")

    # -- the store's cost and the measures' cost per game --------------------------
    # Each game is played twice back to back, with and without the measures, so that
    # the load of a shared machine falls on both alike; which goes first alternates.
    cell = build_cells("tavreli", {"splits": [True]})[0]
    parcel, rules = cell.parcel(), cell.rules
    played = []
    watched_seconds = plain_seconds = 0.0
    for i in range(16):
        spec = GameSpec(cell.name, "greedy", "greedy", seed=100 + i, index=i,
                        max_plies=MAX_PLIES)
        for watched in ((False, True) if i % 2 else (True, False)):   # alternate who
            t = time.perf_counter()                                    # plays first: the
            if watched:                                                # second run meets
                played.append(play_lab_game(LabTask(spec, parcel)))    # warm caches
                watched_seconds += time.perf_counter() - t
            else:
                play_game(spec, rules=rules)
                plain_seconds += time.perf_counter() - t
    # The store's side: a sweep's worker replays its game and hands back a verification
    # (timed here as the worker does it), so the one writing process only checks it; the
    # same games written unverified show what replaying them in the writer costs.
    with tempfile.TemporaryDirectory() as tmp:
        store = ResultsStore(Path(tmp) / "bench.sqlite")
        plain_store = ResultsStore(Path(tmp) / "unverified.sqlite")
        h = store.register({"cell": cell.name, "bench": True})
        plain_store.register({"cell": cell.name, "bench": True})
        t = time.perf_counter()
        tokens = []
        for result, measures in played:
            StoredGame(h, cell.name, "tavreli", cell.option_dict, result, measures).replay()
            tokens.append(verification(store.verify_key, cell.name, "tavreli",
                                       cell.option_dict, result))
        replay_seconds = time.perf_counter() - t
        t = time.perf_counter()
        for (result, measures), token in zip(played, tokens):
            store.add(h, cell.name, "tavreli", cell.option_dict, result, measures,
                      verified=token)
        write_seconds = time.perf_counter() - t
        t = time.perf_counter()
        for result, measures in played:
            plain_store.add(h, cell.name, "tavreli", cell.option_dict, result, measures)
        unverified_seconds = time.perf_counter() - t
        assert store.replayed == 0 and plain_store.replayed == len(played)
        store.close()
        plain_store.close()
    n = len(played)
    per_game, per_write = watched_seconds / n, write_seconds / n
    print(f"store: {per_write * 1000:.2f} ms to write a game vs {per_game * 1000:.0f} ms to "
          f"play a greedy game: {100 * per_write / per_game:.2f} % overhead (goal < 5 %)")
    print(f"  (the worker's replay and verification: {replay_seconds / n * 1000:.2f} ms, "
          f"{100 * replay_seconds / watched_seconds:.2f} % of the game, in the worker; "
          f"written unverified, replayed by the store: {unverified_seconds / n * 1000:.2f} "
          f"ms, {100 * unverified_seconds / watched_seconds:.2f} %)")
    print(f"measures (evaluation after every move, material samples): "
          f"{100 * (watched_seconds - plain_seconds) / plain_seconds:.1f} % on top of a "
          "greedy game")
    default_player_report()


def default_player_report() -> None:
    """Part 4 (``TAVREI_LAB_PART=default`` runs it alone)."""
    here = Path(__file__).resolve().parents[1]
    now = default_player_rate(here)
    pure = default_player_rate(here, pure=True)
    print(f"default player ({now['agents']}), tavreli, {now['games']} games, CPU s in a child: "
          f"this build ({'compiled' if now['compiled'] else 'pure'}) {now['rate']:.3f} games/s, "
          f"pure {pure['rate']:.3f} ({now['rate'] / pure['rate']:.2f}x)")
    base = os.environ.get("TAVREI_LAB_BASELINE")
    if base:
        old = default_player_rate(Path(base))
        print(f"  the baseline code ({base}): {old['rate']:.3f} games/s; this "
              f"build {now['rate'] / old['rate']:.2f}x, pure {pure['rate'] / old['rate']:.2f}x "
              "(goal: 3x)")
    else:
        print("  (TAVREI_LAB_BASELINE unset: the baseline is not timed)")


if __name__ == "__main__":
    main()
