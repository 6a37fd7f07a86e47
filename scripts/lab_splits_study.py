"""Play the study tutorial 10 reads: does allowing splits make Tavreli more decisive?

::

    python scripts/lab_splits_study.py [--workers 2] [--out tavrei_lab/data/lab_splits.json]

runs ``tavrei-lab sweep`` twice on the grid ``splits=true,false``, with players fit
to each cell (``--tune``: the same tune for both strengths, so the second sweep
finds the fits in the store and tunes nothing) at two node budgets, and writes what
the notebook needs: each command, its wall time, the ``--out`` ``cells.json`` of
each strength, and each cell's tune log. The store (``splits.sqlite``) and the
``--out`` folders stay in the working folder, so running the script again replays
nothing and rewrites the same file.
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The two strengths: (label, nodes a move, games a cell). The stronger player costs
#: about 3 times the CPU a game, so it plays fewer games. Sized to run in about
#: three quarters of an hour on 2 cores shared with other jobs.
STRENGTHS = (("play:nodes=150", 150, 40), ("play:nodes=500", 500, 24))
#: One small tune for both strengths (one generation of 30 self-play games a cell at
#: 300 nodes): the second sweep finds it in the store.
TUNE = ["--tune", "--tune-generations", 1, "--tune-games", 30, "--tune-nodes", 300]
COMMON = ["--grid", "splits=true,false", "--seed", "2020", "--max-plies", "200",
          "--store", "splits.sqlite"]


def command(nodes: int, games: int, out: str) -> list[str]:
    return ["sweep", *COMMON, "--agents", f"play:nodes={nodes},weights=fit,noise=10",
            "--games", str(games), *map(str, TUNE), "--out", out]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("::")[0].strip())
    parser.add_argument("--workers", default="2")
    parser.add_argument("--out", default=str(ROOT / "tavrei_lab" / "data" / "lab_splits.json"))
    args = parser.parse_args()
    study: dict = {"question": "does allowing splits make Tavreli more decisive?",
                   "produced_by": f"python scripts/lab_splits_study.py, "
                                  f"{time.strftime('%Y-%m-%d')}, 2 cores shared with "
                                  "other jobs",
                   "command": {}, "seconds": {}, "cells": {}, "tune": {}}
    for label, nodes, games in STRENGTHS:
        out = f"study-{nodes}"
        argv = command(nodes, games, out)
        started = time.monotonic()
        proc = subprocess.run([sys.executable, "-m", "tavrei_lab", *argv, "--workers",
                               args.workers, "--no-progress"], text=True,
                              capture_output=True)
        seconds = time.monotonic() - started
        sys.stdout.write(proc.stdout)
        if proc.returncode:
            sys.stderr.write(proc.stderr)
            return proc.returncode
        study["command"][label] = "tavrei-lab " + shlex.join(argv)
        study["seconds"][label] = round(seconds)      # wall time of the run that played them
        study["cells"][label] = json.loads(Path(out, "cells.json").read_text())
    from tavrei_lab.lab import ResultsStore
    with ResultsStore("splits.sqlite", readonly=True) as db:
        for fit in db.fits().values():
            doc = fit["doc"]
            if [doc.get("generations"), doc.get("games"), doc.get("nodes")] != TUNE[2::2]:
                continue             # a fit of other tune settings kept in the same store
            study["tune"][fit["cell"]] = {
                "settings_hash": doc.get("settings_hash"), "seconds": doc.get("seconds"),
                "log": [{k: e.get(k) for k in ("generation", "games", "score_vs_previous",
                                               "accepted", "draws", "loss_before",
                                               "loss_after", "seconds") if k in e}
                        for e in doc.get("log", [])]}
    Path(args.out).write_text(json.dumps(study, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
