"""Variant files: loading, inheritance, overrides, rule flips, and every kind of bad file."""

from __future__ import annotations

import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import tavrei_lab
from tavrei_lab import Game, VariantError, load_variant
from tavrei_lab.variant import check_variant_file

ROOT = Path(__file__).resolve().parents[1]


def test_shipped_variants_are_listed_and_top_level_folder_shows_them() -> None:
    ids = tavrei_lab.variants()
    for vid in ("tavreli", "orthodox", "tavreli-no-split", "tavreli-king-never-stacks",
                "tavreli-demote-by-enemy-only", "tavreli-pass-over-own"):
        assert vid in ids
    assert {p.stem for p in (ROOT / "variants").glob("*.toml")} == set(ids)


@pytest.mark.parametrize("vid", tavrei_lab.variants())
def test_each_shipped_variant_plays_a_seeded_random_game_to_the_end(vid: str) -> None:
    rules = load_variant(vid)
    assert rules.variant.description, f"{vid} needs a description"
    game = Game(vid, seed=11)
    rng = random.Random(11)
    for _ in range(3000):
        if game.is_chance_node():
            if game.outcome(claim_draw=True) is not None:
                break
            game.roll()
            continue
        if game.outcome(claim_draw=True) is not None:
            break
        game.push(rng.choice(game.legal_moves()))
    assert game.outcome(claim_draw=True) is not None, f"{vid}: no end after 3000 steps"


def test_keyword_overrides() -> None:
    rules = load_variant("tavreli", fifty_move_rule=False)
    assert rules.options["fifty_move_rule"] is False
    assert load_variant("tavreli").options["fifty_move_rule"] is True
    with pytest.raises(VariantError, match="options.no_such"):
        load_variant("tavreli", no_such=True)


def test_inheritance_lists_only_what_differs() -> None:
    text = (ROOT / "variants" / "tavreli-no-split.toml").read_text()
    assert "extends = \"tavreli\"" in text and "[board]" not in text
    rules = load_variant("tavreli-no-split")
    assert rules.options["splits"] is False and rules.options["castling"] is True


def moves_of(vid: str, position: str) -> set[str]:
    game = Game(vid, position)
    return {game.move_text(m) for m in game.legal_moves()}


def test_rule_flip_no_split() -> None:
    pos = "4v3/8/8/8/3(LrS)4/8/8/4V3 w - 0 1"
    base, flip = moves_of("tavreli", pos), moves_of("tavreli-no-split", pos)
    assert "d4(1)-f5" in base and "d4(1)-f5" not in flip
    assert "d4-f5" in flip
    assert flip < base


def test_rule_flip_king_never_stacks() -> None:
    pos = "7v/8/8/8/8/8/3P:K'1S2/4V3 w - 0 1"
    base, flip = moves_of("tavreli", pos), moves_of("tavreli-king-never-stacks", pos)
    assert "e1xf2" in base and "e1xf2" not in flip
    assert base - flip == {"e1xd2", "e1xf2"}


def test_rule_flip_demote_by_enemy_only() -> None:
    pos = "1P:S*5v/8/2S5/8/8/8/8/7V w - 0 1"
    base = Game("tavreli", pos)
    flip = Game("tavreli-demote-by-enemy-only", pos)
    for g in (base, flip):
        g.push("c6xb8")                 # own vsadnik covers the promoted ratnik
    assert not base.position.tower("b8")[0].promoted
    assert flip.position.tower("b8")[0].promoted
    for g in (base, flip):              # carry it off the far rank and uncover it there
        g.play("h8-g8 b8(2)-c6 g8-h8 c6(1)-e5 h8-g8")
    base_moves = {m for m in moves_of("tavreli", base.position.string) if m.startswith("c6")}
    flip_moves = {m for m in moves_of("tavreli-demote-by-enemy-only", flip.position.string)
                  if m.startswith("c6")}
    assert base_moves == {"c6-c7"}                       # an ordinary ratnik again
    assert {"c6-a7", "c6-b8", "c6-d8", "c6-a5", "c6-b4", "c6-d4"} <= flip_moves  # a vsadnik


