"""Won positions the lab's players must finish: harvesting them, and playing them out.

The conversion benchmark (``python -m benchmarks conversion``) starts from positions
where one side is clearly winning and asks whether the lab's players win them before
the fifty-move rule or a ply cap ends the game. The positions come from the lab's own
games (``harvest``): self-play games of the players the lab's study uses
(``play:nodes=K,weights=fit,noise=10``; ``weights=fit`` only where the package ships
a fit for the variant) that ended without a winner -- stopped at the ply cap, or drawn
by the fifty-move rule or by repetition. From each such game the position where its
last stretch without a capture or a ratnik move began (the fifty-move clock at 0) is
kept if a deeper search (``DEEP_NODES`` nodes, the evaluation without its conversion
terms, so that its figure is material and position, not the hunt's bonus; a die
game's chance node averaged over the die's faces) puts one side ``LEAD_CP`` or more
ahead.

Run the harvest (its command and settings are written into the file it makes)::

    nice -n 10 python -m benchmarks.conversion harvest --out benchmarks/data/conversion.json

The positions are data (``benchmarks/data/conversion.json``); ``convert`` plays one of
them to its end with two agents, as the lab's tournaments play a game (the die rolled
by the game's seeded generator), and says whether the side ahead won.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tavrei_lab import Game
from tavrei_lab.core.tavrel import ACTING
from tavrei_lab.engine.agents import make_agent
from tavrei_lab.engine.play import PlaySearcher
from tavrei_lab.engine.play_eval import GATE_CP, HUNT_LEAD, evaluate_for_side
from tavrei_lab.engine.search import Limits
from tavrei_lab.engine.selfplay import GameLimits, play_out
from tavrei_lab.engine.weights import DEFAULT_WEIGHTS
from tavrei_lab.lab.runner import GameSpec, derive_seed, play_game

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data" / "conversion.json"

#: The variants harvested, each with the agent spec its games were played with (the
#: lab study's players; ``weights=fit`` where a fit ships with the package).
LAB_AGENTS = {
    "tavreli": "play:nodes={n},weights=fit,noise=10",
    "tavreli-no-split": "play:nodes={n},weights=fit,noise=10",
    "gavrilov-die": "play:nodes={n},weights=fit,noise=10",
    "gavrilov-die-mate": "play:nodes={n},noise=10",
    "gavrilov-die-8x8": "play:nodes={n},noise=10",
}
#: The players of the harvest's games: the lab study's at its smaller budget, and the
#: lab's default sweep players (``lab.sweep.DEFAULT_AGENTS``); the ply cap is the
#: study's.
HARVEST_NODES = 150
SWEEP_AGENTS = "level:1,nodes=20000"
HARVEST_PLIES = 200
#: The deeper search that judges a candidate, and the lead it must show (centipawns).
DEEP_NODES = 6_000
LEAD_CP = 700
#: The second judge (``confirm``): a search ten times deeper than the harvest's must put
#: the same side ``LEAD_CP`` or more ahead, or the position is not counted as won. The
#: harvest's 6,000-node judge put black 13 ratniks ahead in position 24, where 60,000
#: nodes put white 5.8 ahead and 600,000 nodes white 1.5 ahead: a lead the first search
#: saw only for lack of depth.
CONFIRM_NODES = 60_000
#: Positions looked at per non-decisive game, and how many positions apart.
PER_GAME = 4
SPACING = 24
#: What the side ahead's tops (the tavrels that move: prisoners and tavrels buried under
#: their own colour never do without a split) must be worth more than the other
#: side's, by the fixed chess values (centipawns): the judge counts prisoners, and a
#: volkhv on a tower of twenty prisoners with nothing else to move is 40 ratniks
#: "ahead" in a dead draw. The lead the evaluation's conversion gate asks
#: (``play_eval.HUNT_LEAD``, three ratniks).
TOPS_LEAD = HUNT_LEAD
#: The evaluation the judging search uses: the conversion ("hunt") terms off, so a
#: lead is material and position, not the hunt's own bonus.
JUDGE_WEIGHTS = DEFAULT_WEIGHTS.with_(hunt_edge=0.0, hunt_near=0.0, hunt_room=0.0,
                                      hunt_ratnik=0.0, hunt_trade=0.0)


class _Keep:
    """A ``play_game`` watch that keeps the game being played."""

    game: Any = None

    def decision(self, game: Any, moves: Any) -> None:
        self.game = game

    def moved(self, game: Any, before: Any, move: Any) -> None:
        self.game = game


def judge(variant: str, position: str, nodes: int = DEEP_NODES) -> int:
    """White's lead in centipawns by a ``nodes``-node playing search (``JUDGE_WEIGHTS``);
    at a die game's chance node, the faces' values weighed by their probabilities."""
    game = Game(variant, position, seed=0)
    rules = game.rules
    searcher = PlaySearcher(rules, weights=JUDGE_WEIGHTS)
    pos = game.position
    if rules.is_chance_node(pos):
        total = 0.0
        for face, p in rules.chance_outcomes(pos):
            child = rules.apply_roll(pos, face)
            if rules.is_chance_node(child):     # the roll allows no move: the turn passes
                value = float(evaluate_for_side(child, JUDGE_WEIGHTS))
            else:
                value = _search_value(searcher, child, nodes)
            total += p * (value if child.turn == pos.turn else -value)
        side = total
    else:
        side = _search_value(searcher, pos, nodes)
    return round(side if pos.turn == 0 else -side)


def _search_value(searcher: PlaySearcher, pos: Any, nodes: int) -> float:
    if not searcher.rules.legal_moves(pos):
        outcome = searcher.rules.outcome(pos)
        if outcome is None or outcome.winner is None:
            return 0.0
        return 10_000.0 if outcome.winner == pos.turn else -10_000.0
    return 100 * searcher.search(pos, Limits(nodes=nodes)).value


@dataclass(frozen=True)
class HarvestTask:
    variant: str
    players: str
    seed: int


def harvest_game(task: HarvestTask) -> list[dict[str, Any]]:
    """Play one harvest game; the won positions kept from it (dicts for the data file)."""
    spec = task.players
    watch = _Keep()
    result = play_game(GameSpec(task.variant, spec, spec, task.seed, max_plies=HARVEST_PLIES),
                       watch=watch)
    game = watch.game
    if result.winner is not None or game is None:
        return []
    positions = game.positions
    found: list[dict[str, Any]] = []
    for at in _candidates(positions):
        pos = positions[at]
        if Game(task.variant, pos.string, seed=0).outcome(claim_draw=True) is not None:
            continue
        lead = judge(task.variant, pos.string)
        if abs(lead) >= LEAD_CP and tops_lead(pos, 0 if lead > 0 else 1) >= TOPS_LEAD:
            found.append({"variant": task.variant, "position": pos.string,
                          "ahead": "white" if lead > 0 else "black", "lead_cp": lead,
                          "game": {"agents": spec, "seed": task.seed,
                                   "ended": result.termination, "plies": game.ply,
                                   "position_index": at}})
    return found


def tops_lead(position: Any, side: int) -> int:
    """How much ``side``'s tops but its volkhv outweigh the other side's (centipawns,
    fixed chess values: ``play_eval.GATE_CP``)."""
    tops = [0, 0]
    for tower in position.board:
        if tower:
            tops[tower[-1] & 1] += GATE_CP[ACTING[tower[-1]]]
    return tops[side] - tops[1 - side]


def _candidates(positions: list[Any]) -> list[int]:
    """Where to look in a non-decisive game: the start of its last stretch without a
    capture or a ratnik move (the fifty-move clock at 0), and up to ``PER_GAME - 1``
    earlier positions, each ``SPACING`` positions before the one after it (a chance
    node in a die game: the position a move brought about)."""
    def usable(i: int) -> bool:
        return positions[i].roll is None
    last = max(i for i, p in enumerate(positions) if p.halfmove_clock == 0 and usable(i))
    out = [last]
    at = last
    while len(out) < PER_GAME:
        at -= SPACING
        while at > 0 and not usable(at):
            at -= 1
        if at <= 0:
            break
        out.append(at)
    return out


def harvest(games: int, seed: int, workers: int, out: Path, how: dict[str, Any],
            variants: list[str] | None = None) -> list[dict[str, Any]]:
    """Play the harvest games in ``workers`` processes; the file ``out`` is rewritten
    after every game that gave positions (in task order), so a stopped harvest keeps
    what it found."""
    # the sweep players' games first: they are short (one ply a move)
    tasks = [HarvestTask(v, spec, derive_seed(seed, v, spec, i))
             for spec_of in (lambda v: SWEEP_AGENTS,
                             lambda v: LAB_AGENTS[v].format(n=HARVEST_NODES))
             for i in range(games) for v in (variants or LAB_AGENTS) for spec in (spec_of(v),)]
    got: dict[int, list[dict[str, Any]]] = {}
    done = 0
    with ProcessPoolExecutor(workers) as pool:
        futures = {pool.submit(harvest_game, t): i for i, t in enumerate(tasks)}
        for future in as_completed(futures):
            i = futures[future]
            done += 1
            items = future.result()
            task = tasks[i]
            print(f"[{done}/{len(tasks)}] {task.variant:18} {task.players:38} "
                  f"seed {task.seed:>10}: "
                  f"{len(items)} kept", flush=True)
            if items:
                got[i] = items
                _write(out, how, _unique(got))
    return _unique(got)


def _unique(got: dict[int, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    seen: set[tuple[str, str]] = set()
    found = []
    for i in sorted(got):
        for item in got[i]:
            key = (item["variant"], item["position"])
            if key not in seen:
                seen.add(key)
                found.append(item)
    return found


def _write(out: Path, how: dict[str, Any], found: list[dict[str, Any]]) -> None:
    doc = {"format": "tavrei-conversion/1", "how": how, "positions": found}
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")


def confirm(path: Path = DATA, nodes: int = CONFIRM_NODES,
            command: str = "") -> list[dict[str, Any]]:
    """Judge every position of ``path`` again ``nodes`` deep and write the verdict into
    it (``confirm``: the nodes, white's lead, and whether the side ahead still leads by
    ``LEAD_CP``); the positions themselves are left as they are. Returns them."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    for item in doc["positions"]:
        lead = judge(item["variant"], item["position"], nodes)
        sign = 1 if item["ahead"] == "white" else -1
        item["confirm"] = {"nodes": nodes, "lead_cp": lead, "confirmed": sign * lead >= LEAD_CP}
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                            text=True, capture_output=True).stdout.strip() or "unknown"
    doc["how"]["confirm"] = {"command": command, "commit": commit, "nodes": nodes,
                             "lead_cp": LEAD_CP, "judge_weights": "as the harvest's judge",
                             "kept": "every position; one not confirmed is reported apart "
                                     "by the benchmark, not counted as won"}
    _write(path, doc["how"], doc["positions"])
    return list(doc["positions"])


