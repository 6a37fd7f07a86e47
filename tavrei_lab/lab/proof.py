"""A fit's proof: the gated match that showed it better than the player it replaces.

A fit of the playing evaluation (``lab.tune``) is a guess until games say otherwise:
a Texel fit to a few dozen games can set a ratnik's value to 0 and lose to the
defaults. So a fit plays in an answer (``weights=fit`` in a sweep or a tournament)
only when its weights file carries a ``proof`` (``engine.weights.fit_proof_problem``
checks it): a sequential probability ratio test -- the tune's gate, ``lab.tune.sprt_gate``,
H1 "+``GATE_ELO1`` Elo" against H0 "+``GATE_ELO0``", error rates ``GATE_ALPHA`` and
``GATE_BETA`` -- on game pairs of *these* weights against the default ones, that
stopped at "better", on this evaluation (``EVALUATION_VERSION``). The proof records
the score with its 95 % interval (t over the pairs the test used), the games, the
node budget, the ply cap and the seed, so a fresh match can confirm it.

``prove_fit`` plays such a match in batches of ``GATE_BATCH`` games and stops as soon
as the test decides (or at ``games``: undecided, no proof); ``tune`` writes a proof
when its gate accepted weights against its start weights (generation 2 of a tune from
the defaults); a later generation's gate compares a fit with the previous fit, which
is no proof against the defaults.
"""

from __future__ import annotations

import time
from concurrent.futures import Executor
from typing import Any

from tavrei_lab.engine.agents import ENDING_NODES
from tavrei_lab.engine.weights import (
    DEFAULT_WEIGHTS,
    Weights,
    variant_hash,
)
from tavrei_lab.engine.weights import proof_record as gate_proof
from tavrei_lab.errors import LimitError
from tavrei_lab.i18n import gettext as _
from tavrei_lab.lab.parallel import resolve_executor
from tavrei_lab.lab.runner import derive_seed
from tavrei_lab.lab.tune import (
    DEFAULT_MAX_PLIES,
    DEFAULT_NODES,
    GATE_BATCH,
    MAX_TUNE_GAMES,
    TuneGame,
    play_tune_game,
    sprt_gate,
)
from tavrei_lab.rules.base import RuleModule
from tavrei_lab.variant import variant_data

#: The most games a proof match plays before it gives up undecided (the gate's pairs
#: are 2 games each): at +50 Elo an SPRT of these error rates stops well before.
DEFAULT_PROOF_GAMES = 200


def _point(row: dict[str, Any]) -> float:
    """The tested weights' point in a game: white in the even-numbered games."""
    return float(row["score"]) if row["index"] % 2 == 0 else 1.0 - float(row["score"])


def prove_fit(variant: RuleModule | str, weights: Weights, *, against: Weights = DEFAULT_WEIGHTS,
              games: int = DEFAULT_PROOF_GAMES, nodes: int = DEFAULT_NODES, seed: int = 1,
              max_plies: int = DEFAULT_MAX_PLIES, executor: Executor | str | None = None,
              workers: int | None = None) -> dict[str, Any]:
    """Play ``weights`` against ``against`` in seeded game pairs (one random opening,
    each colour once; ``lab.tune.match``'s games) ``GATE_BATCH`` games at a time, and
    stop once the tune's SPRT decides or ``games`` are played. Returns the proof
    (``gate_proof``) with ``seconds``; ``decision`` "better" makes it a proof."""
    if isinstance(games, bool) or not isinstance(games, int) or not 2 <= games <= MAX_TUNE_GAMES:
        raise LimitError(_("prove_fit: games must be 2..{most}, got {games}")
                         .format(most=MAX_TUNE_GAMES, games=repr(games)[:40]))
    if isinstance(variant, str):
        from tavrei_lab.variant import load_variant
        variant = load_variant(variant)
    data = variant_data(variant)
    pool, owned = resolve_executor(executor, workers)
    rows: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    gate = sprt_gate([])
    try:
        while len(rows) < games and gate["decision"] is None:
            first = len(rows)
            batch = range(first, min(games, first + GATE_BATCH))
            tasks = [TuneGame(data, (weights if i % 2 == 0 else against).as_dict(),
                              (against if i % 2 == 0 else weights).as_dict(), nodes,
                              derive_seed(seed, "match", i), i, max_plies,
                              opening=derive_seed(seed, "match-opening", i // 2),
                              ending=ENDING_NODES) for i in batch]
            rows.extend(sorted(pool.map(play_tune_game, tasks), key=lambda r: r["index"]))
            gate = sprt_gate([_point(r) for r in rows])
    finally:
        if owned:
            pool.shutdown(wait=True, cancel_futures=True)
    used = 2 * gate["pairs"] if gate["decision"] is not None else len(rows)
    proof = gate_proof(gate, weights, against, nodes=nodes, max_plies=max_plies, seed=seed,
                       games=used, how="prove_fit")
    kept = rows[:used]
    proof.update(variant=data["id"], settings_hash=variant_hash(variant),
                 wins=sum(1 for r in kept if _point(r) == 1.0),
                 draws=sum(1 for r in kept if _point(r) == 0.5),
                 losses=sum(1 for r in kept if _point(r) == 0.0),
                 capped=sum(1 for r in kept if r.get("adjudicated")),
                 seconds=round(time.perf_counter() - t0, 1))
    return proof


__all__ = ["DEFAULT_PROOF_GAMES", "gate_proof", "prove_fit"]
