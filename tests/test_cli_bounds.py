"""Work that grows without bound from small input. Every command has
bounds that hold for any input (docs/limits.md), progress where it is long, and a clean
refusal past them. Each test is a reproduction of what was seen, kept.
"""

from __future__ import annotations

import json
import time

import pytest

import tavrei_lab.render.tree as tree_render
from tavrei_lab import Game
from tavrei_lab.cli import main
from tavrei_lab.engine.perft import MAX_PERFT_DEPTH, bounded_perft
from tavrei_lab.errors import LimitError
from tavrei_lab.lab.runner import MAX_TOURNAMENT_GAMES, schedule
from tavrei_lab.notation.record import MAX_GAME_PLIES
from tavrei_lab.tree.build import MAX_TREE_NODES, build


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# -- tree ------------------------------------------------------------------------------------

def test_tree_filter_that_leaves_only_the_root_says_why(
        capsys: pytest.CaptureFixture[str]) -> None:
    # `tree --filter captures` from the start silently yielded a one-node tree
    code, out, _ = run(capsys, "tree", "--filter", "captures")
    assert code == 0
    assert "nodes: 1" in out
    assert "root alone: none of the 39 legal moves here is one of 'captures'" in out
    code, out, _ = run(capsys, "tree", "--filter", "captures", "--json", "--no-values")
    assert "root alone" in json.loads(out)["note"]
    code, out, _ = run(capsys, "tree", "--json", "--no-values", "--depth", "1")
    assert json.loads(out)["note"] is None


