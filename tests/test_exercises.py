"""Each exercise checker: a right answer passes, a wrong one fails with a reason.

The reasons matter as much as the verdicts (a learner reads them), so the
wrong-answer tests check that the explanation names what went wrong.
"""

from __future__ import annotations

import re

import pytest

from tavrei_lab import Game
from tavrei_lab.core.tavrel import BISHOP
from tavrei_lab.data import recorded_game, recorded_games
from tavrei_lab.errors import TavreiError
from tavrei_lab.exercises import (
    EXERCISES,
    Feedback,
    check_chess_analogue,
    check_destinations,
    check_discovered_check,
    check_escape,
    check_frees,
    check_mate_in_one,
    check_prisoners,
    check_promotion,
    check_saving_faces,
    commentary,
    destinations,
    exercise,
    faces_that_save_the_king,
)

LUCHNIK_TOWER = "4v3/8/8/8/3(LsR)4/8/8/6V1 w - 0 1"


def test_feedback_is_truthy_only_when_right() -> None:
    assert Feedback(True, "ok")
    assert not Feedback(False, "no")
    assert "Right!" in str(Feedback(True, "ok"))
    assert "&#10008;" in Feedback(False, "<b>")._repr_html_()
    assert "&lt;b&gt;" in Feedback(False, "<b>")._repr_html_()


def test_chess_analogue_right_in_any_language() -> None:
    g = Game()
    for answer in ("bishop", "Bishop", "слон"):
        assert check_chess_analogue(g, "luchnik", answer), answer
    assert check_chess_analogue(g, "лучник", "bishop")


def test_chess_analogue_wrong_names_the_other_tavrel() -> None:
    fb = check_chess_analogue(Game(), "luchnik", "rook")
    assert not fb
    assert "ratoborets" in fb.message
    fb = check_chess_analogue(Game(), "luchnik", "dragon")
    assert not fb and "not a piece name" in fb.message


def test_destinations_right_includes_stepping_onto_own_ratnik() -> None:
    g = Game()
    assert destinations(g, "b1") == {"a3", "c3", "d2"}
    fb = check_destinations(g, "b1", "a3, c3 d2")
    assert fb and "d2" in fb.message


def test_destinations_wrong_explains_missing_tower_and_extra_square() -> None:
    fb = check_destinations(Game(), "b1", ["a3", "c3", "e2"])
    assert not fb
    assert "d2 is missing" in fb.message and "white ratnik" in fb.message
    assert "e2 is not reachable" in fb.message


def test_moves_from_lists_and_draws_what_notebook_01_says() -> None:
    """``moves_from`` (notebook 01's pictures): the squares follow the rules, the
    text names them, the picture marks them -- checked on the notebook's claims."""
    from tavrei_lab.exercises import moves_from
    knyaz = moves_from("v7/8/3P:K'1p:L2/8/3K4/8/8/7V w - 0 1", "d4")
    assert {"d6", "f6"} <= set(knyaz.squares) and "d7" not in knyaz.squares  # stops on them
    ratnik = moves_from("v7/8/8/8/4S3/3p:K4/4P:H3/7V w - 0 1", "E2")
    assert str(ratnik) == "from e2: d3 e3 e4"
    assert str(moves_from("v7/8/8/8/8/2l5/2P:L5/7V w - 0 1", "c2")) == "from c2: no moves"
    volkhv = moves_from("v7/8/8/5r2/3V4/2P:L'5/8/8 w - 0 1", "d4")
    assert "c3" in volkhv.squares and not {"c5", "d5", "e5"} & set(volkhv.squares)
    picture = ratnik._repr_html_()
    assert picture.startswith("<p><code>from e2: d3 e3 e4</code></p><svg")
    marked = set(re.findall(r'class="square [^"]*\bdest-[a-z]+" data-square="(\w+)"', picture))
    assert marked == {"d3", "e3", "e4"}
    assert moves_from(None, "b1", variant="orthodox").squares == ("a3", "c3")
    with pytest.raises(TavreiError):
        moves_from(None, "z9")


