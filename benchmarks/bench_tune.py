"""Tuning benchmark: tune time, games/s per executor, and the tuned player's score.

``TAVREI_TUNE_OUT=DIR`` keeps the weights files (and their games) there; the shipped
``tavrei_lab/variants/weights/*.json`` were made so.

Run: ``python -m benchmarks tune`` (long: measured 13-14 minutes of wall time a variant
for the tune and 8-11 for the match on 2 cores shared with other jobs), or
``TAVREI_TUNE_VARIANTS=tavreli-no-split,gavrilov-die python -m benchmarks tune``.
For each variant: ``lab.tune.tune`` at its defaults (processes executor, 2
workers), then ``lab.tune.match``: tuned against untuned weights at equal nodes,
200 games, each random opening played with both colours; prints the score with
its 95 % interval, Elo, and the share of draws with one side 3+ ratniks ahead.
Games/s inline vs processes is measured on the first generation's kind of game.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

from tavrei_lab.engine.weights import DEFAULT_WEIGHTS, load_weights
from tavrei_lab.lab.tune import DEFAULT_NODES, TuneGame, gate_text, match, play_tune_game, tune
from tavrei_lab.variant import load_variant, variant_data

LONG = True
MATCH_GAMES = int(os.environ.get("TAVREI_TUNE_MATCH", "200"))


def _rates(variant: str) -> None:
    from tavrei_lab.lab.parallel import resolve_executor
    data = variant_data(load_variant(variant))
    tasks = [TuneGame(data, DEFAULT_WEIGHTS.as_dict(), DEFAULT_WEIGHTS.as_dict(),
                      DEFAULT_NODES, i, i, opening=i) for i in range(4)]
    for name in ("inline", "processes"):
        pool, owned = resolve_executor(name, 2)
        t0 = time.perf_counter()
        for f in [pool.submit(play_tune_game, t) for t in tasks]:
            f.result()
        dt = time.perf_counter() - t0
        if owned:
            pool.shutdown()
        print(f"  {variant}: {len(tasks) / dt:.2f} games/s {name}")


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the process pool's
    workers count once the pool is shut down): on a shared machine the wall clock
    says more about the neighbours than about the tune."""
    import resource
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _settings() -> dict[str, int]:
    """``TAVREI_TUNE_GAMES`` / ``TAVREI_TUNE_GENERATIONS``: other than the defaults (a
    die variant's games are cheap, and its fit needs many: the README's die row is
    ``TAVREI_TUNE_GAMES=600 TAVREI_TUNE_GENERATIONS=1``)."""
    out = {}
    for key, name in (("TAVREI_TUNE_GAMES", "games"), ("TAVREI_TUNE_GENERATIONS", "generations")):
        if os.environ.get(key):
            out[name] = int(os.environ[key])
    return out


def main() -> None:
    variants = os.environ.get("TAVREI_TUNE_VARIANTS", "tavreli-no-split").split(",")
    for variant in variants:
        if not os.environ.get("TAVREI_TUNE_NO_RATES"):
            _rates(variant)
        keep = os.environ.get("TAVREI_TUNE_OUT")
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(keep or tmp) / f"{variant}.json"
            t0 = time.perf_counter()
            cpu0 = _cpu()
            doc = tune(variant, out=out, executor="processes", workers=2, **_settings())
            print(f"  {variant}: tune at the defaults took {time.perf_counter() - t0:.0f} s "
                  f"wall, {_cpu() - cpu0:.0f} s CPU (this process and its workers)")
            for e in doc["log"]:
                print(f"    generation {e['generation']}: {e['games']} games + "
                      f"{e.get('extra_games', 0)} for the gate, score vs previous "
                      f"{e['score_vs_previous']}, accepted {e['accepted']}, draws "
                      f"{e['draws']}, capped {e['capped']}, positions {e['positions']}")
                if "gate" in e:
                    print("      " + gate_text(e["gate"]))
            tuned = load_weights(out)
            print("  weights: " + ", ".join(
                f"{k}={v:g}" for k, v in tuned.as_dict().items()
                if v != DEFAULT_WEIGHTS.as_dict()[k]))
        pairs = [("tuned vs untuned", tuned, DEFAULT_WEIGHTS)]
        if os.environ.get("TAVREI_TUNE_CONTROL"):   # the draws' control: untuned self-play
            pairs.append(("untuned vs untuned", DEFAULT_WEIGHTS, DEFAULT_WEIGHTS))
        for label, a, b in pairs:
            r = match(variant, a, b, games=MATCH_GAMES, executor="processes", workers=2)
            share = r["draws_3_ahead"] / r["draws"] if r["draws"] else 0.0
            print(f"  {variant} {label} at {DEFAULT_NODES} nodes: score {r['score']:.3f} "
                  f"[{r['low']:.3f}, {r['high']:.3f}] over {r['games']} games "
                  f"(+{r['wins']} ={r['draws']} -{r['losses']}), Elo {r['elo']:+.0f} "
                  f"[{r['elo_low']:+.0f}, {r['elo_high']:+.0f}]; draws 3+ ratniks ahead "
                  f"{r['draws_3_ahead']}/{r['draws']} ({share:.0%}); of the draws {r['capped']} "
                  f"stopped at the ply cap, by ending {r['draw_endings']}; {r['seconds']:.0f} s")
