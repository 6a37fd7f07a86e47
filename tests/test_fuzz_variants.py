"""Fuzzing variant files, and proof that loading one never runs code.

Inputs: every shipped variant file truncated and mutated, TOML built from
random keys and values (right key names with wrong values, wrong names,
deep tables), random text and bytes. A file that loads must give rules that
can set up and play. Safety: a variant file is data -- a ``rules`` key that
names a Python path, a malicious-looking string anywhere, or an ``extends``
pointing at a Python file, runs nothing; rule modules come only from the
built-in names and the ``tavrei_lab.rules`` entry points.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_fuzz_inputs import clean, fuzz_settings, mutated, odd_text, variant_corpus

from tavrei_lab import Game
from tavrei_lab.errors import TavreiError, VariantError
from tavrei_lab.rules import registry
from tavrei_lab.variant import check_variant_file, load_variant

WORKDIR = Path(tempfile.mkdtemp(prefix="tavrei-fuzz-variants-"))
atexit.register(shutil.rmtree, WORKDIR, ignore_errors=True)


def write(text: str | bytes, name: str = "fuzz.toml") -> Path:
    path = WORKDIR / name
    if isinstance(text, str):
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
    else:
        path.write_bytes(text)
    return path


def plays(rules: object) -> None:
    """Rules that loaded must set up and play a few moves (or rolls)."""
    game = Game(rules)
    for _ in range(4):
        if game.is_game_over():
            break
        if game.is_chance_node():
            game.roll()
        else:
            moves = game.legal_moves()
            if not moves:
                break
            game.push(moves[0])


@fuzz_settings(200)
@given(text=st.one_of(mutated(variant_corpus(), max_insert=20), odd_text(200),
                      st.binary(max_size=300)))
def test_check_variant_file_loads_or_refuses_clearly(text: str | bytes) -> None:
    rules = clean(check_variant_file, write(text))
    if not isinstance(rules, TavreiError):
        plays(rules)


# TOML assembled from the keys the loader knows, with values of every type.
scalars = st.one_of(st.booleans(), st.integers(-10**20, 10**20), st.floats(allow_nan=True),
                    st.text(max_size=12), st.sampled_from(["tower-chess", "die", "tavreli",
                                                          "orthodox", "RSLKVLSR", "RNQKNR",
                                                          "destiny", "choice", "any", "mate"]))


def toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return {"nan": "nan", "inf": "inf", "-inf": "-inf"}.get(repr(value), repr(value))
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") \
            .encode("ascii", "backslashreplace").decode().replace("\\x", "\\u00") + '"'
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return str(value)


values = st.one_of(scalars, st.lists(scalars, max_size=7))
TABLES = {
    "": ["name", "description", "extends", "rules", "pieces", "lesson", "bogus"],
    "board": ["width", "height", "depth"],
    "setup": ["back_rank", "ratniks", "destiny", "position", "extra"],
    "options": ["prisoners", "splits", "promotion", "promotion_choices", "demote_by", "win",
                "absent", "no_move_passes", "castling", "double_step", "nonsense"],
    "die": ["faces", "weights", "skips", "sides"],
    "pieces": ["base"],
}


@st.composite
def toml_files(draw: st.DrawFn) -> str:
    lines = []
    if draw(st.booleans()):
        parent = draw(st.sampled_from(["tavreli", "gavrilov-die", "orthodox"]))
        lines.append(f'extends = "{parent}"')
    for table, keys in TABLES.items():
        chosen = draw(st.lists(st.sampled_from(keys), unique=True, max_size=4))
        if not chosen:
            continue
        if table:
            lines.append(f"[{table}]")
        for key in chosen:
            if key == "extends" and any(line.startswith("extends") for line in lines):
                continue
            lines.append(f"{key} = {toml_value(draw(values))}")
    return "\n".join(lines) + "\n"


@fuzz_settings(250)
@given(text=toml_files())
def test_well_formed_toml_with_wrong_values_is_refused_by_key(text: str) -> None:
    rules = clean(check_variant_file, write(text))
    if isinstance(rules, TavreiError):
        assert isinstance(rules, VariantError)
        return
    plays(rules)


@fuzz_settings(60)
@given(name=odd_text(40))
def test_any_variant_name_loads_a_variant_or_refuses_clearly(name: str) -> None:
    rules = clean(load_variant, name)
    if not isinstance(rules, TavreiError):
        assert rules.variant.id


# -- safety: a variant file is data ------------------------------------------------------------

MALICIOUS = '''
name = "__import__('os').system('touch {marker}')"
description = """{{{{ ''.__class__.__mro__[1].__subclasses__() }}}} $(touch {marker})
`touch {marker}`"""
extends = "tavreli"
rules = "os:system"
lesson = "exec(open('{marker}', 'w').write('pwned'))"

[options]
"__class__" = "eval('1+1')"
'''


def test_a_malicious_looking_variant_file_runs_nothing(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    path = tmp_path / "evil.toml"
    path.write_text(MALICIOUS.format(marker=marker))
    with pytest.raises(VariantError, match="unknown rule module 'os:system'"):
        check_variant_file(path)
    with pytest.raises(VariantError):
        Game(str(path))
    assert not marker.exists()


@pytest.mark.parametrize("target", ["tavrei_lab.rules.stacking:TowerChessRules",
                                    "builtins:eval", "os.path:join", "../evil.py"])
def test_rules_can_only_name_a_registered_module(target: str, tmp_path: Path) -> None:
    """A Python path in ``rules`` is refused even when it names a real class."""
    path = tmp_path / "v.toml"
    path.write_text(f'extends = "tavreli"\nrules = "{target}"\n')
    with pytest.raises(VariantError, match="unknown rule module"):
        check_variant_file(path)


def test_extends_never_imports_a_python_file(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    (tmp_path / "trap.py").write_text(f"open({str(marker)!r}, 'w').write('ran')\n")
    (tmp_path / "trap.toml").write_text("this is = not toml [")
    path = tmp_path / "v.toml"
    for parent in ("trap.py", "trap", str(tmp_path / "trap.py")):
        path.write_text(f'extends = "{parent}"\n')
        with pytest.raises(VariantError):
            check_variant_file(path)
    assert not marker.exists()


def test_rule_modules_come_only_from_builtins_and_entry_points(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The registry imports only targets it lists: built-ins and installed entry points."""
    known = registry.rule_modules()
    assert set(known) >= {"tower-chess", "die"}
    imported: list[str] = []
    real_load = registry._load
    monkeypatch.setattr(registry, "_load",
                        lambda target: imported.append(target) or real_load(target))
    registry._registered.pop("no-such", None)
    with pytest.raises(VariantError):
        registry.rule_module("tavrei_lab.rules.stacking:TowerChessRules")
    with pytest.raises(VariantError):
        registry.rule_module("no-such")
    assert imported == []
    registry.rule_module("tower-chess")
    assert imported == [known["tower-chess"]]