def test_own_towers_puzzle_is_worked_out_from_the_rule_option() -> None:
    """The notebook-10 puzzle: the same position under ordinary Tavreli and with
    own_towers off; the checker's answer follows the option, and a square the option
    forbids is explained by the option."""
    puzzle = EXERCISES["no-own-towers"]
    assert puzzle.options == {"own_towers": False}
    assert not puzzle.game().rules.options["own_towers"]
    ordinary = Game("tavreli", puzzle.position)
    assert check_destinations(ordinary, "d4", "b3 b5 c2 c6 e2 e6 f3 f5")
    assert puzzle.solutions() == ["b5 c2 c6 e6 f5"]       # own b3, e2, f3 are out
    assert puzzle.check("f5 e6 c6 c2 b5")
    wrong = puzzle.check("b3 b5 c2 c6 e6 f5")
    assert not wrong and "b3 is not reachable" in wrong.message
    assert "own_towers off" in wrong.message
    missing = puzzle.check("b5 c2 e6 f5")
    assert not missing and "c6 is missing" in missing.message and "prisoner" in missing.message


def test_frees_right_split_uncovers_the_luchnik() -> None:
    g = Game(position=LUCHNIK_TOWER)
    fb = check_frees(g, "d4(2)-d6", "d4", BISHOP)
    assert fb and "on top of d4" in fb.message


def test_frees_wrong_split_frees_the_enemy_instead() -> None:
    g = Game(position=LUCHNIK_TOWER)
    fb = check_frees(g, "d4(1)-d6", "d4", BISHOP)
    assert not fb
    assert "black vsadnik" in fb.message and "enemy prisoner" in fb.message
    assert "exactly the 2 tavrels" in fb.message


def test_frees_whole_tower_and_illegal_and_other_tower_are_explained() -> None:
    g = Game(position=LUCHNIK_TOWER)
    assert "whole tower" in check_frees(g, "d4-d6", "d4", BISHOP).message
    assert "cannot be played" in check_frees(g, "d4(2)-e5", "d4", BISHOP).message
    assert "does not touch" in check_frees(g, "g1-g2", "d4", BISHOP).message
    assert g.ply == 0 and g.position.string == Game(position=LUCHNIK_TOWER).position.string


def test_promotion_by_destiny_right_and_wrong() -> None:
    g = Game(position="4v3/2P:H'5/8/8/8/8/8/4V3 w - 0 1")
    assert check_promotion(g, "c7", "helgi")
    assert check_promotion(g, "c7", "хелги")
    fb = check_promotion(g, "c7", "luchnik")  # the c-file's destiny: the classic mistake
    assert not fb and "start" in fb.message
    fb = check_promotion(g, "c7", "knyaz")
    assert not fb and "destiny" in fb.message


def test_prisoners_right_and_wrong_counts() -> None:
    ex = EXERCISES["count-prisoners"]
    g = ex.game()
    assert check_prisoners(g, 2, color=0)
    fb = check_prisoners(g, 4, color=0)  # own passengers counted too
    assert not fb and "passengers" in fb.message
    assert not check_prisoners(g, "many", color=0)


def test_mate_in_one_right_and_wrong() -> None:
    g = EXERCISES["mate-in-one"].game()
    assert check_mate_in_one(g, "e1(3)-d2")
    assert "not even give check" in check_mate_in_one(g, "e1-d2").message
    checks = [g.move_text(m) for m in g.legal_moves()
              if g.rules.is_check(g.rules.apply(g.position, m))
              and g.rules.legal_moves(g.rules.apply(g.position, m))]
    assert checks, "the puzzle should offer a check that is not mate"
    fb = check_mate_in_one(g, checks[0])
    assert not fb and "get out of it" in fb.message


def test_escape_right_onto_tower_and_wrong_into_attack() -> None:
    g = EXERCISES["escape-onto-a-tower"].game()
    assert g.is_check()
    fb = check_escape(g, "g1xf2")
    assert fb and "onto a tower" in fb.message
    fb = check_escape(g, "g1-f1")
    assert not fb and "attacked" in fb.message


@pytest.mark.parametrize("key", sorted(EXERCISES))
def test_every_ready_made_exercise_has_a_solution_and_rejects_nonsense(key: str) -> None:
    ex = EXERCISES[key]
    solutions = ex.solutions()
    assert solutions, f"{key}: no answer is accepted"
    assert ex.check(solutions[0])
    assert not ex.check("zz9")
    missing = ex.check(None)
    assert not missing and missing.missing
    assert ex.title in ex._repr_html_()


