"""Play the study tutorial 10 reads: does allowing splits make Tavreli more decisive?

::

    python scripts/lab_splits_study.py [--workers 2] [--out tavrei_lab/data/lab_splits.json]
                                       [--strengths 50,150]

runs ``tavrei-lab sweep --until-decided`` twice on the grid ``splits=true,false``,
with players fit to each cell (``--tune``: the same tune for both strengths, so the
second sweep finds the fits in the store and tunes nothing) at two node budgets, and
writes what the notebook needs: each command, its wall and CPU time (the sweep and
its pool workers), its looks and verdict, the ``--out`` ``cells.json`` and
``differences.json`` of each strength, and each cell's tune log; ``check`` holds
the same for the weaker strength played again with a ply limit of 400 (``CHECKS``). The store
(``splits.sqlite``) and the ``--out`` folders stay in the working folder, so running
the script again replays nothing and rewrites the same file (times aside).

The budgets: the lab's planner (``sweep --plan --effect 0.2 --measure decisive``) asks
about 80 games a cell to detect a difference of 0.2 in the decisive rate with power
0.8 at alpha 0.05; the study plays at most 64 a cell (two looks), so it stays within
30 minutes of CPU, and a difference of 0.2 may be left undecided -- the study reports
what its games show. ``--strength-games`` names each player's Elo against the
reference player in each cell.

``--strengths A,B`` plays the same question at other node budgets (the same games,
batches and ply limit a strength): tutorial 10 ships the 50/150 study; the 150/500
one, and what it cost in CPU minutes, is in docs/lab.md.
"""

from __future__ import annotations

import argparse
import json
import resource
import shlex
import subprocess
import sys
import time
from pathlib import Path

from tavrei_lab.lab.versions import code_versions

ROOT = Path(__file__).resolve().parent.parent
#: The two strengths: (label, nodes a move, most games a cell, games a cell a look,
#: ply limit), the stronger last. Two looks each at most, sized so the whole study
#: (tune and strength games included) costs well under 30 minutes of CPU on the
#: compiled build (measured: the ``produced_by`` line and ``cpu_seconds``).
STRENGTHS = (("play:nodes=50", 50, 64, 32, 300), ("play:nodes=150", 150, 64, 32, 300))
#: Checks run again beside the study (same shape as STRENGTHS); none: the ply limit is
#: the lab's own (300), and the sweep's tables count the games it stopped.
CHECKS: tuple[tuple[str, int, int, int, int], ...] = ()
#: The difference of interest (the planner's --effect): decided once established, or
#: once a difference this large is excluded.
EFFECT = 0.2
#: One small tune for both strengths (one generation of 20 self-play games a cell at
#: 300 nodes): the second sweep finds it in the store. One generation has no gate, so
#: its fit is stored unproven and the default player plays (the study shows the line
#: that says so); a proven fit needs a tune of two generations or more.
TUNE = ["--tune", "--tune-generations", 1, "--tune-games", 20, "--tune-nodes", 300]
#: Games each player plays against the reference player in each cell, to name its Elo.
STRENGTH_GAMES = 2
COMMON = ["--grid", "splits=true,false", "--seed", "2020", "--store", "splits.sqlite"]


def command(nodes: int, games: int, batch: int, max_plies: int, out: str) -> list[str]:
    return ["sweep", *COMMON, "--max-plies", str(max_plies),
            "--agents", f"play:nodes={nodes},weights=fit,noise=10",
            "--until-decided", "--measure", "decisive", "--effect", str(EFFECT),
            "--games", str(games), "--batch", str(batch), *map(str, TUNE),
            "--strength-games", str(STRENGTH_GAMES), "--out", out]


def children_cpu() -> float:
    """CPU seconds (user + system) of every finished child and its waited-for children:
    the sweep and its pool workers, whatever else shares the machine."""
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("::")[0].strip())
    parser.add_argument("--workers", default="2")
    parser.add_argument("--out", default=str(ROOT / "tavrei_lab" / "data" / "lab_splits.json"))
    parser.add_argument("--strengths", default=",".join(str(s[1]) for s in STRENGTHS),
                        help="node budgets, weaker first (default: %(default)s)")
    args = parser.parse_args()
    try:
        budgets = [int(n) for n in args.strengths.split(",")]
    except ValueError:
        parser.error(f"--strengths: whole numbers cut by commas, not {args.strengths!r}")
    if len(budgets) < 2 or any(n < 1 for n in budgets):
        parser.error(f"--strengths: two or more node budgets of 1 or more, not {args.strengths!r}")
    _label, _nodes, games, batch, max_plies = STRENGTHS[0]
    strengths = [(f"play:nodes={n}", n, games, batch, max_plies) for n in budgets]
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                            text=True, capture_output=True).stdout.strip() or "unknown"
    study: dict = {"question": "does allowing splits make Tavreli more decisive?",
                   "produced_by": f"python scripts/lab_splits_study.py, "
                                  f"{time.strftime('%Y-%m-%d')}, commit {commit}, 2 cores "
                                  "shared with other jobs",
                   "made_with": code_versions(),
                   "command": {}, "seconds": {}, "cpu_seconds": {}, "decision": {},
                   "notes": {}, "cells": {}, "differences": {}, "tune": {}}
    # the checks, in the same shape as the study's own runs
    study["check"] = {key: {} for key in ("command", "seconds", "cpu_seconds", "decision",
                                          "notes", "cells", "differences")}
    runs = [(study, *run) for run in strengths] + [(study["check"], *run) for run in CHECKS]
    for into, label, nodes, games, batch, max_plies in runs:
        out = f"study-{nodes}-{max_plies}"
        argv = command(nodes, games, batch, max_plies, out)
        started, cpu = time.monotonic(), children_cpu()
        proc = subprocess.run([sys.executable, "-m", "tavrei_lab", *argv, "--workers",
                               args.workers, "--no-progress"], text=True,
                              capture_output=True)
        seconds = time.monotonic() - started
        cpu = children_cpu() - cpu
        sys.stdout.write(proc.stdout)
        if proc.returncode:
            sys.stderr.write(proc.stderr)
            return proc.returncode
        into["command"][label] = "tavrei-lab " + shlex.join(argv)
        into["seconds"][label] = round(seconds)      # wall time of the run that played them
        into["cpu_seconds"][label] = round(cpu)
        into["decision"][label] = [line for line in proc.stdout.splitlines()
                                    if line.startswith(("look at", "After"))]
        # what the sweep said of its players: a fit not played, each one's Elo
        into["notes"][label] = [line for line in proc.stdout.splitlines()
                                if line.startswith(("cell ", "strength of "))]
        into["cells"][label] = json.loads(Path(out, "cells.json").read_text())
        into["differences"][label] = json.loads(Path(out, "differences.json").read_text())
    from tavrei_lab.lab import ResultsStore
    with ResultsStore("splits.sqlite", readonly=True) as db:
        for fit in db.fits().values():
            doc = fit["doc"]
            if [doc.get("generations"), doc.get("games"), doc.get("nodes")] != TUNE[2::2]:
                continue             # a fit of other tune settings kept in the same store
            study["tune"][fit["cell"]] = {
                "settings_hash": doc.get("settings_hash"), "seconds": doc.get("seconds"),
                "proven": bool(doc.get("proven")), "proof": doc.get("proof"),
                "log": [{k: e.get(k) for k in ("generation", "games", "score_vs_previous",
                                               "accepted", "draws", "loss_before",
                                               "loss_after", "seconds") if k in e}
                        for e in doc.get("log", [])]}
    Path(args.out).write_text(json.dumps(study, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