def is_confirmed(item: dict[str, Any]) -> bool:
    """Does the second judge agree that the position is won (True where it has not
    judged it: a file made before the confirmation)?"""
    return bool(item.get("confirm", {}).get("confirmed", True))


def convert(variant: str, position: str, white: str, black: str, seed: int,
            max_plies: int = 300) -> tuple[str | None, str, int]:
    """Play ``position`` out with agents ``white`` and ``black`` (specs): the winner
    ("white", "black" or None), how the game ended (a rules ending or "max-plies"),
    and the plies played. The game is played by the package's one game loop under its
    one adjudication policy (``engine.selfplay.play_out``); the die is rolled by the
    game's generator (``seed``)."""
    game = Game(variant, position, seed=seed)
    agents = (make_agent(white, seed=derive_seed(seed, "white")),
              make_agent(black, seed=derive_seed(seed, "black")))
    end = play_out(game, agents, GameLimits(max_plies=max_plies))
    winner = None if end.winner is None else ("white", "black")[end.winner]
    return winner, end.reason, game.ply


def load_positions(path: Path = DATA) -> list[dict[str, Any]]:
    return list(json.loads(path.read_text(encoding="utf-8"))["positions"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    h = sub.add_parser("harvest", help="play the lab's games and keep the won positions")
    h.add_argument("--games", type=int, default=40, help="games per variant and budget")
    h.add_argument("--seed", type=int, default=45)
    h.add_argument("--workers", type=int, default=2)
    h.add_argument("--out", default=str(DATA))
    h.add_argument("--variants", default=",".join(LAB_AGENTS),
                   help="comma-separated, of: " + ", ".join(LAB_AGENTS))
    c = sub.add_parser("confirm", help="judge every position again, deeper, and say so in "
                                       "the file")
    c.add_argument("--nodes", type=int, default=CONFIRM_NODES)
    c.add_argument("--file", default=str(DATA))
    args = parser.parse_args(argv)
    words = sys.argv[1:] if argv is None else argv
    if args.command == "confirm":
        done = confirm(Path(args.file), args.nodes,
                       "python -m benchmarks.conversion " + " ".join(words))
        apart = [i for i, item in enumerate(done) if not is_confirmed(item)]
        print(f"{len(done) - len(apart)} of {len(done)} confirmed at {args.nodes} nodes; "
              f"not: {', '.join(f'#{i}' for i in apart) or 'none'}")
        return 0
    started = time.perf_counter()
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                            text=True, capture_output=True).stdout.strip() or "unknown"
    how = {"command": "nice -n 10 python -m benchmarks.conversion " + " ".join(words),
           "commit": commit, "games_per_variant": args.games, "seed": args.seed,
           "agents": [LAB_AGENTS, SWEEP_AGENTS], "nodes": HARVEST_NODES,
           "max_plies": HARVEST_PLIES,
           "judge_nodes": DEEP_NODES, "lead_cp": LEAD_CP, "tops_lead_cp": TOPS_LEAD,
           "judge_weights": "the default weights, the hunt terms 0",
           "kept": f"non-decisive games (ply cap, fifty moves, repetition): the position "
                   f"where the last stretch without a capture or a ratnik move began and "
                   f"up to {PER_GAME - 1} earlier ones {SPACING} positions apart, each "
                   f"if the judging search gives one side lead_cp or more and its tops "
                   f"outweigh the other's by tops_lead_cp"}
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    unknown = [v for v in variants if v not in LAB_AGENTS]
    if unknown:
        parser.error(f"--variants: unknown {', '.join(unknown)}")
    found = harvest(args.games, args.seed, args.workers, Path(args.out), how, variants)
    use = os.times()
    how["wall_seconds"] = round(time.perf_counter() - started)
    how["cpu_seconds"] = round(use.children_user + use.children_system + use.user
                               + use.system)
    _write(Path(args.out), how, found)
    print(f"{len(found)} positions -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
