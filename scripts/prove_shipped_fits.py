"""Prove (or not) the weights shipped in ``variants/weights/``: a gated match of each fit
against the default weights (``lab.proof.prove_fit``), written into the file.

Run from the source tree: ``python scripts/prove_shipped_fits.py [ID ...] [--games N]
[--nodes K] [--workers W]``. Each file gets ``proof`` (the SPRT's figures, the score
with its interval, games, settings) and ``proven`` (true only when the test said
"better"); a file whose weights are the defaults gets ``proven: false`` and no match
(nothing to prove). The match is seeded: the same command gives the same games.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from tavrei_lab.engine.weights import (
    DEFAULT_WEIGHTS,
    fit_proof_problem,
    load_weights_file,
    save_weights,
    shipped_weights_dir,
)
from tavrei_lab.lab.proof import DEFAULT_PROOF_GAMES, prove_fit
from tavrei_lab.lab.tune import DEFAULT_NODES


def prove(path: Path, games: int, nodes: int, workers: int) -> None:
    weights, doc = load_weights_file(path)
    doc.pop("weights", None)
    doc.pop("format", None)
    doc.pop("match", None)        # an older evaluation's match: the proof replaces it
    if weights == DEFAULT_WEIGHTS:
        doc.pop("proof", None)
        doc["proven"] = False
        doc["unproven"] = "the file's weights are the default weights: no fit to prove"
        save_weights(path, weights, **doc)
        print(f"{path.name}: the default weights, nothing to prove", flush=True)
        return
    t0 = time.process_time()
    proof = prove_fit(str(doc["variant"]), weights, games=games, nodes=nodes,
                      workers=workers)
    proof["cpu_seconds_main"] = round(time.process_time() - t0, 1)
    doc["proof"] = proof
    doc["proven"] = fit_proof_problem({"proof": proof}, weights) is None
    if doc["proven"]:
        doc.pop("unproven", None)
    else:
        doc["unproven"] = ("the gated match did not show it better than the default "
                           "weights: see proof")
    save_weights(path, weights, **doc)
    print(f"{path.name}: {json.dumps(proof)}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ids", nargs="*")
    parser.add_argument("--games", type=int, default=DEFAULT_PROOF_GAMES)
    parser.add_argument("--nodes", type=int, default=DEFAULT_NODES)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    folder = shipped_weights_dir()
    paths = [folder / f"{i}.json" for i in args.ids] or sorted(folder.glob("*.json"))
    for path in paths:
        prove(path, args.games, args.nodes, args.workers)


if __name__ == "__main__":
    main()
