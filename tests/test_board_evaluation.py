"""The engine's evaluation on a board (the bar and the graph over the plies) and a
move typed in the board's box, checked on the session with no widget, then drawn."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap

import pytest

from tavrei_lab import Game
from tavrei_lab.errors import ArgumentError
from tavrei_lab.render.evaluation import evaluation_bar_svg, evaluation_graph_svg
from tavrei_lab.session import BoardSession
from tavrei_lab.session.evaluation import Evaluation, Evaluations, evaluate, line_positions


def played(*moves: str, variant: str = "orthodox") -> BoardSession:
    session = BoardSession(Game(variant))
    for move in moves:
        session.play(move)
    return session


def test_same_position_same_figure_whatever_was_searched_before() -> None:
    a = played("e2-e4", "e7-e5")
    b = played("g1-f3", "b8-c6", "f3-g1", "c6-b8", "e2-e4", "e7-e5")   # another road there
    a.evaluation_graph()                       # other positions searched first on a
    first, second = a.evaluation(), b.evaluation()
    assert first == second
    fresh = evaluate(a.game, a.game.position)
    assert fresh == first and isinstance(first.pawns, float)


def test_graph_has_one_figure_per_ply_of_the_whole_line() -> None:
    session = played("e2-e4", "e7-e5", "g1-f3")
    session.go_to_ply(1)                       # stepping back keeps the line
    graph = session.evaluation_graph()
    assert len(graph) == 4                     # plies 0..3
    again = Evaluations()
    positions = line_positions(session.game)
    assert [again.of(session.game, p) for p in positions] == graph
    # each point is the figure of that ply's position, as the bar shows it there
    for ply, figure in enumerate(graph):
        session.go_to_ply(ply)
        assert session.evaluation() == figure


def test_evaluate_says_the_figure_and_hides() -> None:
    session = played("e2-e4")
    update = session.evaluate()
    assert session.show_evaluation
    figure = session.evaluation()
    assert update.message == f"Evaluation: {figure.text()} for white."
    assert re.fullmatch(r"[+-]\d+\.\d\d", figure.text())
    assert session.evaluate(False).message == "Evaluation hidden."
    assert not session.show_evaluation
    ru = BoardSession(Game("orthodox"), language="ru")
    assert ru.evaluate().message.startswith("Оценка: ")


def test_finished_game_and_mates_read_as_results() -> None:
    session = played("f2-f3", "e7-e5", "g2-g4", "d8-h4")       # fool's mate
    figure = session.evaluation()
    assert figure.result == "0-1" and figure.white_share() == 0.0 and figure.text() == "0-1"
    assert Evaluation(10000 - 3, 3).text() == "#3"
    assert Evaluation(0.0).white_share() == pytest.approx(0.5)
    assert Evaluation(5.0).white_share() > Evaluation(1.0).white_share() > 0.5


def test_a_die_game_is_evaluated_where_the_die_is_due() -> None:
    session = BoardSession(Game("gavrilov-die", seed=2))
    assert session.game.is_chance_node()
    figure = session.evaluation()             # the faces' average, reproducible
    assert figure == BoardSession(Game("gavrilov-die", seed=5)).evaluation()
    assert figure.text() != "-0.00"


def test_a_bad_node_budget_is_refused() -> None:
    game = Game("orthodox")
    with pytest.raises(ArgumentError, match="node budget"):
        evaluate(game, game.position, nodes=0)


def test_typed_move_is_read_as_game_play_reads_movetext() -> None:
    session = BoardSession(Game("orthodox"))
    assert session.type_move("1. E2-E4").message == "1. e2-e4 played."
    assert session.type_move("e7e5").message == "1... e7-e5 played."
    assert session.game.ply == 2


@pytest.mark.parametrize("text, said", [
    ("zz", "Not a move: "),
    ("e2-e4 e7-e5", "Type one move, such as e2-e4 (not 'e2-e4 e7-e5')."),
    ("   ", "Type one move, such as e2-e4 (not an empty box)."),
    ("e2-e5", "Illegal: "),
])
def test_typed_move_refused_in_one_line_and_nothing_changes(text: str, said: str) -> None:
    session = BoardSession(Game("orthodox"))
    before = session.game.position.string
    message = session.type_move(text).message
    assert message.startswith(said) and "\n" not in message
    assert session.game.position.string == before and session.game.ply == 0


def test_typed_move_waits_for_the_computer_and_the_die() -> None:
    session = BoardSession(Game("orthodox"), white="greedy")
    session.go_to(0)
    message = session.type_move("e2-e4").message
    assert "press Computer move" in message


def test_typed_move_with_widget_libraries_unimportable() -> None:
    code = textwrap.dedent("""
        import sys
        for name in ("ipywidgets", "anywidget", "traitlets", "IPython"):
            sys.modules[name] = None
        from tavrei_lab import Game
        from tavrei_lab.session import BoardSession
        s = BoardSession(Game("orthodox"))
        s.type_move("e2-e4")
        assert len(s.evaluation_graph()) == 2
        print(s.evaluate().message)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("Evaluation: ")


def test_graph_svg_has_a_clickable_column_per_ply_and_marks_the_shown_one() -> None:
    svg = evaluation_graph_svg([0.5, 0.6, 0.2], ["a", "b", "c"], 1)
    assert re.findall(r'data-ply="(\d+)"', svg) == ["0", "1", "2"]
    assert 'class="tavrei-eval-now" x1="105.0"' in svg
    bar = evaluation_bar_svg(0.75, "+3.00", height=400)
    assert 'y="100.0" width="22" height="300.0"' in bar      # white's part, at the bottom
    flipped = evaluation_bar_svg(0.75, "+3.00", height=400, flipped=True)
    assert 'y="0.0" width="22" height="300.0"' in flipped


def test_board_widget_draws_the_bar_and_graph_and_jumps_on_a_click() -> None:
    from tavrei_lab.widgets import Board
    board = Board(variant="orthodox")
    for move in ("e2-e4", "e7-e5", "g1-f3"):
        board.move_text.value = move
        assert board.move_text.value == ""          # played: the box empties
    board.move_text.value = "e9-e8"
    assert board.move_text.value == "e9-e8" and "Illegal" in board.status.value
    assert board.evaluation_panel.graph.layout.display == "none"
    board.evaluation_panel.toggle.value = True
    assert board.evaluation_panel.graph.layout.display == ""
    assert len(re.findall("data-ply=", board.evaluation_panel.graph.svg)) == 4
    assert "Evaluation: " in board.status.value
    board.evaluation_panel.graph.click = {"ply": 1, "seq": 1}
    assert board.ply == 1 and board.game.ply == 1
    assert board.evaluation_panel.drawn[1] == 1
    board.evaluation_panel.graph.click = {"ply": 99, "seq": 2}     # off the line: ignored
    assert board.ply == 1
