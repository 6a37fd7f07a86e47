"""One way to play a game to its end (``engine.selfplay``, docs/adjudication.md).

Every caller that plays a game to its end -- a tournament's ``play_game``, ``tavrei-lab
play``'s ``play_game``, a tune's ``play_tune_game``, the soak's ``soak_game`` -- gives
the same result and reason for the same game: positions built so that every line ends
the same way (each side has one legal move, or none), whoever the players are.
"""

from __future__ import annotations

import ast
import io
import re
from pathlib import Path
from typing import Any

import pytest

import tavrei_lab
from tavrei_lab.cli.play import play_game as cli_play_game
from tavrei_lab.core.move import Move, Roll
from tavrei_lab.engine.agents import RandomAgent, make_agent
from tavrei_lab.engine.selfplay import (
    MAX_PLIES,
    GameEnd,
    GameLimits,
    action_cap,
    adjudicate,
    play_out,
    play_step,
    recorded_end,
)
from tavrei_lab.engine.weights import DEFAULT_WEIGHTS
from tavrei_lab.errors import LimitError
from tavrei_lab.game import Game, read_record
from tavrei_lab.lab.runner import GameSpec
from tavrei_lab.lab.runner import play_game as tournament_game
from tavrei_lab.lab.tune import TuneGame, play_tune_game
from tavrei_lab.qa.soak import SoakReport, soak_game
from tavrei_lab.variant import load_variant, variant_data

PACKAGE = Path(tavrei_lab.__file__).parent

#: (name, board width, height, start position, max plies) -> the ending every caller gives
CASES = {
    # the kings shuffle a1-b1-a1 and a3-b3-a3, each with one legal move, until a
    # position stands for the third time
    "repetition": (2, 3, "k1/2/K1 w - 0 1", 100, ("1/2-1/2", "threefold-repetition", 10)),
    # the same shuffle with the fifty-move clock at 99: one quiet move ends it
    "fifty-moves": (2, 3, "k1/2/K1 w - 99 1", 100, ("1/2-1/2", "fifty-move-rule", 1)),
    # white's one move, Kc1-b1, leaves black's volkhv no move and no check
    "stalemate": (3, 3, "1k1/1P1/2K w - 0 1", 100, ("1/2-1/2", "stalemate", 1)),
    # black is mated before anyone moves
    "checkmate": (3, 3, "k1K/3/R2 b - 0 1", 100, ("1-0", "checkmate", 0)),
    # the shuffle stopped by the cap before it repeats: adjudicated a draw
    "cap": (2, 3, "k1/2/K1 w - 0 1", 4, ("1/2-1/2", MAX_PLIES, 4)),
    # a die game (gavrilov-die's rules) whose black volkhv is already under a white tower
    "king-capture": (4, 4, "(kB)3/4/4/K3 w - 0 1", 100, ("1-0", "king-capture", 0)),
}


def variant_file(tmp_path: Path, name: str, width: int, height: int, position: str) -> Path:
    path = tmp_path / f"{name}.toml"
    die = name == "king-capture"
    path.write_text(f'extends = "{"gavrilov-die" if die else "orthodox"}"\n\n'
                    f'[board]\nwidth = {width}\nheight = {height}\n\n'
                    f'[setup]\nposition = "{position}"\n'
                    + ('\n[options]\nabsent = "none"\n' if die else ""), encoding="utf-8")
    return path


def by_tournament(variant: str, max_plies: int) -> tuple[str, str, int, str]:
    r = tournament_game(GameSpec(variant, "random", "random", seed=3, max_plies=max_plies))
    return r.result, r.termination, r.plies, r.record


def by_play(variant: str, max_plies: int) -> tuple[str, str, int, str]:
    game = Game(variant, seed=3)
    tags = cli_play_game(game, [RandomAgent(1), RandomAgent(2)], max_plies)
    return tags["Result"], tags["Termination"].split()[0], game.ply, game.record(**tags)


def by_tune(variant: str, max_plies: int) -> tuple[str, str, int, None]:
    weights = DEFAULT_WEIGHTS.as_dict()
    row = play_tune_game(TuneGame(variant_data(load_variant(variant)), weights, weights,
                                  nodes=30, seed=3, index=0, max_plies=max_plies))
    result = {1.0: "1-0", 0.0: "0-1", 0.5: "1/2-1/2"}[row["score"]]
    return result, row["termination"], row["plies"], None


def by_soak(variant: str, max_plies: int) -> tuple[str, str, int, None]:
    report = SoakReport()
    game = soak_game(variant, ("random", "greedy"), seed=3, index=0, report=report,
                     max_plies=max_plies)
    assert report.violations == [], report.summary()
    (reason,) = report.endings
    end = adjudicate(game, GameLimits(max_plies=max_plies))
    assert end is not None and end.reason == reason
    return end.result, reason, game.ply, None