@pytest.mark.parametrize("argv, message", [
    (["--max-nodes", str(MAX_TREE_NODES + 1)], "--max-nodes must be"),
    (["--max-nodes", "0"], "--max-nodes must be"),
    (["--time-limit", "nan"], "--time-limit must be"),
    (["--time-limit", "inf"], "--time-limit must be"),
    (["--time-limit", "0"], "--time-limit must be"),
    (["--svg", "x.svg", "--max-nodes", "20001"], "--svg draws at most"),
    (["--depth", "13"], "between 0 and 12"),
])
def test_tree_refuses_numbers_past_its_bounds(argv: list[str], message: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    # tree --max-nodes had no upper bound
    code, _, err = run(capsys, "tree", *argv)
    assert code == 2 and message in err


def test_tree_growth_stops_at_its_time_limit(capsys: pytest.CaptureFixture[str]) -> None:
    # tree --variant gavrilov-die --depth 3 took 60 s
    start = time.monotonic()
    code, out, _ = run(capsys, "tree", "--variant", "gavrilov-die", "--depth", "3",
                       "--time-limit", "0.5", "--json", "--no-values")
    assert code == 0 and time.monotonic() - start < 30
    facts = json.loads(out)
    assert facts["truncated"] and facts["cut_by"] == "time_limit"


def test_build_refuses_too_many_nodes_and_reports_progress() -> None:
    with pytest.raises(LimitError, match=f"the limit is {MAX_TREE_NODES}"):
        build(Game(), 2, max_nodes=MAX_TREE_NODES + 1)
    seen: list[int] = []
    G = build(Game(), 3, max_nodes=25_000, values=False,
              progress=lambda nodes, _s: seen.append(nodes))
    assert G.graph["cut_by"] == "max_nodes" and seen and seen[0] >= 10_000


def test_a_tree_too_big_to_draw_is_refused_before_any_drawing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # tree --depth 12 --svg with defaults: 80 s, 1.66 GB
    monkeypatch.setattr(tree_render, "MAX_DRAWN_NODES", 100)
    G = build(Game(), 2, values=False)
    called = []
    monkeypatch.setattr(tree_render, "layered_layout", lambda *a, **k: called.append(1))
    with pytest.raises(LimitError, match="at most 100 fit one picture"):
        tree_render.draw_svg(G)
    assert not called


def test_tree_svg_grows_only_what_it_can_draw(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "t.svg"
    code, text, _ = run(capsys, "tree", "--depth", "12", "--svg", str(out), "--no-values")
    assert code == 0 and "(cut at --max-nodes)" in text
    assert out.stat().st_size < 20_000_000


# -- perft -----------------------------------------------------------------------------------

def test_perft_1000_is_refused_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    # `perft 1000` gave a RecursionError traceback after ~5 s
    start = time.monotonic()
    code, _, err = run(capsys, "perft", "1000")
    assert code == 2 and f"depth must be 0..{MAX_PERFT_DEPTH}" in err
    assert time.monotonic() - start < 5


@pytest.mark.parametrize("argv", [["--max-nodes", "20000", "6"],
                                  ["--divide", "--max-nodes", "3000", "4"],
                                  ["--variant", "gavrilov-die", "--max-nodes", "2000", "5"]])
def test_perft_stops_at_its_node_budget(argv: list[str],
                                        capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "perft", *argv)
    assert code == 2 and "perft played more than" in err


def test_bounded_perft_counts_as_perft_within_its_budget() -> None:
    rules = Game().rules
    pos = rules.initial_position()
    assert bounded_perft(rules, pos, 3, 100_000) == 68299
    with pytest.raises(LimitError):
        bounded_perft(rules, pos, 3, 1000)
    ticks: list[int] = []
    bounded_perft(rules, pos, 3, 10**6, lambda n, _s: ticks.append(n))
    assert ticks == []                      # fewer than 2**18 moves: no progress call
    die = Game("gavrilov-die").rules
    assert bounded_perft(die, die.initial_position(), 3, 10**6) == 577532


# -- compare, soak, play ---------------------------------------------------------------------

def test_compare_refuses_a_billion_games_before_building_a_schedule(
        capsys: pytest.CaptureFixture[str]) -> None:
    # `compare --games 1000000000` built the whole schedule first (1.2 GB before any game)
    code, _, err = run(capsys, "compare", "--games", "1000000000", "--executor", "inline")
    assert code == 2 and f"the limit is {MAX_TOURNAMENT_GAMES}" in err
    with pytest.raises(LimitError):
        schedule(["tavreli"] * 10, ["random", "greedy"], MAX_TOURNAMENT_GAMES // 10 + 1, 1)


@pytest.mark.parametrize("argv, message", [
    (["compare", "--max-plies", str(MAX_GAME_PLIES + 1)], "max_plies must be"),
    (["compare", "--workers", "100000"], "--workers must be"),
    (["compare", "--workers", "0"], "--workers must be"),
    # sweep took any --workers (100000 would fork that many processes) and 0 as the default
    (["sweep", "--strength-games", "0",
      "--workers", "100000", "--executor", "inline"], "--workers must be 1..64"),
    (["sweep", "--strength-games", "0",
      "--workers", "0", "--executor", "inline"], "--workers must be 1..64"),
    (["play", "--max-plies", str(MAX_GAME_PLIES + 1)], "--max-plies must be"),
    (["soak", "--max-plies", str(MAX_GAME_PLIES + 1)], "--max-plies must be"),
    (["soak", "--games", "1000000001"], "--games must be"),
    (["soak", "--time-limit", "nan"], "--time-limit must be"),
    (["svg", "--size", "inf", "--out", "-"], "size must be a positive number"),
])
def test_commands_refuse_numbers_past_their_bounds(argv: list[str], message: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2 and message in err


# Every roll passes (a blank), bar a king face rolled once in a billion: the kings could
# move, so the game is not over, yet no move is ever played. (A die with only a pawn
# face here is no longer such a game: neither side has a move for any face, a draw.)
ALL_PASS = """name = "every roll passes"
extends = "gavrilov-die"
[options]
fifty_move_rule = false
absent = "none"
[setup]
position = "3k2/6/2p:Q3/2P:Q3/6/3K2 w - 0 1"
[die]
faces = ["K", "-"]
weights = [1e-9, 1]
skips = ["-"]
"""


def test_a_die_soak_where_every_roll_passes_ends(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    # soak in a die variant where every roll passes never ended
    path = tmp_path / "allpass.toml"
    path.write_text(ALL_PASS)
    code, out, _ = run(capsys, "soak", "--games", "2", "--variants", str(path),
                       "--max-plies", "50", "--json")
    facts = json.loads(out)
    assert code == 0 and facts["games"] == 2 and facts["plies"] == 0
    assert facts["rolls"] == 2 * (4 * 50 + 16)


def test_soak_time_limit_is_checked_inside_a_game(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    # --time-limit was checked only between games
    path = tmp_path / "allpass.toml"
    path.write_text(ALL_PASS)
    start = time.monotonic()
    code, out, _ = run(capsys, "soak", "--games", "1000", "--variants", str(path),
                       "--max-plies", str(MAX_GAME_PLIES), "--time-limit", "0.5", "--json")
    facts = json.loads(out)
    assert code == 0 and facts["games"] == 1 and facts["endings"] == {"time-limit": 1}
    assert time.monotonic() - start < 30


@pytest.mark.parametrize("spec", ["alphabeta:50", "expectimax:40", "alphabeta:nodes=10000000000",
                                  "alphabeta:time=1e9", "play:depth=99"])
def test_an_agent_that_would_search_forever_is_refused(
        spec: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "play", "--agent", spec, "--max-plies", "2")
    assert code == 2 and "search limits" in err


def test_compare_counts_agent_pairs_without_listing_them() -> None:
    agents = ["random" for _ in range(20_000)]        # 200 million pairs
    start = time.monotonic()
    with pytest.raises(LimitError, match="the limit is"):
        schedule(["tavreli"], agents, 1, 1)
    assert time.monotonic() - start < 5


# -- replay ----------------------------------------------------------------------------------

def test_replay_stops_at_its_time_limit_and_leaves_the_game_as_it_was() -> None:
    # a hostile record in a variant with a 512-tavrel tower costs ~0.1 s a ply: 20,000
    # plies would replay for half an hour. Replay has a time limit (default 60 s). The
    # limits below are 1 ms for 10,000 plies (100 ns a ply: no build is that fast); 50 ms
    # was met by the compiled build on a fast CI machine (the record replayed in time).
    from tavrei_lab.game import DEFAULT_REPLAY_SECONDS, read_record
    assert DEFAULT_REPLAY_SECONDS == 60
    text = " ".join(["g1-f3 g8-f6 f3-g1 f6-g8"] * 2_500)     # 10,000 legal plies
    game = Game()
    game.play("e2-e4")
    start = time.monotonic()
    with pytest.raises(LimitError, match="replay stopped at ply"):
        game.play("e7-e5 " + text, time_limit=0.001)
    assert time.monotonic() - start < 20
    assert game.ply == 1 and game.action_count == 1 and not game.can_redo()
    with pytest.raises(LimitError):
        read_record(text, time_limit=0.001)
    assert read_record(text, time_limit=None).ply == 10_000


def test_replay_time_limit_on_the_command_line(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "long.txt"
    path.write_text(" ".join(["g1-f3 g8-f6 f3-g1 f6-g8"] * 2_500))
    code, _, err = run(capsys, "replay", "--time-limit", "0.001", str(path))   # see above
    assert code == 2 and "replay stopped at ply" in err
    for bad in ("nan", "0", "3601"):
        code, _, err = run(capsys, "replay", "--time-limit", bad, str(path))
        assert code == 2 and "--time-limit must be" in err


def tall_tower_variant(tmp_path) -> str:  # type: ignore[no-untyped-def]
    """A 26x26 variant whose one tower holds 510 tavrels: 50,493 moves from the start."""
    tower = "(" + "k" * 255 + "K" * 255 + ")"
    rows = ["v25"] + ["26"] * 12 + [f"13{tower}12"] + ["26"] * 11 + ["V25"]
    path = tmp_path / "tall.toml"
    path.write_text('name = "tall"\nextends = "tavreli"\n[board]\nwidth = 26\nheight = 26\n'
                    f'[setup]\nposition = "{"/".join(rows)} w - 0 1"\n'
                    '[options]\nwin = "king-capture"\n')
    return str(path)


@pytest.mark.parametrize("values", [[], ["--no-values"]])
def test_tree_keeps_its_time_limit_when_one_node_has_50000_children(
        values: list[str], tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    # the limit was checked only between expansions: one node's 50,493 children (and
    # their values) ran for minutes
    start = time.monotonic()
    code, out, err = run(capsys, "tree", "--variant", tall_tower_variant(tmp_path),
                         "--depth", "2", "--time-limit", "2", *values)
    assert time.monotonic() - start < 25
    assert (code == 0 and "cut at --time-limit" in out) or \
        (code == 2 and "took longer than --time-limit" in err)


def test_compare_and_sweep_take_the_same_run_options() -> None:
    """One declaration (``cli.common.add_run_options``): same flags, defaults, choices
    and help in both commands, bar what ``--out`` holds."""
    from tavrei_lab.cli import build_parser

    sub = next(a for a in build_parser()._actions if a.dest == "command")
    flags = ("--executor", "--scheduler", "--workers", "--out", "--no-progress")

    def options(command: str) -> dict[str, tuple]:
        found = {}
        for action in sub.choices[command]._actions:
            (flag,) = [f for f in action.option_strings if f in flags] or [None]
            if flag:
                found[flag] = (action.dest, action.default, action.choices, action.type,
                               action.help if flag != "--out" else None)
        return found

    assert set(options("compare")) == set(flags)
    assert options("compare") == options("sweep")


def test_every_long_command_takes_the_same_progress_flags() -> None:
    """--progress / --no-progress on compare, sweep, soak, tree and perft alike (soak's
    opt-in --progress and compare's opt-out --no-progress both keep working)."""
    from tavrei_lab.cli import build_parser
    from tavrei_lab.core.progress import progress_mode

    parser = build_parser()
    base = {"compare": ["--variants", "orthodox"], "sweep": [], "soak": [], "tree": [],
            "perft": ["1"]}
    for command, rest in base.items():
        for flags, expected in (([], None), (["--progress"], True), (["--no-progress"], False)):
            args = parser.parse_args([command, *flags, *rest])
            assert args.progress is expected, (command, flags)
        assert progress_mode(parser.parse_args([command, "--no-progress", *rest])) is False
    with pytest.raises(SystemExit):
        parser.parse_args(["tree", "--progress", "--no-progress"])


def test_perft_reports_through_a_tqdm_bar_or_a_callback(capsys) -> None:
    from tavrei_lab import Game
    from tavrei_lab.engine.perft import bounded_perft, metered

    game = Game()
    assert bounded_perft(game.rules, game.position, 2, 10_000, progress=True) == 1519
    assert capsys.readouterr().err == ""          # not a terminal: the bar stays silent
    counted = metered(game.rules, 10_000, progress="terminal")
    assert counted.perft(game.position, 2) == 1519 and counted.meter.bar is not None
    counted.meter.close()                          # the bar ends on the moves played
    assert counted.meter.bar.n == counted.meter.nodes >= 1519
    seen: list[int] = []
    assert bounded_perft(game.rules, game.position, 2, 10_000,
                         progress=lambda n, s: seen.append(n)) == 1519 and seen == []
