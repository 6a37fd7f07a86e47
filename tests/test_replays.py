"""Replay all twenty recorded tournament games and check every fact the data shares.

../shared/data/games.json gives, for ten games, the facts an independent replay
found after the last move (plies, side to move, check, legal moves, mate, every
tower, perft 2): each is asserted. For all twenty it gives the moves verbatim and
the notation of towers, and RULES.md gives facts that hold after every move of
every game, whatever the engine: no tavrel leaves the board (A3.1), nothing is
ever placed on a volkhv (A3.3), each side keeps its sixteen tavrels with their
destinies (A2), a promoted ratnik is never covered (A8.3) and a ratnik on top of
its far rank is promoted (A8.1). Those are checked at every ply of every game,
from the data's tower notation; so is the record round trip.
"""

from __future__ import annotations

import re

import pytest

from tavrei_lab import Game
from tavrei_lab.core.position import Position
from tavrei_lab.engine.perft import perft
from tavrei_lab.game import read_record
from tests.conftest import load_games

GAMES = load_games()["games"]


def tower_tokens(position: Position) -> dict[str, list[str]]:
    """Towers in the data's notation: letter, ':X' destiny, '*' promoted (no moved mark)."""
    pieces = position.pieces
    out = {}
    for square, tower in position.towers().items():
        tokens = []
        for t in tower:
            letter = pieces.letter(t.kind)
            token = letter if t.color == 0 else letter.lower()
            if t.destiny:
                token += ":" + pieces.letter(t.destiny)
            if t.promoted:
                token += "*"
            tokens.append(token)
        out[square] = tokens
    return out


IDS = [f"game{g['n']}" for g in GAMES]
WITH_END_FACTS = [g for g in GAMES if "expected_at_end" in g]

#: Each side's sixteen tavrels (A2): kind letter -> count, and the ratniks' destinies.
ARMY = {"V": 1, "K": 1, "R": 2, "L": 2, "S": 2, "P": 8}
DESTINIES = sorted("RSLKHLSR")


def played_plies(record: dict) -> int:
    """Plies in a record: one per token, but a move written without its separator
    ('b1 e1' for 'b1-e1', game 1) is two tokens that are bare squares."""
    tokens = record["moves"]
    bare = sum(1 for t in tokens if re.fullmatch(r"[a-hA-H][1-8]", t))
    assert bare % 2 == 0, "a bare square with no partner"
    return len(tokens) - bare // 2


def test_the_data_still_has_twenty_games_ten_with_end_facts() -> None:
    assert [g["n"] for g in GAMES] == list(range(1, 21))
    assert len(WITH_END_FACTS) == 10
    assert played_plies(GAMES[0]) == len(GAMES[0]["moves"]) - 1    # the one 'b1 e1'


def rule_facts(towers: dict[str, list[str]], height: int) -> list[str]:
    """What RULES.md says of any position, checked on the data's tower notation."""
    wrong = []
    for colour, upper in (("white", True), ("black", False)):
        mine = [t for tower in towers.values() for t in tower if t[0].isupper() == upper]
        kinds = {k: sum(1 for t in mine if t[0].upper() == k) for k in ARMY}
        if kinds != ARMY:
            wrong.append(f"{colour} has {kinds}, not its sixteen tavrels (A2, A3.1)")
        destinies = sorted(t.split(":")[1][0] for t in mine if t[0].upper() == "P")
        if destinies != DESTINIES:
            wrong.append(f"{colour}'s ratnik destinies are {destinies} (A2)")
    for square, tower in towers.items():
        if not 1 <= len(tower) <= 31:
            wrong.append(f"{square}: a tower of {len(tower)} (A3.1)")
            continue
        if any(t[0] in "Vv" for t in tower[:-1]):
            wrong.append(f"{square}: something placed on a volkhv {tower} (A3.3)")
        if any(t.endswith("*") for t in tower[:-1]):
            wrong.append(f"{square}: a covered promoted ratnik {tower} (A8.3)")
        top = tower[-1]
        far_rank = str(height) if top[0] == "P" else "1"
        if top[0] in "Pp" and square[1:] == far_rank and not top.endswith("*"):
            wrong.append(f"{square}: {top} on top of its far rank, not promoted (A8.1)")
    return wrong


@pytest.mark.parametrize("record", GAMES, ids=IDS)
def test_every_position_of_every_game_keeps_the_rules(record: dict) -> None:
    game = Game()
    game.play(" ".join(record["moves"]))
    assert game.ply == played_plies(record)
    height = game.position.geometry.height
    for ply, position in enumerate(game.positions):
        assert position.turn_name == ("white" if ply % 2 == 0 else "black")
        wrong = rule_facts(tower_tokens(position), height)
        assert wrong == [], f"after ply {ply}: {wrong}"


def test_the_rule_facts_catch_what_they_claim_to() -> None:
    """Each fact flags a position that breaks it (the checker is no rubber stamp)."""
    start = tower_tokens(Game().position)
    assert rule_facts(start, 8) == []

    def moved(frm: str, to: str, *under: str) -> dict[str, list[str]]:
        towers = {sq: t for sq, t in start.items() if sq != frm}
        towers[to] = [*under, *start[frm]]
        return towers

    def flags(towers: dict[str, list[str]], clause: str) -> bool:
        return any(clause in w for w in rule_facts(towers, 8))

    assert rule_facts(moved("a2", "a3"), 8) == []                   # a legal-looking step
    assert flags({sq: t for sq, t in start.items() if sq != "b1"}, "sixteen")   # one lost
    assert flags(dict(start, e1=["V", "P:H"], e2=["K"]), "A3.3")   # a ratnik on the volkhv
    assert flags(dict(moved("d2", "d1"), d1=["P:K*", "K"]), "A8.3")  # a covered promoted one
    assert flags(moved("a2", "a8", "r"), "A8.1")                    # on top of rank 8, plain
    assert flags(moved("a7", "a1", "R"), "A8.1")                    # black's far rank is 1
    assert flags(dict(start, a2=["P:K"]), "destinies")


@pytest.mark.parametrize("record", WITH_END_FACTS, ids=[f"game{g['n']}" for g in WITH_END_FACTS])
def test_recorded_game_end_facts(record: dict) -> None:
    game = Game()
    game.play(" ".join(record["moves"]))
    expected = record["expected_at_end"]
    assert set(expected) == {"plies", "side_to_move", "in_check", "legal_moves", "checkmate",
                             "perft_2", "towers"}, "a new fact in the data: check it here"
    assert game.ply == expected["plies"]
    assert game.position.turn_name == expected["side_to_move"]
    assert game.is_check() == expected["in_check"]
    assert len(game.legal_moves()) == expected["legal_moves"]
    outcome = game.outcome()
    assert (outcome is not None and outcome.termination == "checkmate") == expected["checkmate"]
    assert tower_tokens(game.position) == expected["towers"]
    assert perft(game.rules, game.position, 2) == expected["perft_2"]


@pytest.mark.parametrize("record", GAMES, ids=IDS)
def test_record_round_trip(record: dict) -> None:
    game = Game()
    game.play(" ".join(record["moves"]))
    game.tags["Event"] = record["title"]
    text = game.record()
    again = read_record(text)
    assert again.position.string == game.position.string
    assert [again.move_text(m, p) for m, p in zip(again.moves, again.positions)] == \
        [game.move_text(m, p) for m, p in zip(game.moves, game.positions)]
    assert again.tags["Event"] == record["title"]
