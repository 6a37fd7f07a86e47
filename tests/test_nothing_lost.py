"""Nothing lost: refusals change nothing, and records give back the same game.

After any refused move, parse, roll, undo, redo or edit, the game -- its
position strings, history, redo stack, comments, tags, repetition counts and
die generator -- is exactly as before; so is the widget's game after a
refused click, paste, upload or position. Saving a record and reading it
back gives the same game for every shipped variant, die games with every
roll (passes included).
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest

from tavrei_lab import Game, read_record, widgets
from tavrei_lab.core.move import Move, Roll
from tavrei_lab.engine.agents import make_agent
from tavrei_lab.errors import TavreiError
from tavrei_lab.notation.position_string import MAX_TOWER_HEIGHT
from tavrei_lab.variant import variants


def snapshot(game: Game) -> tuple:
    """Everything a refused operation must leave alone."""
    return (game.variant.id, [p.string for p in game.positions], game.history,
            list(game._redo), dict(game.comments), dict(game.tags), game.repetitions(),
            dict(game._keys), game.seed, game.rng.getstate())


def played(variant: str, seed: int, plies: int, agents: str = "random") -> Game:
    """A seeded game with comments and an undone move on the redo stack."""
    game = Game(variant, seed=seed)
    game.tags.update({"White": "Анна", "Black": 'Bob "B" \\ Smith', "Event": "soak"})
    agent = make_agent(agents, seed=seed)
    while game.ply < plies and not game.is_game_over(claim_draw=True):
        if game.is_chance_node():
            game.roll()
        else:
            game.push(agent.choose(game))
        if len(game.history) % 5 == 0:
            game.comments[len(game.history)] = f"after {len(game.history)} actions: ещё"
    return game


ALL = variants()


# -- refusals change nothing ---------------------------------------------------------------

BAD_TEXTS = ["", "e9-e4", "e2-e4-e5", "z1-a1", "a1(0)-a2", "a1(99)-a2", "0-0-0-0", "e2-e4zz",
             "ё2–ё4!!", "@K", "e7-e8=V", "\u202ee2-e4", "a1-a1", "{", "1-0", "h8-a1"]


@pytest.mark.parametrize("variant", ALL)
def test_refused_moves_change_nothing(variant: str) -> None:
    game = played(variant, seed=5, plies=12)
    game.pop()
    refusals = 0
    for text in BAD_TEXTS:
        before = snapshot(game)
        try:
            game.push(text)
        except TavreiError:
            refusals += 1
            assert snapshot(game) == before, f"{text!r} refused but the game changed"
        else:
            game.pop()
    assert refusals >= len(BAD_TEXTS) - 2
    if not game.is_chance_node():
        legal = set(game.legal_moves())
        g = game.position.geometry
        for fr in range(g.size):                     # every (from, 1, to) that is not legal
            for to in range(fr % 5, g.size, 9):
                move = Move(fr, 1, to)
                if move in legal or any(m.key == move.key for m in legal):
                    continue
                before = snapshot(game)
                with pytest.raises(TavreiError):
                    game.push(move)
                assert snapshot(game) == before


@pytest.mark.parametrize("variant", ALL)
def test_refused_play_undo_redo_and_rolls_change_nothing(variant: str) -> None:
    game = played(variant, seed=6, plies=10)
    game.pop()
    before = snapshot(game)
    with pytest.raises(TavreiError):
        game.play("{a new comment} " + " ".join(game.action_texts()[-2:]) + " h9-h10")
    assert snapshot(game) == before
    if game.is_chance_node():
        with pytest.raises(TavreiError):
            game.apply_roll("no-such-face")
        with pytest.raises(TavreiError):
            game.push(Move(0, 1, 1))
    else:
        with pytest.raises(TavreiError):
            game.apply_roll("K")
        with pytest.raises(TavreiError):
            game.roll()
    assert snapshot(game) == before
    fresh = Game(variant)
    start = snapshot(fresh)
    with pytest.raises(TavreiError):
        fresh.pop()
    with pytest.raises(TavreiError):
        fresh.redo()
    assert snapshot(fresh) == start


def test_redo_after_a_refused_play_is_the_same_redo() -> None:
    game = Game()
    game.play("e2-e4 e7-e5 g1-f3")
    game.pop()
    game.pop()
    waiting = list(game._redo)
    with pytest.raises(TavreiError):
        game.play("e7-e5 b8-c6 e1-e8")
    assert game._redo == waiting
    game.redo()
    game.redo()
    assert game.action_texts() == ["e2-e4", "e7-e5", "g1-f3"]


# -- records give back the same game -------------------------------------------------------

def same_game(a: Game, b: Game) -> None:
    assert b.variant.id == a.variant.id
    assert b.history == a.history                       # moves and rolls, in order
    assert [p.string for p in b.positions] == [p.string for p in a.positions]
    assert b.comments == a.comments
    written = ("Variant", "Result", "Seed", "Position")    # the writer fills these in
    assert {k: v for k, v in b.tags.items() if k not in written} == \
        {k: v for k, v in a.tags.items() if k not in written}
    assert b.seed == a.seed


@pytest.mark.parametrize("variant", ALL)
@pytest.mark.parametrize("agents", ["random", "greedy"])
def test_a_saved_record_reads_back_as_the_same_game(variant: str, agents: str) -> None:
    game = played(variant, seed=11, plies=40 if agents == "random" else 16, agents=agents)
    text = game.record()
    again = Game.from_record(text)
    same_game(game, again)
    assert again.record() == text                       # and writes the same record
    if game.rules.is_chance_node(game.positions[0]) or any(
            isinstance(a, Roll) for a in game.history):
        assert "@" in text and sum(isinstance(a, Roll) for a in again.history) > 0


def test_die_records_keep_passing_rolls() -> None:
    """A skip face or a face that allows no move is a lone roll token, kept on reading."""
    for seed in range(40):
        game = played("gavrilov-die-skip-face", seed=seed, plies=30)
        rolls = [a for a in game.history if isinstance(a, Roll)]
        passes = sum(1 for i, a in enumerate(game.history) if isinstance(a, Roll)
                     and (i + 1 == len(game.history) or isinstance(game.history[i + 1], Roll)))
        if passes:
            break
    else:
        pytest.fail("no die game with a passing roll in 40 seeds")
    again = Game.from_record(game.record())
    same_game(game, again)
    assert [a for a in again.history if isinstance(a, Roll)] == rolls


def test_a_record_from_a_set_up_position_reads_back() -> None:
    game = Game("tavreli", "4v3/8/8/3(P:RS)4/8/8/8/4V3 w - 0 12")
    game.play("d5(1)-f6 e8-f7")
    same_game(game, Game.from_record(game.record()))


# -- the widget's game ---------------------------------------------------------------------

# tavrei_lab.widgets is imported at the top: ipywidgets and anywidget are declared
# dependencies, so a missing one is a failure, not a reason to skip this file.


@pytest.fixture
def board() -> Any:
    board = widgets.Board(variant="tavreli")
    board.play("e2-e4")
    board.play("e7-e5")
    board.undo()
    return board


def test_refused_clicks_leave_the_widgets_game_unchanged(board: Any) -> None:
    game = board.game
    assert game.position.turn_name == "black"        # e7-e5 was undone
    before = snapshot(game)
    names = game.position.geometry.names
    board.click_square(names.index("e5"))             # an empty square
    assert "nothing on e5" in board.status.value
    board.click_square(names.index("d2"))             # white's tower, on black's move
    assert "is white" in board.status.value
    board.click_square(names.index("d7"))             # select a black ratnik ...
    board.click_square(names.index("d4"))             # ... and ask for an illegal step
    assert "Illegal" in board.status.value
    assert board.game is game
    assert snapshot(game) == before


def test_a_refused_paste_upload_or_position_leaves_the_widgets_game_unchanged(board: Any) -> None:
    game = board.game
    before = snapshot(game)
    board.load_record('[Event "broken"]\n\n1. e2-e4 e7-e5 2. e1-e8')
    board.load_record("[Broken tag\n\n1. e2-e4")
    board.set_position("8/8/8/8 w - 0 1")
    board.set_position("x" * 100_000)
    board.play("e2-e9")
    board.play(Move(0, 5, 63))
    board._on_upload({"new": [{"name": "game.txt", "content": b"1. e2-e4 {caf\xe9}"}]})
    assert board.game is game
    assert snapshot(game) == before
    assert "unchanged" in board.status.value or "Illegal" in board.status.value


def test_a_refused_edit_leaves_the_set_up_and_the_boards_game_unchanged(board: Any) -> None:
    """The position editor: a bad position string changes nothing in the editor, and a
    set-up the rules refuse is not handed to the board."""
    editor = widgets.PositionEditor("tavreli", board=board)
    game = board.game
    before = snapshot(game)
    editor.read_position("4v3/8/8/8/8/8/8/4V3 w - 0 1")
    set_up = editor.position().string
    editor.read_position("4v3/8/8/8/8/8/8/4V3 w - 0 1 9 9 9")     # unreadable
    too_tall = "(" + "R" * (MAX_TOWER_HEIGHT + 1) + ")7/8/8/8/8/8/8/8 w - 0 1"
    editor.read_position(too_tall)                                  # over a limit
    assert editor.position().string == set_up
    assert "unchanged" in editor.status.value
    editor.read_position("4v3/8/8/8/8/8/8/2VV4 w - 0 1")       # readable, not playable
    editor.play()
    assert "Refused" in editor.status.value
    assert board.game is game and snapshot(game) == before


# -- a folder of tournament output holds one run, whole ---------------------------------------

def folder_contents(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_second_compare_in_the_same_folder_leaves_only_its_own_records(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the 4-game run's records 003 and 004 stayed beside the 2-game run's games.csv
    from tavrei_lab.cli import main
    out = tmp_path / "cmpout"
    common = ["compare", "--agents", "random", "--max-plies", "10", "--executor", "inline",
              "--no-progress", "--out", str(out)]
    assert main([*common, "--games", "4"]) == 0
    (out / "notes.txt").write_text("mine")              # the user's own file stays
    assert main([*common, "--games", "2", "--seed", "9"]) == 0
    capsys.readouterr()
    with open(out / "games.csv", encoding="utf-8") as f:
        seeds = sorted(row["seed"] for row in csv.DictReader(f))
    records = sorted((out / "records").iterdir())
    assert [r.name for r in records] == ["tavreli__random-vs-random__001.tvr",
                                         "tavreli__random-vs-random__002.tvr"]
    assert sorted(str(read_record(r.read_text(encoding="utf-8")).seed)
                  for r in records) == seeds
    assert json.loads((out / "settings.json").read_text())["seed"] == 9
    assert (out / "notes.txt").read_text() == "mine"
    assert not [p.name for p in out.iterdir() if p.name.startswith(".")]   # no leftovers


def test_a_save_that_fails_midway_leaves_the_earlier_run_as_it_was(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tavrei_lab.lab import TournamentResult, tournament
    out = tmp_path / "run"
    tournament("tavreli", "random", games=4, seed=0, max_plies=8, executor="inline",
               progress=False).save(out)
    before = folder_contents(out)
    second = tournament("tavreli", "random", games=2, seed=9, max_plies=8, executor="inline",
                        progress=False)

    def broken(self: TournamentResult) -> dict[str, Any]:
        raise RuntimeError("a plot that cannot be drawn")

    monkeypatch.setattr(TournamentResult, "plots", broken)   # after records and tables
    with pytest.raises(RuntimeError):
        second.save(out)
    assert folder_contents(out) == before
    assert not [p.name for p in out.iterdir() if p.name.startswith(".")]