def test_exercise_lookup_names_known_keys() -> None:
    assert exercise("free-the-luchnik") is EXERCISES["free-the-luchnik"]
    with pytest.raises(TavreiError, match="free-the-luchnik"):
        exercise("nope")


def test_widget_checks_an_answer_typed_in_the_box() -> None:
    puzzle = EXERCISES["free-the-luchnik"].widget()
    puzzle.answer_box.value = "d4(1)-d6"          # Enter in the box checks at once
    assert "Not yet." in puzzle.verdict.value and "enemy prisoner" in puzzle.verdict.value
    puzzle.answer_box.value = "d4(2)-d6"
    puzzle.check_button.click()
    assert "Right!" in puzzle.verdict.value
    puzzle.solutions_button.click()
    assert "d4(2)-d6" in puzzle.verdict.value


def test_saving_faces_follow_the_hierarchy_rule() -> None:
    g = EXERCISES["die-save-the-king"].game()
    assert faces_that_save_the_king(g) == {"K", "Q", "R", "N"}
    fb = check_saving_faces(g, "k q r n")
    assert fb and "67%" in fb.message


def test_saving_faces_wrong_answers_name_missing_and_useless_faces() -> None:
    g = EXERCISES["die-save-the-king"].game()
    fb = check_saving_faces(g, "K N")
    assert not fb and "Q, R missing" in fb.message and "hierarchy" in fb.message
    fb = check_saving_faces(g, "K Q R N P")
    assert not fb and fb.message.startswith("P:")
    fb = check_saving_faces(g, "K B Q R N")  # B is the absent piece: a skip face
    assert not fb and "B:" in fb.message
    assert "not a face" in check_saving_faces(g, "X").message


def test_saving_faces_needs_a_die_roll_to_be_due() -> None:
    g = EXERCISES["die-save-the-king"].game()
    g.apply_roll("K")
    with pytest.raises(TavreiError, match="not a die roll"):
        faces_that_save_the_king(g)


def test_discovered_check_right_split_and_whole_tower_wrong() -> None:
    g = EXERCISES["discovered-check"].game()
    fb = check_discovered_check(g, "e2(1)-c3")
    assert fb and "white ratoborets" in fb.message
    fb = check_discovered_check(g, "e2-c3")
    assert not fb and "whole tower" in fb.message
    assert "single tavrel" in check_discovered_check(g, "a1-a2").message


def test_discovered_check_wrong_uncovers_enemy_or_a_quiet_tavrel() -> None:
    g = Game(position=LUCHNIK_TOWER)
    fb = check_discovered_check(g, "d4(1)-d6")
    assert not fb and "enemy" in fb.message
    fb = check_discovered_check(g, "d4(2)-d6")
    assert not fb and "does not attack" in fb.message


def test_commentary_names_captures_frees_promotions_and_mate() -> None:
    g = Game(position=LUCHNIK_TOWER)
    g.push("d4(1)-d6")
    line = commentary(g, 1)
    assert line.startswith("1. d4(1)-d6: the white ratoborets splits the tower on d4")
    assert "frees the black vsadnik" in line
    h = Game(position="4v3/1P:H'6/8/8/8/8/8/4V3 w - 0 1")
    h.push("b7-b8")
    line = commentary(h, 1)
    assert "promoted to its destiny: a white helgi" in line and line.endswith("check")
    svirin = Game()
    svirin.play(" ".join(recorded_game(3)["moves"]))
    last = commentary(svirin, svirin.ply)
    assert "uncovered on its far rank and becomes a black helgi -- mate!" in last
    assert "takes the tower of 3 on e3 prisoner (3 enemy tavrels" in commentary(svirin, 30)
    with pytest.raises(TavreiError, match="outside the game"):
        commentary(svirin, 0)


def test_recorded_games_ship_with_the_package() -> None:
    games = recorded_games()
    assert [g["n"] for g in games] == list(range(1, 21))
    games[0]["moves"].clear()                      # a copy: the shipped data is untouched
    assert recorded_game(1)["moves"][-1] == "e1(3)-d2x"
    with pytest.raises(TavreiError, match="numbered 1-20"):
        recorded_game(21)
