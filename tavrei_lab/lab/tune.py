"""Fitting the playing evaluation to a variant: self-play, then the Texel method.

The playing search came with chess's values; a variant that forbids splits or
adds a die is a different game, and a player that misjudges it cannot convert
what it wins. ``tune`` fits the weights of ``engine.weights`` to the variant:

1. each *generation* plays ``games`` self-play games with the node-limited
   playing search (``play:nodes=K``; no clock, so the same seed gives the same
   games anywhere): the current weights against the previous generation's,
   colours alternated -- the games train the next fit *and* measure the current
   weights against the last ones;
2. from every game it samples *quiet* positions (the side to move not in check,
   the last move no capture) and labels them with the game's result for white
   (1, 1/2, 0);
3. it fits the weights by the Texel method: with ``q`` the evaluation (white's
   view, centipawns), minimise the mean of ``(R - sigmoid(k q))^2`` -- first
   ``k`` for the current weights (a golden-section search), then the weights by
   gradient descent (Adam steps, pure Python so it runs in Pyodide too). The
   evaluation is linear in its terms but for the prisoner products, so each
   sampled position is kept as its few non-zero *features*, and a step costs a
   pass over those numbers instead of a search.

Two rules keep the labels honest. A game stopped at the ply cap has no result:
its positions are not learnt (most were won positions the players could not
finish, and labelled as draws they taught the first fit that material does not
matter, so it lost 0.388 to the defaults); only when no game of the tune has a
result are they learnt as draws, and the log says so. And a *gate*: a
generation's games are the new weights against the ones they replace (on that
generation's openings, which no fit has seen), and the new weights are kept only
when a sequential probability ratio test on those games says they are better
(``gate``): otherwise they are dropped (``accepted: false`` in the log) and the
previous ones kept, so the last generation only tests. The file holds the last
weights that passed (``proven: true``); when no gate said "better", it holds the
tune's last fit, marked ``proven: false`` (fit method 5; before, the start weights,
so a short tune wrote a file that said it had learnt nothing, the evidence
only in its log). A player that needs proven weights reads ``proven``.

The gate's rule (fit method 4; until then "score at least 0.5 over the
generation's games", which let through a ``tavreli`` fit that scored 0.590 over
100 games and 0.463 over 200 fresh ones: a 100-game score's standard error is
about 0.05, so a no-better fit passed about half the time). The unit is a game
*pair* (one opening, each colour once; its score 0, 1/4, ..., 1), so the
opening's own bias cancels. After every pair, in the games' order, the test
computes Wald's log-likelihood ratio of H1 "the new weights score as +``elo1``
Elo" (``GATE_ELO1`` = 50) against H0 "they score as the old, +0" in the normal
approximation of the generalised SPRT (as fishtest and OpenBench do):
``LLR = n (s1 - s0) (2 m - s0 - s1) / (2 v)``, with ``n`` pairs of mean ``m``,
``s0, s1`` the scores of the two Elo values and ``v`` the variance of the pair
scores (taken with one pair of 0 and one of 1 added, so a few pairs alike cannot
make it zero). It stops at the first pair where ``LLR`` leaves
``(log(beta/(1 - alpha)), log((1 - beta)/alpha))`` = (-2.94, +2.94), with
alpha = beta = 0.05: above, the new weights are **accepted**; below, dropped. A
generation plays its ``games`` whatever the test says (they are the next fit's
positions too); when the test is still undecided after them it plays more pairs
on fresh openings, 20 games at a time, up to ``gate_games`` more (default: as
many as ``games``), and a test still undecided then drops the new weights: an
unproven fit is not shipped. Simulated (pairs of independent games, 8.5 %
draws, at most 100 pairs), the test accepts a fit no better than the old
weights (+0) 3 % of the times, one of +30 Elo 21 %, +60 68 %, +100 98 %. The
log keeps the test's figures per generation (pairs, LLR and its bounds, the
score and its 95 % interval over the pairs it used, the decision).

Each generation's games go to a checkpoint file beside ``--out`` as they finish
(one JSON line a game), so a tune stopped by Ctrl-C resumes where it was; the fit
itself is deterministic, so it is simply done again from the stored games.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tavrei_lab.core.files import os_failure
from tavrei_lab.core.move import Move
from tavrei_lab.core.progress import progress_bar
from tavrei_lab.core.tavrel import (
    COLOR_BIT,
)
from tavrei_lab.engine.agents import ENDING_NODES, PlayAgent
from tavrei_lab.engine.play_eval import die_faces
from tavrei_lab.engine.selfplay import DEFAULT_MAX_PLIES as DEFAULT_MAX_PLIES  # the lab's cap
from tavrei_lab.engine.selfplay import MAX_PLIES, OLD_SPELLINGS, GameLimits, Watch, play_out
from tavrei_lab.engine.weights import (
    DEFAULT_WEIGHTS,
    EVALUATION_VERSION,
    KIND_NAMES,
    NAMES,
    Weights,
    WeightsFileError,
    load_weights_file,
    proof_record,
    save_weights,
    variant_hash,
)
from tavrei_lab.errors import LimitError
from tavrei_lab.game import Game
from tavrei_lab.i18n import gettext as _
from tavrei_lab.i18n import ngettext
from tavrei_lab.lab.parallel import resolve_executor
from tavrei_lab.lab.runner import derive_seed
from tavrei_lab.lab.statistics import (
    elo,
    elo_interval,
    elo_score,
    pair_half_width,
    pair_interval,
    pair_scores,
    sprt,
    sprt_llr,
)
from tavrei_lab.lab.texel import (
    features,
    fit_k,
    fit_loss,
    fit_weights_to,
    linear_value,
)
from tavrei_lab.lab.tune_checkpoint import (
    MAX_TUNE_GAMES,
    MAX_TUNE_GENERATIONS,
    TuneCheckpointError,
    TuneInterrupted,
    check_tune_settings,
    check_weights_out,
    checkpoint_dir,
    cluster_failure,
    open_checkpoint,
    read_games,
)
from tavrei_lab.rules.base import RuleModule
from tavrei_lab.variant import rules_hash, variant_data, variant_from_data

#: Defaults of ``tavrei-lab tune``: measured to finish a tavreli tune in about
#: DEFAULT_MINUTES on 2 cores (docs/lab.md, the tuning section).
DEFAULT_GENERATIONS = 3
DEFAULT_GAMES = 100
DEFAULT_NODES = 300
#: Positions sampled per game (at most), after the opening's first plies.
SAMPLES_PER_GAME = 24
OPENING_PLIES = 6
#: Plies played at random (seeded) before the searches take over: a node-limited search
#: is deterministic, so without them every self-play game of a generation is the same.
RANDOM_PLIES = 4
#: The fit method's version: raised whenever what ``tune`` does with the same settings
#: changes (sampling, labels, the gate, the fit's steps).
FIT_METHOD_VERSION = 6      # 3: the conversion terms are not fit; 4: the SPRT gate;
#                              5: nothing proven, the file holds the last fit (unproven);
#                              6: games to ply 300, 8x nodes in won endings (ending=8)
#: The gate (see the module's docstring): an SPRT on game pairs of H1 "+GATE_ELO1 Elo"
#: against H0 "+GATE_ELO0", with error rates GATE_ALPHA (a no-better fit accepted) and
#: GATE_BETA (a +GATE_ELO1 fit dropped); undecided after a generation's games, it plays
#: GATE_BATCH more games at a time, at most ``gate_games`` (default: ``games``).
GATE_ELO0 = 0.0
GATE_ELO1 = 50.0
GATE_ALPHA = 0.05
GATE_BETA = 0.05
GATE_BATCH = 20
#: Games submitted and not yet finished, at most: a generation's games are planned as
#: workers free up, never built all at once (a million games took 411 MB in 90 s).
TUNE_IN_FLIGHT = 64
#: What a fit depends on besides the variant and the tune's settings: the evaluation's
#: version and the method's. The lab's store keys its fits by it (with the settings),
#: and a tune's checkpoint records it, so a changed evaluation or method never reuses
#: an old fit or its games.
FIT_VERSION = f"evaluation-{EVALUATION_VERSION}/fit-{FIT_METHOD_VERSION}"

@dataclass(frozen=True)
class TuneGame:
    """One self-play game of a tune, as a worker needs it (picklable)."""

    variant: dict[str, Any]
    white: dict[str, float]
    black: dict[str, float]
    nodes: int
    seed: int
    index: int
    max_plies: int = DEFAULT_MAX_PLIES
    random_plies: int = RANDOM_PLIES
    opening: int = 0          # games with the same opening number start alike
    ending: int = ENDING_NODES    # node budget's factor in a won ending (PlayAgent)


# the material of the tavrels on top only: a game's lead without the ones buried under
# their own colour
_TOPS_ONLY = DEFAULT_WEIGHTS.with_(**{"buried_" + n: 0.0 for n in KIND_NAMES.values()}).vector()


class _OpeningPlayer:
    """A tune's player: its first ``random_plies`` plies at random from the opening's
    shared generator (a node-limited search alone plays one game over and over),
    the search after them."""

    def __init__(self, agent: PlayAgent, rng: random.Random, random_plies: int) -> None:
        self.agent = agent
        self.rng = rng
        self.random_plies = random_plies

    def choose(self, game: Game) -> Move:
        if game.ply < self.random_plies:
            return self.rng.choice(game.legal_moves())
        return self.agent.choose(game)


class _QuietSampler(Watch):
    """Collects the quiet positions a tune learns from, as each action is played.

    A die game is learnt where its search evaluates: at the chance nodes (the die
    search has no quiescence, and every leaf is a position before a roll), right
    after captures and with a volkhv attacked too -- that is what the die's terms
    are for, and a check there is no forced reply but a threat the die may not allow.
    """

    lists_moves = False

    def __init__(self, die: bool, random_plies: int) -> None:
        self.die = die
        self.random_plies = random_plies
        self.quiet: list[list[tuple[int, float]]] = []
        self.capture_before = False

    def rolled(self, game: Game, before: Any, face: str) -> None:
        if self.die and game.ply >= max(OPENING_PLIES, self.random_plies):
            self.quiet.append(features(before))

    def moved(self, game: Game, before: Any, move: Move) -> None:
        ply = game.ply - 1                 # the ply the move was chosen at
        if ply < self.random_plies:
            self.capture_before = True     # not a quiet position to learn from
            return
        if not self.die and ply >= OPENING_PLIES and not self.capture_before \
                and not game.rules.is_check(before):
            self.quiet.append(features(before))
        self.capture_before = bool(before.board[move.to_square]) and \
            before.board[move.to_square][-1] & COLOR_BIT != before.turn


def play_tune_game(task: TuneGame) -> dict[str, Any]:
    """Play one game of a tune and sample its quiet positions (a top-level function, so
    a process pool or a dask worker can run it)."""
    rules = variant_from_data(task.variant, where="tune task")
    game = Game(rules, seed=task.seed)
    rng = random.Random(derive_seed("opening", task.opening))
    agents = [_OpeningPlayer(PlayAgent(seed=derive_seed(task.seed, colour), nodes=task.nodes,
                                       weights=Weights.from_dict(weights), ending=task.ending),
                             rng, task.random_plies)
              for colour, weights in (("white", task.white), ("black", task.black))]
    sampler = _QuietSampler(die_faces(rules) is not None, task.random_plies)
    end = play_out(game, agents, GameLimits(max_plies=task.max_plies), sampler)
    quiet = sampler.quiet
    score = 0.5 if end.winner is None else 1.0 if end.winner == 0 else 0.0
    if len(quiet) > SAMPLES_PER_GAME:
        quiet = random.Random(derive_seed(task.seed, "samples")).sample(quiet, SAMPLES_PER_GAME)
    material = [(i, a) for i, a in features(game.position) if NAMES[i].startswith(("value_",
                                                                                  "held_"))]
    lead = linear_value(DEFAULT_WEIGHTS.vector(), material) / 100     # ratniks, white's view
    # the same without the tavrels buried under their own colour's top: without splits
    # they never move again, so a tower of twenty is one piece, not twenty
    lead_tops = linear_value(_TOPS_ONLY, material) / 100
    return {"index": task.index, "score": score, "plies": game.ply, "lead": round(lead, 2),
            "lead_tops": round(lead_tops, 2),
            "adjudicated": end.adjudicated,
            "termination": end.reason,
            # a non-decisive game's last position, to tell a drawn ending from a win the
            # players did not finish (``match()["draw_games"]``)
            **({"final": str(game.position)} if score == 0.5 else {}),
            "positions": [list(map(list, f)) for f in quiet]}


def _points(rows: Sequence[dict[str, Any]]) -> list[float]:
    """The first-named weights' points per game: they have white in the even-numbered
    games, black in the odd ones (``match``, a tune generation and its gate alike)."""
    return [r["score"] if r["index"] % 2 == 0 else 1.0 - r["score"] for r in rows]


def sprt_gate(points: Sequence[float], *, elo0: float = GATE_ELO0, elo1: float = GATE_ELO1,
              alpha: float = GATE_ALPHA, beta: float = GATE_BETA) -> dict[str, Any]:
    """The tune's gate on the new weights' points per game (``points[2k]`` and
    ``points[2k + 1]``: one opening, each colour once): the SPRT looks after every
    pair in order and stops at the first that takes the log-likelihood ratio out of
    ``(log(beta / (1 - alpha)), log((1 - beta) / alpha))``. ``decision``: "better"
    (above: accept the new weights), "not better" (below) or None (not yet: more pairs,
    or, at the end of the gate's games, drop them). ``pairs``, ``llr``, ``score``,
    ``low``, ``high``: at the stop, or over every pair when undecided.

    >>> sprt_gate([1.0, 0.5] * 30)["decision"], sprt_gate([0.5, 0.0] * 30)["decision"]
    ('better', 'not better')
    """
    return sprt(pair_scores(points), elo0=elo0, elo1=elo1, alpha=alpha, beta=beta)


#: The pair helpers of ``lab.statistics`` under their names in this module.
_pairs, _pair_half_width, _pair_interval = pair_scores, pair_half_width, pair_interval


def match(variant: RuleModule | str, a: Weights, b: Weights, *, games: int = 200,
          nodes: int = DEFAULT_NODES, seed: int = 1, executor: Executor | str | None = None,
          workers: int | None = None, max_plies: int = DEFAULT_MAX_PLIES,
          ending: int = ENDING_NODES) -> dict[str, Any]:
    """``a`` against ``b`` at equal nodes: each seeded random opening played twice, colours
    swapped. Returns a's score with its 95 % interval (game pairs as the unit, Student's
    t on the pair means: a pair shares its opening) and Elo, and how many of the
    draws ended with one side 3 or more ratniks ahead: by the default values
    (``draws_3_ahead``) and counting only what is not buried under its own colour's
    top (``draws_3_ahead_tops``); ``draw_games`` lists the non-decisive games with their
    last positions, to tell drawn endings from wins left unfinished at the ply cap.
    ``ending`` is both players' ``PlayAgent(ending=...)``."""
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_TUNE_GAMES:
        raise LimitError(_("match: games must be 1..{most}, got {games}")
                         .format(most=MAX_TUNE_GAMES, games=repr(games)[:40]))
    if isinstance(variant, str):
        from tavrei_lab.variant import load_variant
        variant = load_variant(variant)
    data = variant_data(variant)
    pool, owned = resolve_executor(executor, workers)
    try:
        tasks = (TuneGame(data, (a if i % 2 == 0 else b).as_dict(),
                          (b if i % 2 == 0 else a).as_dict(), nodes,
                          derive_seed(seed, "match", i), i, max_plies,
                          opening=derive_seed(seed, "match-opening", i // 2),
                          ending=ending)
                 for i in range(games))
        t0 = time.perf_counter()
        rows = sorted(_played(pool, tasks), key=lambda row: row["index"])
        seconds = time.perf_counter() - t0
    finally:
        if owned:
            pool.shutdown(wait=True, cancel_futures=True)
    points = _points(rows)
    score = sum(points) / len(points)
    half = pair_half_width(pair_scores(points))
    low, high = max(0.0, score - half), min(1.0, score + half)
    rating, rating_low, rating_high = elo_interval(score, low, high)
    draws = [r for r in rows if r["score"] == 0.5]
    big = [r for r in draws if abs(r.get("lead", 0.0)) >= 3]
    big_tops = [r for r in draws if abs(r.get("lead_tops", 0.0)) >= 3]
    # how the non-decisive games ended: a game stopped at the ply cap is no draw of the
    # rules but a win the players did not finish in time (still counted in "draws")
    ends: dict[str, int] = {}
    for r in draws:
        end = r.get("termination", MAX_PLIES if r.get("adjudicated") else "draw")
        end = OLD_SPELLINGS.get(end, end)       # a checkpoint's games of an older tune
        ends[end] = ends.get(end, 0) + 1
    return {"games": len(rows), "score": score, "low": low, "high": high,
            "capped": sum(1 for r in draws if r.get("adjudicated")), "draw_endings": ends,
            "decisive_plies": (sum(r["plies"] for r in rows if r["score"] != 0.5)
                               / max(1, len(rows) - len(draws))),
            "elo": rating, "elo_low": rating_low, "elo_high": rating_high,
            "wins": sum(1 for p in points if p == 1.0), "draws": len(draws),
            "losses": sum(1 for p in points if p == 0.0),
            "draws_3_ahead": len(big), "draws_3_ahead_tops": len(big_tops),
            "draw_games": [{k: r.get(k) for k in ("index", "plies", "lead", "lead_tops",
                                                  "termination", "final")} for r in draws],
            "seconds": seconds}


def gate_text(gate: dict[str, Any]) -> str:
    """The gate's figures in a line: the test, its pairs, LLR and bounds, its decision."""
    verdict = {"better": _("better: kept"), "not better": _("not better: dropped"),
               None: _("undecided: dropped")}[gate["decision"]]
    return _("SPRT +{elo0:g}/+{elo1:g} Elo: LLR {llr:.2f} after {pairs} pairs (bounds "
             "{lower:.2f}, {upper:.2f}), score {score:.3f} [{low:.3f}, {high:.3f}], "
             "{verdict}").format(verdict=verdict, **{k: v for k, v in gate.items()
                                                    if k != "decision"})


def written_text(doc: dict[str, Any]) -> str:
    """Which weights a tune's file holds, in a line: the gate's, the last fit's, or --
    when no generation had a position to fit (every game too short to leave a quiet
    one) -- the start weights, so the line never claims a fit that was not made."""
    if doc.get("proven"):
        return _("written: the last weights the gate proved better")
    if not any("k" in entry for entry in doc.get("log", ())):
        return _("written: the start weights (no generation had positions to fit)")
    if doc.get("generations", 1) > 1:
        return _("written: the last fit, not proven better than the start weights (no "
                 "gate said \"better\")")
    return _("written: the fit (one generation: no gate tested it)")


def _kept_games(ckpt: Path, generations: int) -> int:
    try:
        return sum(len(read_games(ckpt / f"generation-{g}.jsonl"))
                   for g in range(1, generations + 1))
    except OSError:
        return 0


def _kept_text(kept: int, ckpt: Path) -> str:
    return ngettext("{count} games of this tune are kept in {folder}",
                    "{count} games of this tune are kept in {folder}", kept).format(
        count=kept, folder=ckpt)


#: How often a tune waiting on a dask cluster asks whether any worker is connected, and
#: how long it waits with none before it stops (seconds), as a sweep does.
WORKER_CHECK_SECONDS = 5.0
NO_WORKER_WAIT = 60.0


class _WorkerWatch:
    """A dask cluster with no worker left: said once, and the tune stops after
    ``NO_WORKER_WAIT`` seconds (it would otherwise wait for ever, silently)."""

    def __init__(self, pool: Executor) -> None:
        client = getattr(pool, "_client", None)
        self.client = client if type(client).__module__.split(".")[0] == "distributed" else None
        self.since: float | None = None

    def check(self) -> None:
        if self.client is None:
            return
        try:
            workers = len(self.client.nthreads())
        except Exception as exc:   # the scheduler is gone: the futures will say so too
            raise TuneInterrupted(_("the dask scheduler stopped answering ({name})")
                                  .format(name=type(exc).__name__)) from None
        now = time.monotonic()
        if workers:
            self.since = None
        elif self.since is None:
            self.since = now
            print(_("no dask worker is connected to the scheduler; waiting up to "
                    "{no_worker_wait:g} s for one").format(no_worker_wait=NO_WORKER_WAIT),
                  file=sys.stderr, flush=True)
        elif now - self.since >= NO_WORKER_WAIT:
            raise TuneInterrupted(_("no dask worker was connected to the scheduler for "
                                    "{no_worker_wait:g} s").format(no_worker_wait=NO_WORKER_WAIT))


def _played(pool: Executor, tasks: Iterable[TuneGame]) -> Iterator[dict[str, Any]]:
    """Each game of ``tasks`` played, as it finishes: a task is drawn from the iterator
    only when fewer than ``TUNE_IN_FLIGHT`` are submitted and unfinished, so no
    generation or match is ever built whole (a million games took 411 MB in 90 s). A
    dask cluster left without workers stops it (``_WorkerWatch``)."""
    pending: set[Any] = set()
    watch = _WorkerWatch(pool)

    def drain(until: int) -> Iterator[dict[str, Any]]:
        nonlocal pending
        while len(pending) > until:
            finished, pending = wait(pending, timeout=WORKER_CHECK_SECONDS,
                                     return_when=FIRST_COMPLETED)
            if not finished:
                watch.check()
            for future in finished:
                yield future.result()

    try:
        for t in tasks:
            pending.add(pool.submit(play_tune_game, t))
            yield from drain(TUNE_IN_FLIGHT - 1)
        yield from drain(0)
    finally:
        for future in pending:
            future.cancel()


def _play_games(pool: Executor, tasks: Iterable[TuneGame], path: Path,
                done: dict[int, dict[str, Any]], shown: Any) -> None:
    """Play ``tasks``, appending each finished game to ``path``; a failed write is an
    ``OSError`` naming ``path``, not standard output."""
    try:
        sink = path.open("a", encoding="utf-8")
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    with sink:
        for row in _played(pool, tasks):
            try:
                sink.write(json.dumps(row) + "\n")
                sink.flush()
            except OSError as exc:         # a full disk: name the file, not stdout
                raise OSError(exc.errno, exc.strerror, str(path)) from None
            done[row["index"]] = row
            shown.update()


def tune(variant: RuleModule | str, *, generations: int = DEFAULT_GENERATIONS,
         games: int = DEFAULT_GAMES, nodes: int = DEFAULT_NODES, out: str | Path,
         seed: int = 0, executor: Executor | str | None = None,
         workers: int | None = None, max_plies: int = DEFAULT_MAX_PLIES,
         start: Weights = DEFAULT_WEIGHTS, gate_games: int | None = None,
         progress: Callable[[str], None] | None = None,
         bar: bool | str = True) -> dict[str, Any]:
    """Fit the playing evaluation's weights to ``variant``; write and return the file.

    ``out``: the weights file (with the settings hash and a log per generation); its
    games checkpoint sits beside it in ``<out>.games/`` and makes a rerun resume.
    ``progress``: called with a line of text per generation; ``bar``: a ``tqdm.auto``
    bar of each generation's games (True: shown where it can be, once a generation
    lasts a second; a mode; False: none), as sweeps and tournaments have.
    ``gate_games``: at most this many games the gate adds to a generation whose
    ``games`` left its test undecided (None: as many as ``games``; 0: none, and an
    undecided test drops the new weights at once).
    """
    extra_cap = check_tune_settings(generations=generations, games=games, nodes=nodes,
                                    gate_games=gate_games, max_plies=max_plies, seed=seed)
    out = check_weights_out(out)
    if isinstance(variant, str):
        from tavrei_lab.variant import load_variant
        variant = load_variant(variant)
    rules = variant
    # a die game's terms start at 0 (see fit_weights_to): k is fitted again to the fit
    fit_rounds = 2 if die_faces(rules) is not None else 1
    key = variant_hash(rules)
    data = variant_data(rules)
    ckpt = checkpoint_dir(out)
    settings = {"variant": data, "settings_hash": key, "games": games, "nodes": nodes,
                "seed": seed, "max_plies": max_plies, "start": start.as_dict(),
                "fit_version": FIT_VERSION,
                "gate": {"test": "sprt", "elo0": GATE_ELO0, "elo1": GATE_ELO1,
                         "alpha": GATE_ALPHA, "beta": GATE_BETA, "batch": GATE_BATCH,
                         "gate_games": extra_cap}}
    open_checkpoint(ckpt, settings)
    say = progress or (lambda text: None)
    pool, owned = resolve_executor(executor, workers)
    log: list[dict[str, Any]] = []
    previous = current = start
    # what the file will hold: the last weights a gate proved better, or, when no gate
    # did, the tune's last fit, marked unproven (the start weights would say the tune
    # learnt nothing, and a user who asked for a fit gets one, with the evidence)
    last_fit: Weights | None = None
    proven = False
    proof: dict[str, Any] | None = None
    training: list[tuple[float, list[tuple[int, float]]]] = []
    capped: list[tuple[float, list[tuple[int, float]]]] = []
    started = time.perf_counter()
    try:
        for gen in range(1, generations + 1):
            t0 = time.perf_counter()
            path = ckpt / f"generation-{gen}.jsonl"
            done = read_games(path, games + extra_cap)

            def task(i: int, gen: int = gen, new: Weights = current,
                     old: Weights = previous) -> TuneGame:
                new_white = i % 2 == 0
                return TuneGame(data, (new if new_white else old).as_dict(),
                                (old if new_white else new).as_dict(),
                                nodes, derive_seed(seed, key, gen, i), i, max_plies,
                                opening=derive_seed(seed, key, gen, i // 2))

            def play(indices: range, gen: int = gen, path: Path = path,
                     done: dict[int, dict[str, Any]] = done) -> None:
                count = sum(1 for i in indices if i not in done)
                if count:
                    say(_("generation {generation}: {count} games to play ({kept} kept from "
                        "before)").format(generation=gen, count=count, kept=len(done)))
                shown = progress_bar(count, _("tune generation {generation}").format(
                                         generation=gen), unit=_("game"),
                                     mode=None if bar is True else "off" if bar is False
                                     else str(bar), delay=1.0)
                with shown:
                    _play_games(pool, (task(i) for i in indices if i not in done), path,
                                done, shown)

            play(range(games))
            played = games
            gate: dict[str, Any] | None = None
            if gen > 1:
                # the gate: the SPRT on the pairs so far; undecided, it plays more pairs
                # on fresh openings (fixed batches, so the same seed decides alike on any
                # executor), and the new weights are kept only when it says "better"
                gate = sprt_gate(_points([done[i] for i in range(played)]))
                while gate["decision"] is None and played < games + extra_cap:
                    more = min(GATE_BATCH, games + extra_cap - played)
                    say(_("generation {generation}: the gate is undecided (LLR {llr:.2f} "
                          "after {pairs} pairs, bounds {lower:.2f}, {upper:.2f}): {count} "
                          "more games").format(generation=gen, count=more, **gate))
                    play(range(played, played + more))
                    played += more
                    gate = sprt_gate(_points([done[i] for i in range(played)]))
            rows = [done[i] for i in range(played)]
            # the current weights' score over the generation's games
            score = None if gen == 1 else sum(_points(rows)) / played
            accepted = gate is None or gate["decision"] == "better"
            proven = proven or (gate is not None and accepted)
            if gate is not None and accepted and previous == start:
                # a gate against the start weights is the fit's proof against them
                proof = proof_record(gate, current, start, nodes=nodes, max_plies=max_plies,
                                   seed=seed, games=2 * gate["pairs"],
                                   how=f"tune gate, generation {gen}")
            if not accepted:
                current = previous
            # a game stopped at the ply cap has no result: its "draw" was a position one
            # side was winning (seen: 6 of 10 draws, 30+ ratniks ahead), and learning it
            # taught the fit that material does not matter
            kept = [r for r in rows if not r["adjudicated"]]
            for r in rows:
                (training if not r["adjudicated"] else capped).extend(
                    (r["score"], [(int(i), float(a)) for i, a in p]) for p in r["positions"])
            # ... unless no game so far has a result (a tiny tune): then the cap's draws
            # are all there is to learn from, and the log says so
            learn = training or capped
            entry = {"generation": gen, "games": games, "positions": len(learn),
                     "capped_learnt": not training and bool(capped),
                     "score_vs_previous": score, "accepted": accepted,
                     "draws": sum(1 for r in rows if r["score"] == 0.5),
                     "capped": played - len(kept),
                     "mean_plies": sum(r["plies"] for r in rows) / played,
                     "extra_games": played - games}
            if gate is not None:
                entry["gate"] = gate
            if (gen < generations or generations == 1) and learn:
                fitted, k, loss = fit_weights_to(learn, current, rounds=fit_rounds)
                before = fit_loss(current.vector(), learn, k)
                entry.update(k=k, loss_before=before, loss_after=loss)
            entry["seconds"] = round(time.perf_counter() - t0, 2)
            log.append(entry)
            verdict = "" if gate is None else (
                _("score vs previous {score:.3f} (kept); ") if accepted
                else _("score vs previous {score:.3f} (dropped, back to the previous weights); ")
            ).format(score=score) + gate_text(gate) + "; "
            fitted_text = (_("fit loss {before:.4f} -> {after:.4f} on {count} positions").format(
                before=entry["loss_before"], after=entry["loss_after"], count=len(learn))
                if "k" in entry else _("the last: no fit"))
            say(_("generation {generation}: {gate}{fit}").format(generation=gen, gate=verdict,
                                                                 fit=fitted_text))
            if "k" in entry:
                previous, current = current, fitted
                last_fit = fitted
    except BaseException as exc:
        what = cluster_failure(exc) or (
            _("cannot write {file}: {reason}").format(file=exc.filename, reason=os_failure(exc))
            if isinstance(exc, OSError) and exc.filename is not None else
            str(exc) if isinstance(exc, TuneInterrupted) else "")
        stored = _kept_games(ckpt, generations)
        if what:
            raise TuneInterrupted(_("{what}; {kept}").format(
                what=what, kept=_kept_text(stored, ckpt)), stored, str(ckpt)) from None
        if isinstance(exc, KeyboardInterrupt):     # for the command's last line
            exc.games_kept = stored                # type: ignore[attr-defined]
            exc.folder = str(ckpt)                 # type: ignore[attr-defined]
        raise
    finally:
        if owned:
            pool.shutdown(wait=True, cancel_futures=True)
    written = current if proven or last_fit is None else last_fit
    doc = {"variant": data["id"], "settings_hash": key, "rules_hash": rules_hash(rules),
           "fit_version": FIT_VERSION,
           "nodes": nodes, "games": games, "gate_games": extra_cap,
           "generations": generations, "seed": seed, "proven": proven,
           "seconds": round(time.perf_counter() - started, 2), "log": log,
           **({"proof": proof} if proof is not None else {})}
    try:
        save_weights(out, written, **doc)
    except OSError as exc:
        stored = _kept_games(ckpt, generations)
        raise TuneInterrupted(_("cannot write the weights file {file}: {reason}; {kept}").format(
            file=out, reason=os_failure(exc), kept=_kept_text(stored, ckpt)),
            stored, str(ckpt)) from None
    say(written_text(doc))
    return {"weights": written.as_dict(), **doc}


__all__ = ["DEFAULT_GAMES", "DEFAULT_GENERATIONS", "DEFAULT_NODES", "FIT_VERSION", "GATE_ALPHA",
           "GATE_BATCH", "GATE_BETA", "GATE_ELO0", "GATE_ELO1", "MAX_TUNE_GAMES",
           "MAX_TUNE_GENERATIONS", "TUNE_IN_FLIGHT", "TuneCheckpointError", "TuneGame",
           "TuneInterrupted", "WeightsFileError", "check_tune_settings", "elo", "elo_score",
           "features", "fit_k", "fit_weights_to", "gate_text", "load_weights_file", "match",
           "play_tune_game", "sprt_gate", "sprt_llr", "tune", "written_text"]
