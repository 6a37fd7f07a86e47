"""docs/architecture.md and the import-linter contracts in pyproject.toml tell one story.

``lint-imports`` (in ``make test``) checks the code against the contracts; these
tests check that the contracts cover every part of the package, that the page a
newcomer reads lists the same layers in the same order, and that the contracts
catch what they are meant to catch.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "tavrei_lab"


def contracts() -> list[dict]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return data["tool"]["importlinter"]["contracts"]


def contract_layers() -> list[set[str]]:
    (layers,) = [c for c in contracts() if c["type"] == "layers"]
    return [{m.strip().removeprefix("tavrei_lab.") for m in re.split(r"[|:]", row)}
            for row in layers["layers"]]


def parts() -> set[str]:
    """The packages and modules directly inside tavrei_lab (what the layers must place)."""
    found = set()
    for child in PACKAGE.iterdir():
        if child.is_dir() and (child / "__init__.py").exists():
            found.add(child.name)
        elif child.suffix == ".py" and child.stem not in ("__init__", "__main__"):
            found.add(child.stem)
    return found


def test_every_part_of_the_package_has_a_layer() -> None:
    placed = set().union(*contract_layers())
    assert parts() - placed == set(), "add the new part to the layers contract"
    assert placed - parts() == set(), "the layers contract names a part that does not exist"


def test_the_architecture_page_lists_the_contract_layers_in_order() -> None:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    table = text.split("<!-- layers:", 1)[1].split("\n\n", 2)[1]
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    doc_layers = [set(re.findall(r"`([a-z0-9_]+)`", row.split("|")[1])) for row in rows]
    assert doc_layers == contract_layers()


def test_the_contracts_catch_an_upward_import(tmp_path: Path) -> None:
    """A copy of the package with core importing render breaks the layers contract;
    the package as it is keeps every contract."""
    lint = Path(sys.executable).with_name("lint-imports")
    if not lint.exists():
        pytest.fail("lint-imports is not installed: pip install -e .[test]")
    ok = subprocess.run([str(lint)], cwd=ROOT, capture_output=True, text=True)
    assert ok.returncode == 0, ok.stdout[-3000:]

    import shutil
    copy = tmp_path / "tavrei_lab"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    geometry = copy / "core" / "geometry.py"
    geometry.write_text(geometry.read_text(encoding="utf-8")
                        + "\n\ndef _upward():\n    from tavrei_lab.render import board_svg\n"
                          "    return board_svg\n", encoding="utf-8")
    broken = subprocess.run([str(lint)], cwd=tmp_path, capture_output=True, text=True,
                            env={"PYTHONPATH": str(tmp_path), "PATH": ""})
    assert broken.returncode != 0
    assert "tavrei_lab.core.geometry -> tavrei_lab.render" in broken.stdout


def _sources(*skip: str) -> list[tuple[str, str]]:
    return [(str(p.relative_to(ROOT)), p.read_text(encoding="utf-8"))
            for p in sorted(PACKAGE.rglob("*.py"))
            if not any(str(p.relative_to(ROOT)).startswith(s) for s in skip)]


def test_callers_ask_the_rule_module_contract_not_its_insides() -> None:
    """Outside rules/: no probing a rule module with getattr/hasattr, no private names
    reached through it (the contract, rules/base.py, names everything callers use)."""
    from tavrei_lab.rules.base import CONTRACT_MEMBERS
    probing = re.compile(r"\b(getattr|hasattr)\([^)\n]*\b(rules|inner)\b")
    # a member of the contract asked for by name, whatever holds the module (a class too)
    members = "|".join(CONTRACT_MEMBERS)
    by_name = re.compile(r"\b(getattr|hasattr)\([^)\n]*[\"'](" + members + r")[\"']")
    private = re.compile(r"\b(rules|inner)\._[a-z]")
    found = [f"{path}:{n}: {line.strip()}"
             for path, text in _sources("tavrei_lab/rules/")
             for n, line in enumerate(text.splitlines(), 1)
             if probing.search(line) or by_name.search(line) or private.search(line)]
    assert found == []


#: Private names still reached from another module: networkx's graph dicts, which its
#: documentation describes for subclasses and which tree.build fills directly for speed.
#: And the position's own cached fields, which the compiled rule module's apply fills as
#: C struct members of ``Position``'s extension type (core/position.pxd declares them),
#: and that the compiled playing search reads (``play._kings_of``: the volkhvs' squares).
KNOWN_REACH_INS = {("tavrei_lab/tree/build.py", "_node"), ("tavrei_lab/tree/build.py", "_succ"),
                   ("tavrei_lab/tree/build.py", "_pred"),
                   ("tavrei_lab/tree/nodes.py", "_node"), ("tavrei_lab/tree/nodes.py", "_adj"),
                   ("tavrei_lab/rules/stacking.py", "_kings"),
                   ("tavrei_lab/rules/stacking.py", "_key"),
                   ("tavrei_lab/engine/play.py", "_kings")}

def test_no_module_reaches_into_another_modules_private_names() -> None:
    """A leading underscore means "this module's own": another module neither imports
    such a name nor reads or sets such an attribute. Allowed: ``self._x`` and
    ``other._x`` of a name the same file defines (a class copying its own kind),
    Jupyter's ``_repr_*_`` hooks, and third-party modules' names."""
    import ast

    found = []
    for path, text in _sources():
        tree = ast.parse(text)
        own = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)
               and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")}
        own |= {node.name for node in ast.walk(tree)
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
        own |= {t.id for node in ast.walk(tree) if isinstance(node, (ast.Assign, ast.AnnAssign))
                for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
                if isinstance(t, ast.Name)}
        foreign = {(alias.asname or alias.name).split(".")[0]
                   for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
                   and not (getattr(node, "module", None) or "").startswith("tavrei_lab")
                   for alias in node.names}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tavrei_lab"):
                found += [f"{path}:{node.lineno}: imports {a.name}" for a in node.names
                          if a.name.startswith("_") and not a.name.startswith("__")]
            if not isinstance(node, ast.Attribute):
                continue
            name = node.attr
            if (not name.startswith("_") or name.startswith("__") or name in own
                    or re.fullmatch(r"_repr_\w+_", name)):
                continue
            if isinstance(node.value, ast.Name) and node.value.id in foreign:
                continue  # argparse._SubParsersAction and the like
            if (path, name) not in KNOWN_REACH_INS:
                found.append(f"{path}:{node.lineno}: .{name}")
    assert found == []


@pytest.mark.parametrize("path", ["tavrei_lab/game/game.py", "tavrei_lab/game/finding.py",
                                  "tavrei_lab/widgets/editor.py",
                                  "tavrei_lab/engine/search.py"])
def test_option_names_are_read_through_the_module(path: str) -> None:
    """These ask ``rules.splits``, ``rules.king_capture``, ``rules.castling``,
    ``rules.fifty_move_rule`` -- never ``rules.options["..."]`` by name."""
    text = (ROOT / path).read_text(encoding="utf-8")
    assert re.findall(r"rules\.options\b", text) == []
