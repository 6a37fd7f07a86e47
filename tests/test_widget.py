"""The board widget, driven from Python exactly as the browser drives it.

The browser half only sets the ``click`` and ``key`` traits of ``BoardView``
(``simulate_click``/``simulate_key`` set the same traits) and draws the SVG
it is sent, so every feature of the board is tested here by "clicking"
through trait changes and reading the game, the status line, the controls
and the SVG (its ``data-square`` elements and CSS classes).
"""

from __future__ import annotations

import base64
import datetime
import re

import pytest

from tavrei_lab import Game
from tavrei_lab.errors import TavreiError
from tavrei_lab.widgets import Board, BoardView, PositionEditor, agent_names
from tavrei_lab.widgets.board import PROJECTOR_LETTER_PX, PROJECTOR_SCALE, PROJECTOR_SIZE

_TAG = re.compile(r"<[^>]*>")


def square_classes(svg: str, name: str) -> set[str]:
    """The CSS classes of the board square ``name`` in a drawing."""
    for tag in _TAG.findall(svg):
        if f'data-square="{name}"' in tag:
            m = re.search(r'class="([^"]*)"', tag)
            if m and "square" in m.group(1).split():
                return set(m.group(1).split())
    raise AssertionError(f"no square element for {name} in the SVG")


def lit(board: Board, cls: str) -> set[str]:
    """Every square whose element carries ``cls`` in the board's current drawing."""
    g = board.game.position.geometry
    return {n for n in g.names if cls in square_classes(board.view.svg, n)}


def click(board: Board, square: str, layer: int | None = None) -> None:
    board.view.simulate_click(square, layer)


# -- playing by clicking --------------------------------------------------------------
def test_click_own_tower_lights_its_destinations() -> None:
    board = Board()
    click(board, "e2")
    assert board.selected == board.game.position.geometry.parse("e2")
    assert board.square_names(board.destinations()) == ["e3", "e4"]
    assert lit(board, "selected") == {"e2"}
    assert lit(board, "dest-empty") == {"e3", "e4"}
    assert "e3, e4" in board.status.value


def test_click_destination_plays_and_updates_in_place() -> None:
    board = Board()
    view, version = board.view, board.view.version
    click(board, "e2")
    click(board, "e4")
    assert board.game.action_texts() == ["e2-e4"]
    assert board.view is view and board.view.version > version  # redrawn, not rebuilt
    assert [label for label, _ in board.move_list.options] == ["start", "1. e2-e4"]
    assert board.move_list.value == 1
    assert lit(board, "lastmove") == {"e2", "e4"}
    assert lit(board, "selected") == set()
    assert "e2-e4 played" in board.status.value and "Black to move" in board.status.value


def test_capture_onto_an_enemy_tower_is_offered_and_played() -> None:
    board = Board(Game(position=None))
    board.game.play("e2-e4 d7-d5")
    board.redraw()
    click(board, "e4")
    assert "d5" in lit(board, "dest-enemy")
    click(board, "d5")
    tower = board.game.position.tower("d5")
    assert [t.color for t in tower] == [1, 0]  # the black ratnik is now a prisoner
    assert board.game.action_texts()[-1] == "e4xd5"


def _tower_game() -> Board:
    """White has a tower of two on d5 (a black prisoner under a white ratnik)."""
    board = Board()
    board.game.play("e2-e4 d7-d5 e4xd5 a7-a6")
    board.set_game(board.game)
    return board


def test_split_by_clicking_a_layer() -> None:
    board = _tower_game()
    click(board, "d5", layer=1)   # the top layer of two: take 1
    assert board.count == 1 and board.count_picker.value == 1
    assert board.square_names(board.destinations()) == ["d6"]
    click(board, "d6")
    pos = board.game.position
    assert [t.color for t in pos.tower("d5")] == [1]  # the prisoner is free
    assert [t.color for t in pos.tower("d6")] == [0]
    assert board.game.action_texts()[-1] == "d5(1)-d6"


def test_count_selector_and_layer_change_the_count() -> None:
    board = _tower_game()
    click(board, "d5")
    assert board.count == 2  # the whole tower by default
    assert not board.count_picker.disabled
    assert [v for _, v in board.count_picker.options] == [2, 1]
    board.count_picker.value = 1
    assert board.count == 1 and board.square_names(board.destinations()) == ["d6"]
    click(board, "d5", layer=0)  # the bottom layer: the whole tower again
    assert board.count == 2