CALLERS = {"tournament": by_tournament, "play": by_play, "tune": by_tune, "soak": by_soak}


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_caller_ends_the_same_game_the_same_way(tmp_path: Path, case: str) -> None:
    width, height, position, max_plies, (result, reason, plies) = CASES[case]
    path = str(variant_file(tmp_path, case, width, height, position))
    seen = {name: play(path, max_plies) for name, play in CALLERS.items()}
    for name, (got_result, got_reason, got_plies, record) in seen.items():
        assert (got_result, got_reason) == (result, reason), (name, seen[name][:3])
        assert got_plies == plies, (name, got_plies)
        if record is not None:        # the record says how the game ended, and reads back
            end = recorded_end(read_record(record, allow_files=True, progress=False))
            assert end is not None and (end.result, end.reason) == (result, reason), name
            assert f'[Result "{result}"]' in record
            assert f'[Termination "{reason}' in record


def test_a_capped_die_game_is_the_same_draw_for_every_caller() -> None:
    """``play`` counted turns and wrote ``*``, the others plies and ``1/2-1/2``: now one
    cap (plies) and one result."""
    ends = {name: play("gavrilov-die", 6)[:3] for name, play in CALLERS.items()}
    assert set(ends.values()) == {("1/2-1/2", MAX_PLIES, 6)}, ends


def test_the_action_cap_ends_a_game_whose_rolls_keep_passing() -> None:
    """A die game whose rolls pass makes no moves: the cap counts its actions too."""

    class Passing:               # what ``adjudicate`` reads of a game
        def __init__(self, ply: int, actions: int) -> None:
            self.ply, self.action_count = ply, actions

        def outcome(self, claim_draw: bool = False) -> None:
            return None

    limits = GameLimits(max_plies=3)
    assert limits.max_actions == action_cap(3) == 28
    assert adjudicate(Passing(2, 27), limits) is None  # type: ignore[arg-type]
    end = adjudicate(Passing(2, 28), limits)  # type: ignore[arg-type]
    assert end == GameEnd(MAX_PLIES, "1/2-1/2", None, 2, 28)
    assert adjudicate(Passing(0, 0), GameLimits(max_plies=0)) is not None  # type: ignore[arg-type]
    assert adjudicate(Passing(10**6, 10**7), GameLimits()) is None  # type: ignore[arg-type]


def test_the_cap_formula_is_written_once() -> None:
    """``4 * max_plies + 16`` stood in three modules; ``selfplay.action_cap`` is its one
    place."""
    formula = re.compile(r"4\s*\*\s*\w*max_plies\s*\+\s*16")
    places = [str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py")
              if formula.search(p.read_text(encoding="utf-8"))]
    assert places == ["engine/selfplay.py"], places


#: Functions that may loop over a game's actions asking a player to choose: the one
#: loop, and the board session's computer player, whose own loop also steps along a
#: line the person made (redo) -- until it takes its turns through ``play_step``.
GAME_LOOPS = {("engine/selfplay.py", "play_out"), ("engine/selfplay.py", "play_step")}


def test_no_other_module_plays_a_game_to_its_end() -> None:
    """A function with a loop that asks a player for moves (``.choose(``) and asks
    whether the game is over (``.outcome(``) is a game loop of its own."""
    found = set()
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            loops = [n for n in ast.walk(fn) if isinstance(n, (ast.While, ast.For))]
            calls = {n.func.attr for loop in loops for n in ast.walk(loop)
                     if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)}
            if "choose" in calls and ({"outcome", "roll"} & calls):
                found.add((str(path.relative_to(PACKAGE)), fn.name))
    assert found <= GAME_LOOPS, sorted(found - GAME_LOOPS)
    assert ("engine/selfplay.py", "play_step") not in found    # one step, no loop


def test_play_step_plays_one_action_and_stops_at_the_end(tmp_path: Path) -> None:
    players = [make_agent("random", seed=1), make_agent("random", seed=2)]
    die = Game("gavrilov-die", seed=4)
    assert isinstance(play_step(die, players, GameLimits(max_plies=10)), Roll)
    assert isinstance(play_step(die, players, GameLimits(max_plies=10)), Move | Roll)
    path = variant_file(tmp_path, "rep", 2, 3, "k1/2/K1 w - 0 1")
    game = Game(str(path))
    steps = []
    while not isinstance(step := play_step(game, players, GameLimits()), GameEnd):
        steps.append(step)
    assert step.reason == "threefold-repetition" and len(steps) == game.ply
    assert play_step(game, players, GameLimits()) == step      # nothing more is played
    assert game.ply == len(steps)
    # a person to move at a board may play on: no draw is claimed for them
    assert adjudicate(game, GameLimits(), claim_draw=False) is None


