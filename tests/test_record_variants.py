"""Records name their rules unambiguously and replay exactly;
a record's Variant tag is not a file oracle; variant files with a BOM, a stray [die]
table, and edited parents in an ``extends`` chain.

Each test is a reproduction of what was seen, kept.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

import tavrei_lab.variant as variant_module
from tavrei_lab import Game
from tavrei_lab.cli import main
from tavrei_lab.errors import RecordError, TavreiError, VariantError, quote
from tavrei_lab.game import VARIANT_DATA_TAG, read_record
from tavrei_lab.lab.tournament import tournament
from tavrei_lab.qa.soak import run_soak
from tavrei_lab.variant import (
    check_variant_file,
    is_shipped,
    load_variant,
    variant_data,
    variant_from_data,
    variants,
)

TINY = """name = "Tiny 3"
extends = "orthodox"
[board]
width = 3
height = 4
[setup]
position = "k2/3/3/K2 w - 0 1"
"""
# named like the shipped variant it extends, but with another set-up
MY_ORTHODOX = """name = "my orthodox"
extends = "orthodox"
[setup]
position = "4k3/8/8/8/8/8/8/R3K3 w - 0 1"
"""


@pytest.fixture
def files(tmp_path: Path) -> Path:
    (tmp_path / "var").mkdir()
    (tmp_path / "var2").mkdir()
    (tmp_path / "var" / "tiny3.toml").write_text(TINY)
    (tmp_path / "var2" / "orthodox.toml").write_text(MY_ORTHODOX)
    return tmp_path


def same_game(a: Game, b: Game) -> bool:
    return [p.string for p in a.positions] == [p.string for p in b.positions]


# -- item 2: records of file variants replay ---------------------------------------------

def test_a_file_variant_record_replays_by_the_cli(files: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    # play --variant var/tiny3.toml --out g.txt; replay g.txt -> "unknown variant 'tiny3'"
    record = files / "g.txt"
    assert main(["play", "--variant", str(files / "var" / "tiny3.toml"), "--seed", "1",
                 "--out", str(record)]) == 0
    capsys.readouterr()
    os.chdir(files / "var2")          # the file is not where the record is replayed
    assert main(["replay", "--json", str(record)]) == 0
    facts = json.loads(capsys.readouterr().out)
    again = read_record(record.read_text())
    assert facts["plies"] == again.ply > 0
    assert again.variant.width == 3 and again.variant.name == "Tiny 3"


def test_a_file_named_like_a_shipped_variant_replays_under_its_own_rules(files: Path) -> None:
    # a file named orthodox.toml replayed under the *shipped* orthodox rules
    game = Game(str(files / "var2" / "orthodox.toml"))
    game.play("a1-a7 e8-f8 a7-a8")
    text = game.record()
    assert '[Variant "orthodox"]' in text and VARIANT_DATA_TAG in text
    again = read_record(text)
    assert same_game(game, again)
    with pytest.raises(TavreiError):      # under the shipped rules it cannot be replayed
        read_record(text.replace(VARIANT_DATA_TAG, "Annotator"))


def test_options_changed_in_python_are_recorded_too() -> None:
    rules = load_variant("tavreli", splits=False)
    game = Game(rules)
    game.play("e2-e4 d7-d5 e4xd5 d8-d6")
    again = read_record(game.record())
    assert again.rules.options["splits"] is False
    assert same_game(game, again)
    assert again.rules.legal_moves(again.position) == rules.legal_moves(again.position)


@pytest.mark.parametrize("vid", variants())
def test_a_shipped_variant_is_named_by_its_id_alone(vid: str) -> None:
    game = Game(vid, seed=3)
    assert is_shipped(game.rules)
    text = game.record()
    assert f'[Variant "{vid}"]' in text and VARIANT_DATA_TAG not in text
    data = variant_data(game.rules)
    assert variant_data(variant_from_data(json.loads(json.dumps(data)))) == data


def test_soak_of_a_file_variant_reads_its_records_back(files: Path) -> None:
    # soak reported a [record] violation for every file variant
    report = run_soak(3, seed=1, variants=[str(files / "var" / "tiny3.toml"),
                                           str(files / "var2" / "orthodox.toml")],
                      max_plies=30)
    assert report.games == 3 and report.violations == []


def test_compare_keeps_the_records_of_same_stem_variants_apart(files: Path) -> None:
    # compare --variants orthodox,var2/orthodox.toml wrote 2 record folders for 3 variants
    specs = ["orthodox", str(files / "var2" / "orthodox.toml"), "tavreli"]
    result = tournament(specs, "random", games=2, seed=1, max_plies=6, executor="inline",
                        progress=False)
    written = result.save(files / "out")
    names = {p.name for p in written["records"]}
    assert len(names) == len(written["records"]) == 6
    assert {n.split("__")[0] for n in names} == {"orthodox", "orthodox-2", "tavreli"}
    for path in written["records"]:
        read_record(path.read_text())          # each replays, under its own rules


# -- item 7: the Variant tag is not a file oracle ----------------------------------------

def oracle_paths(tmp_path: Path) -> list[str]:
    unreadable = tmp_path / "secret.toml"
    unreadable.write_text('password = "hunter2"\n')
    unreadable.chmod(0)
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    return [str(Path(__file__).parents[1] / "pyproject.toml"), "/nonexistent/x.toml",
            str(tmp_path), str(unreadable), str(fifo), "/etc/passwd", "../tavreli",
            "var/tiny3.toml"]


def test_a_record_cannot_probe_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # errors differed for a missing, unreadable, directory or non-TOML file, and a valid
    # TOML file leaked its first key (pyproject.toml: unknown key 'build-system')
    def no_reading(*_a: object, **_k: object) -> None:
        raise AssertionError("a record made the package open a file")

    monkeypatch.setattr(variant_module, "_read_toml", no_reading)
    messages = []
    for path in oracle_paths(tmp_path):
        with pytest.raises(RecordError) as info:
            read_record(f'[Variant "{path}"]\n\ne2-e4 *\n')
        messages.append(str(info.value).replace(quote(path), "PATH"))
    assert len(set(messages)) == 1, messages
    assert "build-system" not in messages[0] and "hunter2" not in messages[0]


def test_the_caller_may_allow_variant_files(files: Path) -> None:
    path = files / "var" / "tiny3.toml"
    text = f'[Variant "{path}"]\n\na1-a2 *\n'
    with pytest.raises(RecordError, match="not a shipped variant"):
        read_record(text)
    assert read_record(text, allow_files=True).variant.width == 3
    assert read_record(text, variant=str(path)).variant.width == 3


@pytest.mark.parametrize("data", [
    "not json", "[1,2]", '{"id": 1}', "[" * 100_000 + "]" * 100_000,
    json.dumps({**variant_data(load_variant("orthodox")), "rules": "tavrei_lab.os:system"}),
    json.dumps({**variant_data(load_variant("orthodox")), "board": [8, 10**9]}),
    json.dumps({**variant_data(load_variant("orthodox")), "extends": "/etc/passwd"}),
    json.dumps({**variant_data(load_variant("orthodox")), "options": {"nope": 1}}),
])
def test_a_bad_variant_definition_is_a_one_line_record_error(data: str) -> None:
    escaped = data.replace("\\", "\\\\").replace('"', '\\"')
    with pytest.raises(RecordError) as info:
        read_record(f'[{VARIANT_DATA_TAG} "{escaped}"]\n\n*\n')
    assert "\n" not in str(info.value) and len(str(info.value)) < 400


# -- item 5: variant files -------------------------------------------------------------------

def test_a_variant_file_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + TINY.encode())
    assert check_variant_file(path).variant.name == "Tiny 3"
    assert load_variant(str(path)).variant.width == 3


def test_a_die_table_on_a_variant_without_a_die_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "nodie.toml"
    path.write_text('extends = "tavreli"\n[die]\nfaces = ["K", "Q"]\n')
    with pytest.raises(VariantError, match="key 'die'"):
        load_variant(str(path))


def test_editing_a_parent_changes_the_child(tmp_path: Path) -> None:
    # after editing a parent in an extends chain, load_variant(child) returned old rules
    parent = tmp_path / "parent.toml"
    child = tmp_path / "child.toml"
    parent.write_text('extends = "tavreli"\n[options]\nsplits = true\n')
    child.write_text('extends = "parent"\nname = "child"\n')
    assert load_variant(str(child)).options["splits"] is True
    stamp = child.stat().st_mtime_ns
    time.sleep(0.01)
    parent.write_text('extends = "tavreli"\n[options]\nsplits = false\n')
    assert child.stat().st_mtime_ns == stamp
    assert load_variant(str(child)).options["splits"] is False


def test_a_file_may_extend_the_shipped_variant_it_is_named_after(files: Path) -> None:
    rules = load_variant(str(files / "var2" / "orthodox.toml"))
    assert rules.variant.name == "my orthodox" and not is_shipped(rules)