def test_castling_by_clicking_the_volkhv_destination() -> None:
    board = Board(Game(position="r3v2r/8/8/8/8/8/8/R3V2R w - 0 1"))
    click(board, "e1")
    assert {"g1", "c1"} <= set(board.square_names(board.destinations()))
    click(board, "g1")
    pos = board.game.position
    assert board.game.moves[-1].castling
    assert pos.tower("g1")[-1].kind == 1 and pos.tower("f1")[-1].kind == 3


def test_illegal_clicks_explain_themselves_and_change_nothing() -> None:
    board = Board()
    before = board.game.position.string
    click(board, "e5")
    assert "nothing on e5" in board.status.value
    assert board.view.effects["flash"] == ["e5"]       # the square flashes in the browser
    click(board, "e7")
    assert "black&#x27;s" in board.status.value and "white&#x27;s move" in board.status.value
    assert "The ratnik (ратник) on e7" in board.status.value  # one tavrel is not a "tower"
    click(board, "e2")
    click(board, "e5")
    assert "Illegal" in board.status.value and "cannot move to e5" in board.status.value
    assert board.view.effects["flash"] == ["e5"]
    click(board, "e2")
    assert "flash" not in board.view.effects            # a legal click flashes nothing
    assert board.game.position.string == before and not board.game.history
    click(board, "g1")  # another own tower: the selection moves there
    assert board.square_names(board.destinations()) == ["e2", "f3", "h3"]  # onto own e2 too
    click(board, "g1")  # the same tower again: deselect
    assert board.selected is None


def test_promotion_choice_in_orthodox() -> None:
    board = Board(Game("orthodox", "8/P6k/8/8/8/8/8/K7 w - - 0 1"))
    click(board, "a7")
    click(board, "a8")
    assert board.pending_promotion and board.promotion_picker.layout.display == ""
    assert not board.game.history
    knight = next(m for label, m in board.promotion_picker.options if label == "knight")
    board.promotion_picker.value = knight
    assert board.game.position.tower("a8")[-1].acting_kind == 5
    assert board.promotion_picker.layout.display == "none"