def test_rule_flip_pass_over_own() -> None:
    pos = "7v/8/8/8/8/8/P:R'7/R6V w - 0 1"
    base, flip = moves_of("tavreli", pos), moves_of("tavreli-pass-over-own", pos)
    assert "a1-a3" not in base and "a1-a3" in flip
    assert "a1xa2" in base and "a1xa2" in flip


# -- bad variant files -------------------------------------------------------------

BAD_FILES = {
    "unknown-option": ('extends = "tavreli"\n[options]\nsplitz = false\n', "options.splitz"),
    "wrong-type": ('extends = "tavreli"\n[options]\nsplits = "no"\n', "true or false"),
    "bad-choice": ('extends = "tavreli"\n[options]\ndemote_by = "own"\n', "one of"),
    "unknown-module": ('extends = "tavreli"\nrules = "tower-checkers"\n', "unknown rule module"),
    "not-toml": ('extends = "tavreli\n', "not valid TOML"),
    "unknown-key": ('extends = "tavreli"\ncolour = "red"\n', "unknown key 'colour'"),
    "board-too-big": ('extends = "tavreli"\n[board]\nwidth = 1000\nheight = 1000\n',
                      "board.width"),
    "setup-does-not-fit": ('extends = "tavreli"\n[board]\nwidth = 6\nheight = 6\n',
                           "setup.back_rank"),
    "two-volkhvs": ('extends = "tavreli"\n[setup]\nback_rank = "RSVKVLSR"\n',
                    "at most one"),
    "missing-parent": ('extends = "no-such-parent"\n', "key 'extends'"),
    "no-rules": ('name = "x"\n', "'rules'"),
    "bad-letter": ('extends = "tavreli"\n[pieces.king]\nletter = "VV"\n', "pieces.king.letter"),
}


@pytest.mark.parametrize("kind", sorted(BAD_FILES))
def test_bad_variant_files(kind: str, tmp_path: Path) -> None:
    text, expected = BAD_FILES[kind]
    path = tmp_path / f"{kind}.toml"
    path.write_text(text)
    with pytest.raises(VariantError) as info:
        check_variant_file(path)
    assert expected in str(info.value)
    assert str(path) in str(info.value)


def test_cycle_in_extends(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text('extends = "b"\n')
    (tmp_path / "b.toml").write_text('extends = "a"\n')
    with pytest.raises(VariantError, match="cycle"):
        check_variant_file(tmp_path / "a.toml")


def test_a_user_variant_file_beside_its_parent(tmp_path: Path) -> None:
    (tmp_path / "mine.toml").write_text(textwrap.dedent("""
        name = "Mine"
        description = "Tavreli without castling"
        extends = "tavreli"
        [options]
        castling = false
    """))
    game = Game(str(tmp_path / "mine.toml"))
    assert game.rules.options["castling"] is False
    assert game.variant.name == "Mine"


def test_variant_files_are_data_never_code(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    (tmp_path / "evil.toml").write_text(
        'extends = "tavreli"\nrules = "os:system"\n'
        f'name = "__import__(\\"os\\").system(\\"touch {marker}\\")"\n')
    with pytest.raises(VariantError, match="unknown rule module"):
        check_variant_file(tmp_path / "evil.toml")
    assert not marker.exists()


def test_non_editable_install_still_finds_the_variants(tmp_path: Path) -> None:
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--target", str(target), str(ROOT)], check=True)
    code = ("import tavrei_lab, sys; from tavrei_lab import Game; "
            "assert tavrei_lab.__file__.startswith(sys.argv[1]), tavrei_lab.__file__; "
            "print(len(tavrei_lab.variants())); print(len(Game('tavreli-no-split').legal_moves()))")
    out = subprocess.run([sys.executable, "-c", code, str(target)], check=True,
                         capture_output=True, text=True, cwd=tmp_path,
                         env={"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin"}).stdout.split()
    assert int(out[0]) == len(tavrei_lab.variants())
    assert int(out[1]) > 0
