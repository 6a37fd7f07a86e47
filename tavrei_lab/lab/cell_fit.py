"""The weights a sweep's cell plays with when its agents ask for ``weights=fit``.

Either the package's (or a registered) fit for the cell's variant, or a tune run
for the cell on the sweep's executor and kept in the sweep's store, keyed by the
cell's rules and every tune setting: a rerun finds it and does not tune again.
A fit plays only with its proof (``engine.weights.fit_proof_problem``); an unproven
one is kept, and the cell is played by the default weights, with a line saying so.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sys
import tempfile
import warnings
from collections.abc import Iterator, Mapping
from concurrent.futures import Executor
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from tavrei_lab.engine.weights import (
    DEFAULT_WEIGHTS,
    UnprovenFitWarning,
    Weights,
    WeightsFileError,
    fit_proof_problem,
    fit_weights,
    shipped_fit,
    unproven_text,
    variant_hash,
)
from tavrei_lab.errors import LimitError, TavreiError
from tavrei_lab.i18n import gettext as _
from tavrei_lab.lab.cells import Cell
from tavrei_lab.lab.store import ResultsStore, StoreError, settings_hash
from tavrei_lab.lab.tune import (
    DEFAULT_GAMES,
    DEFAULT_GENERATIONS,
    DEFAULT_NODES,
    FIT_VERSION,
    TuneCheckpointError,
    check_tune_settings,
)
from tavrei_lab.lab.tune import DEFAULT_MAX_PLIES as TUNE_MAX_PLIES
from tavrei_lab.lab.tune import tune as run_tune
from tavrei_lab.notation.record import MAX_GAME_PLIES
from tavrei_lab.variant import load_variant, rules_hash

#: What a sweep's tune may set (``lab.tune.tune``'s arguments), and what it uses unless told.
TUNE_KEYS = ("generations", "games", "nodes", "seed", "max_plies")


def tune_settings(tune: bool | Mapping[str, Any] | None, seed: int = 0) -> dict[str, int] | None:
    """The tune a sweep runs for each cell (None: no tune), every setting spelled out,
    so the key it is stored under changes whenever any of them does (the tune's seed
    is the sweep's unless given).

    >>> tune_settings({"games": 8})["games"], tune_settings(False)
    (8, None)
    """
    if tune is None or tune is False:
        return None
    out = {"generations": DEFAULT_GENERATIONS, "games": DEFAULT_GAMES,
           "nodes": DEFAULT_NODES, "seed": seed, "max_plies": TUNE_MAX_PLIES}
    if tune is True:
        return out
    if not isinstance(tune, Mapping):
        raise TavreiError(_("tune: expected True or a mapping of {names}, got {tune!r}")
                              .format(names=", ".join(TUNE_KEYS), tune=tune))
    for key, value in tune.items():
        if key not in TUNE_KEYS:
            raise TavreiError(_("tune: unknown setting {key!r}; known: {names}")
                                  .format(key=key, names=", ".join(TUNE_KEYS)))
        least = 0 if key == "seed" else 1
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise TavreiError(_("tune: {key} must be a whole number {least} or more, got "
                                "{value!r}").format(key=key, least=least, value=value))
        out[key] = value
    if not 1 <= out["max_plies"] <= MAX_GAME_PLIES:
        raise LimitError(_("tune: max_plies must be 1..{max_game_plies}, got {max_plies}")
                             .format(max_game_plies=MAX_GAME_PLIES, max_plies=out['max_plies']))
    check_tune_settings(**out)        # a cell's tune has the bounds of ``tune``'s, refused now
    return out


def _source(rules: Any, weights: Weights) -> str:
    """Where ``weights=fit`` found a cell's weights without a tune: "shipped" (the
    package's file for the variant) or "registered" (``register_fit`` in this process)."""
    try:
        found = shipped_fit(rules)
    except WeightsFileError:
        return "registered"
    return "shipped" if found is not None and found[1] == weights else "registered"


def weights_key(weights: Weights) -> str:
    """A short key of every weight: what a cell's settings record as the weights it
    played with."""
    text = json.dumps(weights.as_dict(), sort_keys=True)
    return hashlib.blake2b(text.encode("utf-8"), digest_size=10).hexdigest()


def cell_fit(cell: Cell, tuning: dict[str, int] | None, db: ResultsStore, pool: Executor,
              workers: int | None, progress: bool | str
              ) -> tuple[Weights, dict[str, Any], int, str | None]:
    """The weights ``weights=fit`` means in ``cell``, what the cell's settings record of
    them, 1 when a tune was run now (0: stored or shipped), and the line saying the
    default weights play because the fit is unproven (None: the fit plays)."""
    rules = cell.rules if cell.rules is not None else load_variant(cell.base,
                                                                   **cell.option_dict)
    vh = variant_hash(rules)
    if tuning is None:
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", UnprovenFitWarning)
                weights = fit_weights(rules)
        except WeightsFileError as exc:
            raise TavreiError(_("sweep cell {name}: {exc}; or let the sweep fit each cell first "
                                "(--tune, sweep(tune=True))")
                                    .format(name=cell.name, exc=exc)) from None
        unproven = [str(w.message) for w in caught if issubclass(w.category, UnprovenFitWarning)]
        if unproven:
            return (weights, {"tune": "unproven", "weights": weights_key(weights)}, 0,
                    _("cell {name}: {line}").format(name=cell.name, line=unproven[0]))
        return weights, {"tune": _source(rules, weights), "weights": weights_key(weights)}, 0, None
    # the fit depends on the evaluation and the fit method too (FIT_VERSION): a changed
    # one is another fit, never an old one found in the store. It is keyed by the rules
    # as played (``rules_hash``), so equal rules under another id or name share it; a
    # fit stored under the variant's own settings hash is still found.
    key = settings_hash({"rules_hash": rules_hash(rules), "tune": tuning,
                         "version": FIT_VERSION})
    doc = db.fit(key)
    if doc is None:
        doc = db.fit(settings_hash({"variant_hash": vh, "tune": tuning,
                                    "version": FIT_VERSION}))
    ran = 0
    if doc is None:
        if db.readonly:
            raise StoreError(_("{path}: cell {name} has no tuned weights in this read-only "
                               "store, and they cannot be added; make it writable or use "
                               "another --store").format(path=db.path, name=cell.name))
        loud = progress is not False and progress != "off"

        def say(text: str) -> None:
            if loud:
                print(_("tuning {name}: {text}")
                          .format(name=cell.name, text=text), file=sys.stderr, flush=True)
        say(_("{generations} generations x {games} games at {nodes} nodes (kept in the store: a "
              "rerun does not tune again)")
                .format(generations=tuning['generations'], games=tuning['games'],
                        nodes=tuning['nodes']))
        with _tune_folder(db, key) as folder:
            try:
                doc = run_tune(rules, generations=tuning["generations"],
                               games=tuning["games"], nodes=tuning["nodes"],
                               seed=tuning["seed"], max_plies=tuning["max_plies"],
                               out=folder / "weights.json", executor=pool, workers=workers,
                               progress=say)
            except TuneCheckpointError as exc:
                # the sweep chose this folder, so tune's "choose another --out" would
                # send the user looking for an option the sweep does not have
                raise TuneCheckpointError(
                    _("{folder}: {problem}; remove it and run the sweep again (the tune "
                      "plays its games again)").format(folder=exc.folder, problem=exc.problem),
                    exc.folder, exc.problem) from None
            db.add_fit(key, vh, cell.name, doc)
        ran = 1
    weights = Weights.from_dict(doc["weights"],
                                where=_("the tuned weights of {cell}").format(cell=cell.name))
    problem = fit_proof_problem(doc, weights)
    line = None
    if problem is not None:
        # an unproven fit is kept in the store (a longer tune or a proof may follow), and
        # the cell is played by the player it would have replaced
        line = _("cell {name}: {line}").format(
            name=cell.name, line=unproven_text(_("of this cell's tune"), problem))
        weights = DEFAULT_WEIGHTS
    return weights, {"tune": key, "weights": weights_key(weights)}, ran, line


@contextmanager
def _tune_folder(db: ResultsStore, key: str) -> Iterator[Path]:
    """Where a cell's tune keeps its games while it runs: beside a store file (so a tune
    stopped midway resumes), removed once the weights are in the store; a temporary
    folder for a store in memory."""
    if db.path == ":memory:":
        with tempfile.TemporaryDirectory(prefix="tavrei-tune-") as tmp:
            yield Path(tmp)
        return
    parent = Path(db.path + ".tunes")
    folder = parent / key
    folder.mkdir(parents=True, exist_ok=True)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)     # reached only once the fit is stored
    with suppress(OSError):
        parent.rmdir()                            # only when no other tune is under way


__all__ = ["TUNE_KEYS", "cell_fit", "tune_settings", "weights_key"]
