"""Exercises with immediate feedback, for the tutorials and the classroom.

A learner answers a question about a position ("find the split that frees
your luchnik", "where can this vsadnik go?", "which faces let you save the
volkhv?") and a *checker* says at once whether the answer is right and, when
it is not, **why** -- in the words of the rules (docs/rules.md), not just "wrong".

Three layers:

- **checker functions** ``check_*(game, answer, ...) -> Feedback`` (``checkers.py``)
  -- usable on any position; they work the right answers out from the rules;
- **exercises** (``Exercise``, ``model.py``): a title, a prompt, a position and a
  checker bound together; ``exercise.check(answer)`` gives ``Feedback``, the
  object shows its board in a notebook, and ``exercise.widget()`` opens it on a
  live board;
- **puzzles as data** (``puzzles.toml``, read by ``loader.py``): every ready-made
  puzzle, in English and Russian, naming its checker. A teacher adds puzzles in a
  file of their own (``TAVREI_PUZZLES``, or ``add_puzzles(path)``): see
  docs/puzzles.md.

>>> ex = EXERCISES["free-the-luchnik"]
>>> bool(ex.check("d4(2)-d6"))
True
>>> print(ex.check("d4(1)-d6").message)  # doctest: +ELLIPSIS
d4(1)-d6 takes only the white ratoborets: the black vsadnik on d4 is now on top -- you freed ...
"""

from tavrei_lab.exercises.checkers import (
    MAX_ANSWER_CHARS,
    Checker,
    Feedback,
    Reach,
    check_accepted,
    check_chess_analogue,
    check_destinations,
    check_discovered_check,
    check_escape,
    check_frees,
    check_gives_check,
    check_mate_in_one,
    check_prisoners,
    check_promotion,
    check_saving_faces,
    check_takes_prisoner,
    destinations,
    faces_that_save_the_king,
    moves_from,
    tavrel_name,
)
from tavrei_lab.exercises.loader import (
    CANDIDATES,
    CHECKERS,
    PUZZLES_SETTING,
    add_puzzles,
    load_puzzles,
    load_shipped,
    puzzle_from_data,
)
from tavrei_lab.exercises.model import (
    ANSWER_KINDS,
    EXERCISES,
    PUZZLE_FRONT_END,
    Exercise,
    Lesson,
    exercise,
    register_opener,
)
from tavrei_lab.exercises.words import commentary, describe_tower

load_shipped()

__all__ = [
    "ANSWER_KINDS", "CANDIDATES", "CHECKERS", "EXERCISES", "MAX_ANSWER_CHARS",
    "PUZZLES_SETTING", "PUZZLE_FRONT_END", "Checker", "Exercise", "Feedback", "Lesson",
    "Reach", "add_puzzles", "check_accepted", "check_chess_analogue", "check_destinations",
    "check_discovered_check", "check_escape", "check_frees", "check_gives_check",
    "check_mate_in_one", "check_promotion", "check_prisoners", "check_saving_faces",
    "check_takes_prisoner", "commentary", "describe_tower", "destinations", "exercise",
    "faces_that_save_the_king", "load_puzzles", "load_shipped", "moves_from",
    "puzzle_from_data", "register_opener", "tavrel_name",
]