# -- status line: check, mate, stalemate, draws --------------------------------------
def test_status_announces_check_mate_stalemate_and_draws() -> None:
    board = Board()
    board.play("e2-e4")
    board.play("f7-f5")
    board.play("d1-h5")
    assert "Check!" in board.status.value and "volkhv" in board.status.value

    mate = Board(Game("orthodox"))
    for move in ("f2-f3", "e7-e5", "g2-g4", "d8-h4"):
        mate.play(move)
    assert "Checkmate" in mate.status.value and "black wins (0-1)" in mate.status.value
    click(mate, "a2")
    assert "game is over" in mate.status.value

    stale = Board(Game("orthodox", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"))
    assert "Stalemate" in stale.status.value and "drawn" in stale.status.value

    draw = Board()
    for move in ("g1-f3 g8-f6 f3-g1 f6-g8 " * 2).split():
        draw.play(move)
    assert "Threefold repetition: a draw may be claimed" in draw.status.value


def test_check_square_is_marked_in_the_drawing() -> None:
    board = Board()
    for move in ("e2-e4", "f7-f5", "d1-h5"):
        board.play(move)
    assert "check" in square_classes(board.view.svg, "e8")


# -- controls ---------------------------------------------------------------------------
def test_undo_redo_buttons() -> None:
    board = Board()
    board.play("e2-e4")
    board.play("e7-e5")
    assert not board.undo_button.disabled and board.redo_button.disabled
    board.undo_button.click()
    assert board.game.action_texts() == ["e2-e4"]
    assert not board.redo_button.disabled
    board.redo_button.click()
    assert board.game.action_texts() == ["e2-e4", "e7-e5"]
    board.undo()
    board.undo()
    assert board.undo_button.disabled
    board.undo()
    assert "Nothing to undo" in board.status.value


def test_move_list_stepping_and_arrow_keys() -> None:
    board = Board()
    for move in ("e2-e4", "e7-e5", "g1-f3"):
        board.play(move)
    labels = [label for label, _ in board.move_list.options]
    assert labels == ["start", "1. e2-e4", "1... e7-e5", "2. g1-f3"]
    board.move_list.value = 1          # click a move in the list
    assert len(board.game.history) == 1
    assert len(board.move_list.options) == 4  # the rest of the line is kept
    board.view.simulate_key("ArrowRight")
    assert len(board.game.history) == 2
    board.view.simulate_key("ArrowLeft")
    board.view.simulate_key("ArrowLeft")
    assert not board.game.history
    board.view.simulate_key("ArrowLeft")
    assert "Already at the start" in board.status.value
    board.view.simulate_key("End")
    assert len(board.game.history) == 3
    board.view.simulate_key("Home")
    assert not board.game.history
    board.view.simulate_key("ArrowDown")                # lichess's keys: down = the end,
    assert len(board.game.history) == 3
    board.view.simulate_key("ArrowUp")                  # up = the start, f = flip
    assert not board.game.history
    board.view.simulate_key("f")
    assert board.flipped and 'data-flipped="true"' in board.view.svg
    board.view.simulate_key("f")
    assert not board.flipped
    board.go_to(3)
    board.step(-1)
    assert board.game.action_texts() == ["e2-e4", "e7-e5"]
    # a new move from an earlier point starts a side line (the game keeps its moves)
    board.go_to(1)
    board.play("d7-d5")
    assert [label for label, _ in board.move_list.options][1:] == ["1. e2-e4", "\u21b3 1... d7-d5"]


def test_nav_buttons() -> None:
    board = Board()
    for move in ("e2-e4", "e7-e5"):
        board.play(move)
    first, prev, nxt, last = (board.first_button, board.prev_button, board.next_button,
                              board.last_button)
    first.click()
    assert not board.game.history
    nxt.click()
    assert len(board.game.history) == 1
    last.click()
    assert len(board.game.history) == 2
    prev.click()
    assert len(board.game.history) == 1


def test_flip() -> None:
    board = Board()
    before = board.view.svg
    board.flip_button.click()
    assert board.flipped and board.view.svg != before
    board.flip()
    assert board.view.svg == before


def test_new_game_with_variant_chooser_and_seed() -> None:
    board = Board()
    board.play("e2-e4")
    view = board.view
    board.variant_picker.value = "orthodox"
    board.seed_text.value = "7"
    board.new_button.click()
    assert board.game.variant.id == "orthodox" and board.game.seed == 7
    assert not board.game.history and board.view is view
    board.seed_text.value = "seven"
    board.new_game()
    assert "seed must be a whole number" in board.status.value
    assert board.game.variant.id == "orthodox"


def test_save_and_load_a_record() -> None:
    board = Board()
    for move in ("e2-e4", "d7-d5", "e4xd5"):
        board.play(move)
    board.save_record()
    text = board.record_text.value
    assert '[Variant "tavreli"]' in text and "e4xd5" in text
    link = re.search(r'base64,([A-Za-z0-9+/=]+)"', board.download_link.value)
    assert link and base64.b64decode(link.group(1)).decode() == text

    other = Board()
    other.record_text.value = text
    other.load_record()
    assert other.game.action_texts() == ["e2-e4", "d7-d5", "e4xd5"]
    assert other.game.position == board.game.position


def test_malformed_record_is_reported_and_changes_nothing() -> None:
    board = Board()
    board.play("e2-e4")
    before = (board.game.position.string, board.game.action_texts())
    for bad in ('[Variant "tavreli"]\n\n1. e2-e4 e7-e9', '[Variant "tavreli"\n1. e2-e4',
                '[Variant "no-such-game"]\n\n1. e2-e4', "1. e2-e5"):
        board.load_record(bad)
        assert "Could not load the record" in board.status.value, bad
        assert "unchanged" in board.status.value
        assert (board.game.position.string, board.game.action_texts()) == before


def test_record_from_an_uploaded_file() -> None:
    board = Board()
    good = b'[Variant "tavreli"]\n\n1. e2-e4 e7-e5 *\n'
    board.record_upload.value = ({"name": "g.txt", "type": "text/plain", "size": len(good),
                                  "content": memoryview(good),
                                  "last_modified": datetime.datetime(2026, 1, 1)},)
    assert board.game.action_texts() == ["e2-e4", "e7-e5"]
    board._on_upload({"new": ({"name": "bad.bin", "content": b"\xff\xfe"},)})
    assert "not UTF-8" in board.status.value
    assert board.game.action_texts() == ["e2-e4", "e7-e5"]


def test_set_and_copy_the_position_string() -> None:
    board = Board()
    board.play("e2-e4")
    board.copy_position()
    assert board.view.clipboard["text"] == board.game.position.string
    assert "Copied" in board.status.value
    before = board.game.position.string
    board.position_text.value = "rslkvlsr/8/8/8 w - 0 1"
    board.set_position()
    assert "Could not use that position" in board.status.value
    assert board.game.position.string == before
    board.set_position("4v3/8/8/8/8/8/8/4V3 w - 0 1")
    assert board.game.position.string == "4v3/8/8/8/8/8/8/4V3 w - 0 1"
    assert not board.game.history


# -- the computer ------------------------------------------------------------------
def test_agents_offered_are_the_engine_registry() -> None:
    from tavrei_lab.engine.agents import AGENTS, OFFERED, make_agent
    board = Board()
    assert agent_names() == list(OFFERED)
    assert {spec.partition(":")[0] for spec in OFFERED} == set(AGENTS)
    assert [spec for _label, spec in board.white_player.options] == ["human", *OFFERED]
    for spec in OFFERED:
        make_agent(spec)
    assert "level:1" in OFFERED and "level:8" in OFFERED


def test_board_accepts_any_agent_spec() -> None:
    board = Board(white="alphabeta:nodes=300", seed=1)
    assert board.white_player.value == "alphabeta:nodes=300"
    assert len(board.game.moves) == 1 and "played by the computer" in board.status.value
    with pytest.raises(TavreiError, match="unknown player 'level:9'"):
        Board(black="level:9")


@pytest.mark.parametrize("agent", [a for a in agent_names()
                                   if a in ("level:1", "level:4") or not a.startswith("level")])
def test_play_against_each_agent_as_black(agent: str) -> None:
    board = Board(black=agent, seed=1)
    click(board, "e2")
    click(board, "e4")
    assert len(board.game.moves) == 2  # the computer answered at once
    assert "played by the computer" in board.status.value
    assert board.game.position.turn == 0


def test_computer_as_white_moves_first_and_clicks_for_it_are_refused() -> None:
    board = Board(white="random", seed=2)
    assert len(board.game.moves) == 1 and board.game.position.turn == 1
    board.white_player.value = "human"
    board.black_player.value = "random"  # black is to move: the computer plays at once
    assert len(board.game.moves) == 2
    board.black_player.value = "human"
    board.white_player.value = "random"
    assert len(board.game.moves) == 3
    board.white_player.value = "human"
    board.undo()  # back to a human's decision
    board.black_player.value = "random"
    board.go_to(1)  # black (the computer) to move after stepping back: no auto play
    click(board, "e7")
    assert "played by the computer" in board.status.value
    board.computer_button.click()
    assert len(board.game.moves) == 2


def test_undo_takes_back_the_computer_reply_too() -> None:
    board = Board(black="random", seed=3)
    board.play("e2-e4")
    assert len(board.game.moves) == 2
    board.undo()
    assert not board.game.history and board.game.position.turn == 0


# -- die games ----------------------------------------------------------------------
def test_die_game_roll_face_greyed_units_and_move() -> None:
    board = Board(variant="gavrilov-die", seed=3)
    assert board.die_box.layout.display == ""
    click(board, "a2")
    assert "roll the die first" in board.status.value
    board.roll_button.click()
    game = board.game
    rolls = [a for a in game.history]
    assert rolls and "rolled" in board.status.value
    while game.is_chance_node():       # skips pass the turn: roll until a face counts
        assert "passes" in board.status.value
        board.roll()
    face = game.position.roll
    assert face is not None and face in board.die_label.value
    movable = {m.from_square for m in game.legal_moves()}
    names = game.position.geometry.names
    own = {names[s] for s, t in enumerate(game.position.board)
           if t and t[-1].color == game.position.turn}
    assert set(board.view.greyed) == own - {names[s] for s in movable}
    move = game.legal_moves()[0]
    click(board, names[move.from_square])
    click(board, names[move.to_square])
    assert game.moves and game.moves[-1].key == move.key
    assert game.is_chance_node() and board.view.greyed == []


def test_die_skip_is_announced() -> None:
    for seed in range(60):
        board = Board(variant="gavrilov-die", seed=seed)
        board.roll()
        if board.game.is_chance_node():
            assert "No move: the turn passes to black" in board.status.value
            return
    pytest.fail("no skip face in 60 seeded first rolls")


def test_die_game_auto_roll_and_seeds_reproduce() -> None:
    a = Board(variant="gavrilov-die", seed=5, auto_roll=True, black="random")
    b = Board(variant="gavrilov-die", seed=5, auto_roll=True, black="random")
    assert a.game.history == b.game.history
    assert a.game.position.roll is not None or not a.game.is_chance_node()
    for board in (a, b):
        for _ in range(3):
            if board.game.outcome() is not None:
                break
            move = board.game.legal_moves()[0]
            names = board.game.position.geometry.names
            click(board, names[move.from_square])
            click(board, names[move.to_square])
    assert a.game.history == b.game.history and len(a.game.moves) >= 2


# -- static fallback and the front end -----------------------------------------------
def test_static_fallback_mime_bundle_has_the_svg() -> None:
    board = Board()
    bundle = board._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert data["image/svg+xml"] == board.view.svg
    assert "application/vnd.jupyter.widget-view+json" in data
    assert board._repr_svg_().startswith("<svg") or "<svg" in board._repr_svg_()
    view_bundle = board.view._repr_mimebundle_()
    assert (view_bundle[0] if isinstance(view_bundle, tuple) else view_bundle)[
        "image/svg+xml"] == board.view.svg
    editor = PositionEditor()
    editor_bundle = editor._repr_mimebundle_()
    assert "<svg" in (editor_bundle[0] if isinstance(editor_bundle, tuple)
                      else editor_bundle)["image/svg+xml"]


def test_every_square_carries_data_square() -> None:
    board = Board()
    for name in board.game.position.geometry.names:
        assert "square" in square_classes(board.view.svg, name)


def test_front_end_code_is_inline_with_no_remote_imports() -> None:
    esm = BoardView._esm if isinstance(BoardView._esm, str) else str(BoardView._esm)
    assert "export default" in esm
    assert not re.search(r"\bimport\b[^;]*from", esm)
    assert "http://" not in esm and "https://" not in esm


def test_bad_click_payload_is_explained() -> None:
    board = Board()
    click(board, "z9")
    assert "Click ignored" in board.status.value and not board.game.history


# -- lessons and puzzles: on_move, reject, the teacher's marks ----------------------
def test_on_move_hears_a_person_s_moves_only() -> None:
    board = Board(black="random", seed=1)
    heard = []

    def listener(b: Board, move: object) -> None:
        heard.append((b, b.game.action_texts()[len(b.game.history) - 1]))

    board.on_move(listener)
    click(board, "e2")
    click(board, "e4")
    board.view.simulate_drop("g1", "f3")
    board.play("d2-d4")
    assert [text for _, text in heard] == ["e2-e4", "g1-f3", "d2-d4"]
    assert all(b is board for b, _ in heard)
    assert len(board.game.moves) == 6            # the computer answered each move, unheard
    board.undo()
    board.redo()
    assert len(heard) == 3
    board.on_move(listener, remove=True)
    board.play("b1-c3")
    assert len(heard) == 3
    with pytest.raises(TavreiError, match="on_move needs a function"):
        board.on_move("not callable")  # type: ignore[arg-type]


def test_on_move_removes_a_bound_method_given_again() -> None:
    """``obj.method`` is a new object at each access: removal compares by equality."""

    class Listener:
        def __init__(self) -> None:
            self.heard = 0

        def hear(self, board: Board, move: object) -> None:
            self.heard += 1

    board = Board()
    listener = Listener()
    board.on_move(listener.hear)
    board.play("e2-e4")
    board.on_move(listener.hear, remove=True)
    board.play("e7-e5")
    assert listener.heard == 1


def test_reject_takes_the_move_back_flashes_and_explains() -> None:
    board = Board(black="random", seed=2)
    board.on_move(lambda b, move: b.reject(move, "Not that one: the knyaz is loose."))
    board.view.simulate_drop("e2", "e4")
    game = board.game
    assert game.history == [] and not game.can_redo()   # taken back, not kept for Redo
    assert "Not that one: the knyaz is loose." in board.status.value
    assert board.view.effects["flash"] == ["e4"]
    assert board.view.effects["slide"] == [["e4", "e2"]]  # the tower slides home
    assert "e2" in board.view.moves                      # and may be played again


def test_reject_outside_a_callback_and_its_errors() -> None:
    board = Board()
    with pytest.raises(TavreiError, match="no move has been played"):
        board.reject(None, "why")
    board.play("e2-e4")
    board.play("e7-e5")
    before = board.game.position.string
    with pytest.raises(TavreiError, match="e7-e5 is the last move played, not d7-d5"):
        board.reject("d7-d5", "no")
    with pytest.raises(TavreiError, match="reject"):
        board.reject("zz-top", "no")
    assert board.game.position.string == before          # a refused reject changes nothing
    board.reject("e7-e5", "Try the other ratnik.")
    assert board.game.action_texts() == ["e2-e4"]
    assert "Try the other ratnik." in board.status.value


def test_reject_in_a_die_game_takes_the_roll_after_the_move_too() -> None:
    board = Board(variant="gavrilov-die", seed=3, auto_roll=True)
    game = board.game
    move = game.legal_moves()[0]
    board.play(move)
    assert game.history[-1] != move                      # the next roll followed
    board.reject(move, "No.")
    assert game.history and game.history[-1] == game.history[-1] and not game.can_redo()
    assert not any(a == move for a in game.history)
    assert not game.is_chance_node()                     # back to the same roll, to move


def test_teacher_arrows_and_highlights_are_drawn_live_and_static() -> None:
    board = Board()
    board.arrows = [("e2", "e4"), ["g1", "f3", "red"], ("d5", "d5")]
    board.highlights = ["e4", ("f3", "blue")]
    svg = board.view.svg
    assert svg.count('class="arrow"') == 3 and 'data-from="g1"' in svg
    assert "highlight" in square_classes(svg, "e4") and "highlight" in square_classes(svg, "f3")
    assert board._repr_svg_() == svg                     # the static export has them too
    assert board.arrows == [("e2", "e4"), ("g1", "f3", "red"), ("d5", "d5")]
    with pytest.raises(TavreiError, match="arrows"):
        board.arrows = [("e2", "z9")]
    with pytest.raises(TavreiError, match="highlights"):
        board.highlights = ["k11"]
    assert len(board.arrows) == 3 and len(board.highlights) == 2   # the old marks stay
    board.arrows = []
    board.highlights = []
    assert 'class="arrow"' not in board.view.svg
    assert "highlight" not in square_classes(board.view.svg, "e4")


def test_drop_plays_splits_and_refuses_with_a_flash() -> None:
    board = Board()
    board.play("e2-e4")
    board.play("d7-d5")
    board.view.simulate_drop("e4", "d5")
    assert board.game.action_texts()[-1] == "e4xd5"
    board.play("a7-a6")
    assert board.view.moves["d5"]["1"] == ["d6"]         # the top one alone may go to d6
    assert "2" in board.view.moves["d5"]
    board.view.simulate_drop("d5", "d7", count=1)        # illegal: explained, flashed
    assert "Illegal" in board.status.value and board.view.effects["flash"] == ["d7"]
    assert board.game.action_texts()[-1] == "a7-a6"
    board.view.simulate_drop("d5", "d6", count=1)        # a split, by the strip's layer
    assert board.game.action_texts()[-1] == "d5(1)-d6"
    board.view.simulate_drop("d6", "d7")                 # not black's: flashed, explained
    assert "white&#x27;s" in board.status.value and board.view.effects["flash"] == ["d6"]
    board.view.drop = {"from": "q1", "to": "e4", "seq": 99}
    assert "Drop ignored" in board.status.value


def test_moves_are_sent_only_when_a_person_may_move() -> None:
    board = Board(white="random", black="random")
    assert board.view.moves == {}
    board = Board(variant="gavrilov-die", seed=3)
    assert board.view.moves == {}                        # a roll is due first
    board = Board()
    assert board.view.moves["g1"] == {"1": ["e2", "f3", "h3"]}   # onto its own ratnik too


def test_projector_mode_is_one_switch() -> None:
    board = Board(Game(), projector=True)
    assert board.projector and board.size == round(390 * PROJECTOR_SCALE) == PROJECTOR_SIZE
    assert f'width="{board.size}' in board.view.svg
    assert board.letter_px == PROJECTOR_LETTER_PX
    assert "tavrei-projector" in board._dom_classes
    sized = Board(Game(), projector=True, size=700)
    sized.set_game(Game("gavrilov-die"))
    assert sized.size == 700                        # a width asked for stays
    die = Board(variant="gavrilov-die", seed=1, projector=True)
    # the 6x6 die board, same square size, with the die column kept beside it
    assert die.size == round((6 * 45 + 2 * 15 + 45 * 1.4) * PROJECTOR_SCALE)


def test_tower_inspector_data_lists_every_layer_bottom_to_top() -> None:
    board = Board()
    for move in ("e2-e4", "d7-d5", "e4xd5"):
        board.play(move)
    rows = board.view.towers["d5"]
    assert [(r["color"], r["name"], r["letter"]) for r in rows] == [
        ("black", "ratnik", "P"), ("white", "ratnik", "P")]
    assert rows[0]["russian"] == "ратник" and rows[0]["english"] == "pawn"
    assert rows[1]["destiny"] == "destiny: helgi (хелги)"    # what the e-ratnik becomes
    assert set(board.view.glyphs) >= {"P white", "Q black", "H white"}
    assert board.view.legend[1] == ["Q", "knyaz", "князь", "queen", "K"]
    assert board.view.legend[0] == ["K", "volkhv", "волхв", "king", "V"]
    assert board.view.inspector
    board.play("a7-a6")
    click(board, "d5", 0)                                   # a row: "take from here up"
    assert board.count == 2
    click(board, "d5", 1)
    assert board.count == 1


def test_the_legend_follows_the_variant_and_the_position() -> None:
    # reported: the legend listed the helgi always, even where none can appear
    board = Board(variant="orthodox")
    assert [row[0] for row in board.view.legend] == ["K", "Q", "R", "B", "N", "P"]
    board.set_game(Game())
    assert [row[0] for row in board.view.legend][-1] == "H"
    board.set_position("4v3/8/8/8/3(LsR)4/8/8/6V1 w - 0 1")     # no ratnik left to promote
    assert [row[1] for row in board.view.legend] == ["volkhv", "ratoborets", "luchnik",
                                                     "vsadnik"]


def test_words_a_lone_tavrel_is_not_a_tower() -> None:
    board = Board()
    click(board, "g1")
    assert [label for label, _ in board.count_picker.options] == ["1 (the vsadnik)"]
    assert 'class="split-count"' not in board.view.svg      # no "1/1" pill


def test_die_rolls_sit_inline_in_the_move_list() -> None:
    board = Board(variant="gavrilov-die", seed=3, auto_roll=True)
    for _ in range(4):
        board.play(board.game.legal_moves()[0])
    labels = [label for label, _ in board.move_list.options]
    texts = board.game.action_texts()
    assert labels[1] == f"1. {texts[0]} {texts[1]}"           # "1. @Q a1xa2"
    assert not any(label.split()[-1].startswith("@") and len(label.split()) == 2
                   and label.split()[1] == texts[0] for label in labels[2:])
    assert all(" @" not in label or label.count("@") == 1 for label in labels)
    # every action is on exactly one line, in order
    flat = [word for label in labels[1:] for word in label.split()[1:]]
    assert flat == texts
    assert board.move_list.value == len(board.game.history)
    board.step(-1)                                            # between a roll and its move
    assert board.move_list.value >= len(board.game.history)


def test_stepping_says_which_position_is_shown_in_plies() -> None:
    board = Board()
    board.play("e2-e4")
    board.play("e7-e5")
    board.play("g1-f3")
    board.go_to(2)
    assert "After 1... e7-e5 (ply 2 of 3)." in board.status.value
    board.go_to(0)
    assert "At the start position." in board.status.value
    record = Game()
    record.play("e2-e4 e7-e5 g1-f3")
    board.load_record(record.record())
    assert "3 plies (half-moves) played" in board.status.value


def test_the_computer_s_move_and_undo_redo_are_animated() -> None:
    board = Board(black="random", seed=4)
    board.play("e2-e4")
    reply = board.game.moves[-1]
    names = board.game.position.geometry.names
    # the move played from Python glides, then the computer's reply
    assert board.view.effects["slide"] == [["e2", "e4"],
                                           [names[reply.from_square], names[reply.to_square]]]
    board.undo()                                  # back to white's turn: e2-e4 slides home
    assert board.view.effects["slide"] == [["e4", "e2"]]
    board.redo()
    assert board.view.effects["slide"] == [["e2", "e4"]]
    board.animate_toggle.value = False            # one switch turns the movement off
    assert board.view.animations is False


def test_show_movable_tints_every_tower_that_can_move() -> None:
    board = Board()
    board.movable_toggle.value = True
    tinted = {n for n in board.game.position.geometry.names
              if "highlight" in square_classes(board.view.svg, n)}
    names = board.game.position.geometry.names
    assert tinted == {names[m.from_square] for m in board.game.legal_moves()}
    assert "a1" in tinted and "e8" not in tinted          # a ratoborets may step onto a2
    board.movable_toggle.value = False
    assert "highlight" not in square_classes(board.view.svg, "e2")


def test_both_rolls_show_on_the_die_column_in_the_roller_s_colour() -> None:
    board = Board(variant="gavrilov-die", seed=3)
    width = re.search(r'width="([\d.]+)"', board.view.svg).group(1)
    assert 'class="die pending"' in board.view.svg           # the die waits, space kept
    board.roll()
    while board.game.is_chance_node():
        board.roll()
    assert board.view.effects.get("roll") is True              # the browser tumbles the die
    svg = board.view.svg
    mover = board.game.position.turn
    current = re.search(r'<g class="die[^"]*current"[^>]*>', svg).group(0)
    assert f'data-color="{("white", "black")[mover]}"' in current
    assert re.search(r'width="([\d.]+)"', svg).group(1) == width   # no widening
    seen_both = 0
    for _ in range(12):                            # the other side's last roll stays in sight
        game = board.game
        if game.is_chance_node():
            board.roll()
        else:
            board.play(game.legal_moves()[0])
        rolls = [(before.turn, a.face) for a, before in zip(game.history, game.positions)
                 if not hasattr(a, "from_square")]
        others = [r for r in rolls if r[0] != game.position.turn]
        previous = re.search(r'<g class="die[^"]*previous"[^>]*>', board.view.svg)
        if others:
            color, face = others[-1]
            assert previous and f'data-color="{("white", "black")[color]}"' in previous.group(0)
            assert f'data-face="{face.upper()}"' in previous.group(0) or "skip" in previous.group(0)
            seen_both += game.position.roll is not None
    assert seen_both >= 2


def test_a_failing_on_move_callback_is_reported_and_the_board_goes_on() -> None:
    board = Board()

    def broken(_board: Board, _move: object) -> None:
        raise ValueError("lesson bug")

    board.on_move(broken)
    version = board.view.version
    board.view.simulate_drop("e2", "e4")
    assert board.game.action_texts() == ["e2-e4"]            # the move stands
    assert "on_move callback failed: ValueError: lesson bug" in board.status.value
    assert board.view.version > version                      # and the board was redrawn


def test_a_drop_that_promotes_asks_for_the_piece_first() -> None:
    board = Board(Game("orthodox", "8/P6k/8/8/8/8/8/K7 w - - 0 1"))
    board.view.simulate_drop("a7", "a8")
    assert board.pending_promotion and not board.game.history
    assert board.view.moves == {}                  # no drag until the piece is chosen
    board.view.simulate_drop("a1", "b1")
    assert "Choose the promotion first" in board.status.value and not board.game.history
    queen = next(m for label, m in board.promotion_picker.options if label == "queen")
    board.promotion_picker.value = queen
    assert board.game.action_texts() == ["a7-a8=Q"]


def test_king_capture_is_announced_with_the_variants_name_for_the_king(tmp_path) -> None:
    """The chess-die game's king is a king, not Tavreli's volkhv; a variant that renames
    its king is announced with that name."""
    game = Game("gavrilov-die", "3k2/6/6/3R2/6/K5 w - 0 1")
    game.play("@R d3xd6")
    board = Board(game)
    assert "The king is taken prisoner: white wins (1-0)." in board.status.value
    assert "volkhv" not in board.status.value
    renamed = tmp_path / "tsar-die.toml"
    renamed.write_text('extends = "gavrilov-die"\nname = "Tsar die"\n'
                       '[pieces]\nbase = "orthodox"\n[pieces.king]\nname = "tsar"\n')
    game = Game(str(renamed), "3k2/6/6/3R2/6/K5 w - 0 1")
    game.play("@R d3xd6")
    board = Board(game)
    assert "The tsar is taken prisoner" in board.status.value


def test_a_clicked_move_glides_a_dropped_one_does_not() -> None:
    board = Board()
    click(board, "e2")
    click(board, "e4")
    assert board.view.effects["slide"] == [["e2", "e4"]]
    board.view.simulate_drop("e7", "e5")
    assert "slide" not in board.view.effects          # the hand already put it there
    board.on_move(lambda b, move: b.reject(move, "No."))
    click(board, "g1")
    click(board, "f3")
    assert board.view.effects["slide"] == [["f3", "g1"]]  # only the way home


def test_best_move_draws_the_engine_s_arrow_and_says_its_value_and_line() -> None:
    # lichess's analysis board shows the engine's move; the board asks it on demand
    scholar = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 0 1"
    board = Board(Game("orthodox", scholar))
    board.best_move("alphabeta:2")
    # (game.san: SAN in orthodox chess)
    assert board.message.startswith("Engine (alphabeta): 1. Qxf7# is best; white mates in 1 ply")
    arrow = re.search(r'<g class="arrow" data-from="f3" data-to="f7"[^>]*>', board.view.svg)
    assert arrow, "no engine arrow on the board"
    assert board.game.action_count == 0                       # nothing was played
    board.play("f3xf7")
    assert 'data-from="f3"' not in board.view.svg             # the arrow leaves with its position
    board.step(-1)
    assert 'data-from="f3"' in board.view.svg                 # and comes back with it
    board = Board()
    board.best_move("alphabeta:2")
    assert "for white (depth 2). Line: " in board.message
    board.game.push("e2-e4")
    board.game.push("e7-e5")
    board.redraw()
    with pytest.raises(TavreiError, match="searches"):
        board.best_move("random")
    die = Board(variant="gavrilov-die", seed=3)
    die.best_move()
    assert "Roll the die first" in die.message and "arrow" not in die.view.svg