def test_a_player_may_resign_and_nobody_plays_for_a_missing_player() -> None:
    from tavrei_lab.engine.selfplay import resign

    class Resigner:
        def choose(self, game: Game) -> GameEnd:
            return resign(game)

    game = Game("orthodox", seed=1)
    end = play_out(game, [make_agent("random", seed=1), Resigner()], GameLimits(max_plies=50))
    assert (end.result, end.reason, end.plies) == ("1-0", "resignation", 1)
    with pytest.raises(tavrei_lab.TavreiError, match="no player for white"):
        play_step(Game("orthodox"), [None, None], GameLimits())


def test_limits_refuse_a_negative_cap() -> None:
    with pytest.raises(LimitError, match="max_plies"):
        GameLimits(max_plies=-1)


def test_a_deadline_leaves_the_game_unfinished() -> None:
    game = Game("orthodox", seed=1)
    end = play_out(game, [make_agent("random", seed=1)] * 2,
                   GameLimits(max_plies=100, deadline=0.0))
    assert (end.result, end.reason, end.plies, end.finished) == ("*", "time-limit", 0, False)


def test_old_records_still_say_how_they_ended() -> None:
    """``play`` wrote a capped game as ``*`` with ``Termination "adjudication"``; a record
    without a Termination tag ends as its last position does by the rules."""
    old = ('[Variant "orthodox"]\n[Result "*"]\n[Termination "adjudication"]\n\n'
           "1. e2-e4 e7-e5 {adjudicated: no result after 2 turns} *\n")
    end = recorded_end(read_record(old, progress=False))
    assert end is not None and (end.reason, end.result, end.adjudicated) == (
        MAX_PLIES, "*", True)
    mate = '[Variant "orthodox"]\n\n1. f2-f3 e7-e5 2. g2-g4 d8-h4 0-1\n'
    end = recorded_end(read_record(mate, progress=False))
    assert end is not None and (end.reason, end.result, end.winner) == ("checkmate", "0-1", 1)
    assert recorded_end(read_record('[Variant "orthodox"]\n\n1. e2-e4 *\n',
                                    progress=False)) is None


def test_replay_reports_how_the_record_says_the_game_ended(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from tavrei_lab.cli import main
    out = tmp_path / "g.txt"
    assert main(["play", "--variant", "orthodox", "--seed", "2", "--max-plies", "5",
                 "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["replay", "--json", str(out)]) == 0
    facts = json.loads(capsys.readouterr().out)
    assert (facts["result"], facts["ended_by"], facts["outcome"]) == (
        "1/2-1/2", MAX_PLIES, None)


def test_a_tournament_watch_still_sees_decisions_and_moves() -> None:
    seen: dict[str, Any] = {"decisions": 0, "moves": 0}

    class Counting:
        def decision(self, game: Game, moves: Any) -> None:
            seen["decisions"] += 1

        def moved(self, game: Game, before: Any, move: Any) -> None:
            seen["moves"] += 1

    r = tournament_game(GameSpec("gavrilov-die", "random", "random", seed=1, max_plies=8),
                        watch=Counting())
    assert seen == {"decisions": r.plies, "moves": r.plies} and r.rolls >= r.plies


def test_plays_person_is_told_agents_moves_and_rolls_not_their_own() -> None:
    game = Game("orthodox", seed=1)
    shown = io.StringIO()
    tags = cli_play_game(game, [None, RandomAgent(3)], 4, stdin=io.StringIO("e2-e4\nd2-d4\n"),
                         stdout=shown)
    said = shown.getvalue()
    assert "white plays" not in said and said.count("black plays") == 2
    assert tags["Result"] == "1/2-1/2" and tags["Termination"].startswith(MAX_PLIES)


def test_a_stored_lab_game_keeps_why_it_ended_and_its_record_says_the_same(
        tmp_path: Path) -> None:
    from tavrei_lab.lab import sweep
    from tavrei_lab.lab.store import ResultsStore

    db = tmp_path / "lab.sqlite"
    sweep(base="orthodox", grid={"castling": [True]}, agents="greedy,random", games=4,
          seed=2, max_plies=30, executor="inline", progress=False, store=str(db))
    with ResultsStore(db) as store:
        games = store.games()
    assert len(games) == 4 and {g.result.termination for g in games} >= {MAX_PLIES}
    for g in games:
        end = recorded_end(g.replay())
        assert end is not None
        assert (end.result, end.reason) == (g.result.result, g.result.termination)
        assert end.adjudicated == g.result.adjudicated
