"""Variants are data: TOML files that pick a rule module and its options.

A variant file lists only what differs from the variant it ``extends``, so a
teacher who wants to compare two rule sets changes one line. Loading a file
never runs code from it: the ``rules`` key names a registered module (see
``rules.registry``) and everything else is checked against the module's
declared options.

Format (every key is optional in a file that ``extends`` another)::

    name = "Tavreli without splits"
    description = "Towers move whole: what is a tower worth then?"
    extends = "tavreli"          # another variant id, or a relative .toml path
    rules = "tower-chess"        # a registered rule module
    pieces = "tavreli"           # a built-in piece set, or a [pieces.<role>] table

    [board]
    width = 8
    height = 8

    [setup]                      # either back_rank (+ ratniks, destiny) or position
    back_rank = "RSLKVLSR"       # white's first rank, file a first; black mirrors it
    ratniks = true               # a full rank of ratniks in front of it
    destiny = "RSLKHLSR"         # each ratnik's destiny, by file (role letters)
    # position = "<position string>"

    [options]                    # the rule module's options (see `tavrei-lab variants -v`)
    splits = false

    [die]                        # for the die turn rule only
"""

from __future__ import annotations

import copy
import json
import os
import stat
import sys
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from tavrei_lab.core.files import os_failure
from tavrei_lab.core.geometry import MAX_SIDE, MIN_SIDE
from tavrei_lab.core.pieces import (
    BUILTIN_PIECE_SETS,
    ROLE_BY_NAME,
    PieceKind,
    PieceSet,
)
from tavrei_lab.errors import LimitError, PositionError, TavreiError, VariantError
from tavrei_lab.i18n import gettext as _
from tavrei_lab.rules.base import RuleModule, missing_members
from tavrei_lab.rules.registry import rule_module

#: Where the shipped variant files live (inside the package, so a wheel has them).
VARIANTS_DIR = Path(__file__).with_name("variants")
#: Largest variant file read (a variant is a few dozen lines).
MAX_VARIANT_FILE_BYTES = 256 * 1024
#: Longest ``extends`` chain followed before it is called a cycle or a mistake.
MAX_EXTENDS_DEPTH = 32
#: Most '.' characters on one line of a variant file (see ``_read_toml``).
MAX_VARIANT_LINE_DOTS = 32

_TOP_KEYS = {"name", "description", "extends", "rules", "pieces", "board", "setup",
             "options", "die", "lesson"}
_BOARD_KEYS = {"width", "height"}
_SETUP_KEYS = {"back_rank", "ratniks", "destiny", "position"}
_PIECE_KEYS = {"letter", "name", "russian", "english"}


@dataclass
class Variant:
    """A loaded, validated variant: what a rule module is built from."""

    id: str
    name: str
    description: str
    rules: str
    width: int
    height: int
    pieces: PieceSet
    setup: str                       # the initial position string
    options: dict[str, Any]
    die: dict[str, Any] = field(default_factory=dict)
    source: str = ""
    lesson: str = ""
    chain: tuple[str, ...] = ()      # ids/paths followed through ``extends``

    def resolved_options(self, declared: Sequence[Any],
                         extra_known: Sequence[str] = ()) -> dict[str, Any]:
        """Defaults overlaid with this variant's options, each checked."""
        known = {o.name: o for o in declared}
        for key, value in self.options.items():
            if key in extra_known:
                continue
            opt = known.get(key)
            if opt is None:
                raise VariantError(
                    _("{file}: key 'options.{key}': unknown option for rule module {rules}; "
                      "expected one of: {known}").format(
                        file=self.source, key=key, rules=repr(self.rules),
                        known=", ".join(sorted(known))),
                    file=self.source, key=f"options.{key}")
            problem = opt.check(value)
            if problem:
                raise VariantError(_("{file}: key 'options.{key}': {problem}").format(
                                   file=self.source, key=key, problem=problem),
                                   file=self.source, key=f"options.{key}")
        resolved = {o.name: o.default for o in declared}
        resolved.update({k: v for k, v in self.options.items() if k in known})
        return resolved

    def make_rules(self) -> RuleModule:
        """The rule module for this variant (validates options and set-up)."""
        cls = rule_module(self.rules, file=self.source)
        try:
            rules = cls(self)
        except VariantError:
            raise
        except TavreiError as exc:
            raise VariantError(_("{file}: {reason}").format(file=self.source, reason=exc),
                               file=self.source) from exc
        missing = missing_members(rules)
        if missing:  # found now, not as an AttributeError deep inside a game
            raise VariantError(_("{file}: key 'rules': rule module {rules} is not a whole rule "
                                 "module: it lacks {missing} (docs/rule-modules.md)").format(
                                   file=self.source, rules=repr(self.rules),
                                   missing=", ".join(missing)), file=self.source, key="rules")
        if self.die and not rules.has_chance:
            # silently ignoring it would let a teacher believe the die is in play
            raise VariantError(_("{file}: key 'die': rule module {rules} has no die; a [die] "
                                 "table belongs only to rules = \"die\"").format(
                                   file=self.source, rules=repr(self.rules)),
                               file=self.source, key="die")
        try:
            start = rules.initial_position()
            rules.validate(start)
        except (PositionError, LimitError) as exc:
            raise VariantError(_("{file}: key 'setup': the set-up cannot be used: {reason}")
                               .format(file=self.source, reason=exc),
                               file=self.source, key="setup") from exc
        return rules


# -- reading files ---------------------------------------------------------------

def _exists(path: Path) -> bool:
    """``path.exists()``, but False for names the system refuses (too long, ...)."""
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.samefile(b)
    except (OSError, ValueError):
        return False


def _read_regular(path: Path) -> bytes:
    """The bytes of the regular file at ``path``, at most the limit plus one.

    The file is opened without blocking and checked once it is open (``fstat``):
    a path checked first and opened after can be swapped between the two for a
    FIFO, whose open would wait for a writer forever (it hung ``check``)."""
    def cannot(exc: BaseException) -> VariantError:
        return VariantError(_("{file}: cannot read variant file: {reason}").format(
            file=path, reason=os_failure(exc) if isinstance(exc, OSError) else exc), file=str(path))

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
                     | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0))
    except (OSError, ValueError) as exc:
        raise cannot(exc) from exc
    try:
        try:
            info = os.fstat(fd)
        except OSError as exc:
            raise cannot(exc) from exc
        if not stat.S_ISREG(info.st_mode):   # a directory, /dev/zero, a pipe that never ends
            raise VariantError(_("{file}: not a regular file").format(file=path),
                               file=str(path))
        if info.st_size > MAX_VARIANT_FILE_BYTES:
            raise VariantError(_("{file}: variant file is {size} bytes; the limit is {limit}")
                               .format(file=path, size=info.st_size,
                                       limit=MAX_VARIANT_FILE_BYTES), file=str(path))
        chunks: list[bytes] = []
        size = 0
        while size <= MAX_VARIANT_FILE_BYTES:   # no more than the limit, whatever fstat said
            try:
                chunk = os.read(fd, MAX_VARIANT_FILE_BYTES + 1 - size)
            except OSError as exc:
                raise cannot(exc) from exc
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _read_toml(path: Path) -> dict[str, Any]:
    raw = _read_regular(path)
    if len(raw) > MAX_VARIANT_FILE_BYTES:
        raise VariantError(_("{file}: variant file is over the limit of {limit} bytes")
                           .format(file=path, limit=MAX_VARIANT_FILE_BYTES), file=str(path))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise VariantError(_("{file}: not UTF-8 text ({reason} at byte {byte})").format(
            file=path, reason=exc.reason, byte=exc.start), file=str(path)) from exc
    if text.startswith("\ufeff"):   # a byte-order mark, as Windows editors save UTF-8
        text = text[1:]
    # tomllib's cost grows with the square of a dotted key's length (x.x.x... = 1):
    # a 128,000-part key takes gigabytes. Real keys have two or three parts.
    for number, line in enumerate(text.split("\n"), 1):  # TOML ends lines at \n only
        if line.count(".") > MAX_VARIANT_LINE_DOTS:
            raise VariantError(_("{file}: line {line} has more than {limit} '.' characters; "
                                 "dotted keys that long are refused").format(
                                   file=path, line=number, limit=MAX_VARIANT_LINE_DOTS),
                               file=str(path))
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise VariantError(_("{file}: not valid TOML: {reason}").format(file=path, reason=exc),
                           file=str(path)) from exc
    except RecursionError:  # arrays or inline tables nested hundreds deep
        raise VariantError(_("{file}: not valid TOML: arrays or tables nested too deep")
                           .format(file=path), file=str(path)) from None
    return data


def _find(name: str, relative_to: Path | None) -> Path:
    """A variant id or a path to a file; ids are looked up beside the file first."""
    if name.endswith(".toml") or os.sep in name or "/" in name:
        p = Path(name)
        if not p.is_absolute() and relative_to is not None:
            p = relative_to.parent / p
        return p
    if relative_to is not None:
        beside = relative_to.parent / f"{name}.toml"
        # a file may extend the shipped variant it is named after (orthodox.toml
        # extends "orthodox"): it does not mean itself
        if _exists(beside) and not _same_file(beside, relative_to):
            return beside
    return VARIANTS_DIR / f"{name}.toml"


def _merge(base: dict[str, Any], child: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(base)
    for key, value in child.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def _resolve(path: Path, seen: tuple[str, ...]) -> tuple[dict[str, Any], tuple[str, ...]]:
    key = str(path.resolve()) if _exists(path) else str(path)
    if key in seen:
        cycle = " -> ".join(Path(s).stem for s in (*seen, key))
        raise VariantError(_("{file}: key 'extends': cycle in extends: {cycle}").format(
                           file=path, cycle=cycle),
                           file=str(path), key="extends")
    if len(seen) >= MAX_EXTENDS_DEPTH:
        raise VariantError(_("{file}: key 'extends': chain longer than {limit}").format(
                           file=path, limit=MAX_EXTENDS_DEPTH),
                           file=str(path), key="extends")
    if not _exists(path):
        raise VariantError(_("{file}: no such variant file").format(file=path), file=str(path))
    data = _read_toml(path)
    unknown = set(data) - _TOP_KEYS
    if unknown:
        k = sorted(unknown)[0]
        raise VariantError(_("{file}: unknown key {key}; expected one of: {known}").format(
                           file=path, key=repr(k), known=", ".join(sorted(_TOP_KEYS))),
                           file=str(path), key=k)
    parent = data.get("extends")
    chain = (*seen, key)
    if parent is None:
        return data, chain
    if not isinstance(parent, str) or not parent:
        raise VariantError(_("{file}: key 'extends': expected a variant id or file name, got "
                             "{value}").format(file=path, value=repr(parent)),
                           file=str(path), key="extends")
    parent_path = _find(parent, path)
    if not _exists(parent_path):
        raise VariantError(_("{file}: key 'extends': no variant {parent} (looked for {where})")
                           .format(file=path, parent=repr(parent), where=parent_path),
                           file=str(path), key="extends")
    base, chain = _resolve(parent_path, chain)
    merged = _merge(base, {k: v for k, v in data.items() if k != "extends"})
    return merged, chain


def _expect(cond: bool, path: Path, key: str, what: str) -> None:
    if not cond:
        raise VariantError(_("{file}: key {key}: expected {what}").format(
            file=path, key=repr(key), what=what), file=str(path), key=key)


def _pieces(spec: Any, path: Path) -> PieceSet:
    if isinstance(spec, str):
        _expect(spec in BUILTIN_PIECE_SETS, path, "pieces",
                _("one of {names} or a table").format(names=", ".join(BUILTIN_PIECE_SETS)))
        return BUILTIN_PIECE_SETS[spec]
    _expect(isinstance(spec, dict), path, "pieces", _("a piece-set name or a table"))
    base_name = spec.get("base", "tavreli")
    _expect(isinstance(base_name, str) and base_name in BUILTIN_PIECE_SETS, path, "pieces.base",
            _("one of {names}").format(names=", ".join(BUILTIN_PIECE_SETS)))
    kinds = dict(BUILTIN_PIECE_SETS[base_name].by_kind)
    for role, table in spec.items():
        if role == "base":
            continue
        _expect(role in ROLE_BY_NAME, path, f"pieces.{role}",
                _("a role: {roles}").format(roles=", ".join(ROLE_BY_NAME)))
        _expect(isinstance(table, dict) and set(table) <= _PIECE_KEYS, path, f"pieces.{role}",
                _("a table with keys {keys}").format(keys=", ".join(sorted(_PIECE_KEYS))))
        kind = ROLE_BY_NAME[role]
        old = kinds[kind]
        letter = table.get("letter", old.letter)
        _expect(isinstance(letter, str) and len(letter) == 1 and letter.isascii()
                and letter.isalpha(), path, f"pieces.{role}.letter", _("one ASCII letter"))
        for k in ("name", "russian", "english"):
            _expect(isinstance(table.get(k, ""), str), path, f"pieces.{role}.{k}", _("a string"))
        kinds[kind] = PieceKind(kind, letter.upper(), table.get("name", old.name),
                                table.get("russian", old.russian),
                                table.get("english", old.english))
    try:
        return PieceSet(kinds)
    except ValueError as exc:
        raise VariantError(_("{file}: key 'pieces': {reason}").format(
                           file=path, reason=_(str(exc))), file=str(path),
                           key="pieces") from exc


def _setup_string(setup: dict[str, Any], width: int, height: int, pieces: PieceSet,
                  path: Path) -> str:
    unknown = set(setup) - _SETUP_KEYS
    _expect(not unknown, path, f"setup.{sorted(unknown)[0] if unknown else ''}",
            _("one of {names}").format(names=", ".join(sorted(_SETUP_KEYS))))
    if "position" in setup:
        _expect(isinstance(setup["position"], str), path, "setup.position",
                _("a position string"))
        return setup["position"]
    back: Any = setup.get("back_rank")
    _expect(isinstance(back, str), path, "setup.back_rank",
            _("a string of piece letters, or setup.position"))
    letters = set(pieces.by_letter)
    _expect(len(back) == width, path, "setup.back_rank",
            _("{width} letters (one per file), got {count}").format(width=width, count=len(back)))
    _expect(all(c.upper() in letters for c in back), path, "setup.back_rank",
            _("letters of this variant's pieces ({letters})")
                .format(letters="".join(sorted(letters))))
    ratniks = setup.get("ratniks", True)
    _expect(isinstance(ratniks, bool), path, "setup.ratniks", _("true or false"))
    destiny = setup.get("destiny", "")
    _expect(isinstance(destiny, str), path, "setup.destiny", _("a string of letters"))
    if ratniks and destiny:
        _expect(len(destiny) == width and all(c.upper() in letters for c in destiny),
                path, "setup.destiny", _("{width} piece letters (one per file)")
                    .format(width=width))
    _expect(height >= (4 if ratniks else 2), path, "board.height",
            _("room for both armies"))
    pawn = pieces.by_kind[6].letter

    def rank(row: list[str]) -> str:
        return "".join(row)

    white_back = [c.upper() for c in back]
    white_pawns = [pawn + (f":{d.upper()}" if destiny else "") for d in (destiny or back)]
    rows = [rank([c.lower() for c in white_back])]
    if ratniks:
        rows.append(rank([t.lower() for t in white_pawns]))
    empty = height - 2 * len(rows)
    rows += [str(width)] * empty
    if ratniks:
        rows.append(rank(white_pawns))
    rows.append(rank(white_back))
    return "/".join(rows) + " w - 0 1"


def _build(data: dict[str, Any], path: Path, vid: str, chain: tuple[str, ...]) -> Variant:
    name = data.get("name", vid)
    _expect(isinstance(name, str), path, "name", _("a string"))
    description = data.get("description", "")
    _expect(isinstance(description, str), path, "description", _("a string"))
    lesson = data.get("lesson", "")
    _expect(isinstance(lesson, str), path, "lesson", _("a string"))
    rules: Any = data.get("rules")
    _expect(isinstance(rules, str), path, "rules", _("the name of a rule module"))
    board = data.get("board", {})
    _expect(isinstance(board, dict), path, "board", _("a table with width and height"))
    unknown = set(board) - _BOARD_KEYS
    _expect(not unknown, path, f"board.{sorted(unknown)[0] if unknown else ''}",
            _("width or height"))
    for k in ("width", "height"):
        v = board.get(k, 8)
        _expect(isinstance(v, int) and not isinstance(v, bool), path, f"board.{k}",
                _("an integer"))
        _expect(MIN_SIDE <= v <= MAX_SIDE, path, f"board.{k}",
                _("{low}..{high} (the board limit), got {value}")
                    .format(low=MIN_SIDE, high=MAX_SIDE, value=v))
    width, height = board.get("width", 8), board.get("height", 8)
    pieces = _pieces(data.get("pieces", "tavreli"), path)
    setup = data.get("setup", {})
    _expect(isinstance(setup, dict), path, "setup", _("a table"))
    setup_str = _setup_string(setup, width, height, pieces, path)
    options = data.get("options", {})
    _expect(isinstance(options, dict), path, "options", _("a table of option = value"))
    die = data.get("die", {})
    _expect(isinstance(die, dict), path, "die", _("a table"))
    return Variant(id=vid, name=name, description=description.strip(), rules=rules,
                   width=width, height=height, pieces=pieces, setup=setup_str,
                   options=dict(options), die=die, source=str(path), lesson=lesson.strip(),
                   chain=chain)


#: Loaded variants by resolved path: (stamps of every file of the chain, variant, rules).
_CACHE: OrderedDict[str, tuple[tuple[Any, ...], Variant, Any]] = OrderedDict()
_CACHE_SIZE = 64
#: load_variant's overridden variants: (path, overrides) -> (the base variant, rules).
_OVERRIDDEN: OrderedDict[tuple[str, tuple[tuple[str, str], ...]], tuple[Variant, Any]] = \
    OrderedDict()


def _stamps(chain: Sequence[str]) -> tuple[Any, ...]:
    """What says a file changed, for each file of an ``extends`` chain: a teacher who
    edits the parent must get the new rules in the child (not only when the child moves)."""
    out: list[tuple[Any, ...]] = []
    for name in chain:
        try:
            st = os.stat(name)
            out.append((name, st.st_mtime_ns, st.st_size, st.st_ino))
        except (OSError, ValueError):
            out.append((name, None))
    return tuple(out)


def _load_cached(path_key: str) -> tuple[Variant, Any]:
    hit = _CACHE.get(path_key)
    if hit is not None and _stamps([s for s, *_ in hit[0]]) == hit[0]:
        _CACHE.move_to_end(path_key)
        return hit[1], hit[2]
    path = Path(path_key)
    data, chain = _resolve(path, ())
    variant = _build(data, path, path.stem, chain)
    rules = _recordable(variant.make_rules(), path)
    _CACHE[path_key] = (_stamps(chain), variant, rules)
    while len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return variant, rules


def load_variant(name_or_path: str | os.PathLike[str] = "tavreli",
                 **overrides: Any) -> RuleModule:
    """The rule module of a variant, by id (``"tavreli"``) or file path.

    Keyword arguments override options, so a one-off comparison needs no file:

    >>> rules = load_variant("tavreli", fifty_move_rule=False)
    >>> rules.options["fifty_move_rule"], rules.variant.id
    (False, 'tavreli')
    """
    try:
        name = os.fspath(name_or_path)
    except TypeError:  # None, a number, ...: say so as the docstring promises
        name = None
    if not isinstance(name, str) or not name:
        raise VariantError(_("variant name must be a non-empty string, got {value}").format(
            value=repr(name_or_path)))
    path = _find(name, None)
    if not _exists(path):
        if name.endswith(".toml") or "/" in name:
            raise VariantError(_("{file}: no such variant file").format(file=name[:200]),
                               file=name)
        raise VariantError(_("unknown variant {name}; known: {known}").format(
            name=repr(name[:200]), known=", ".join(variants())), file=name)
    try:
        key = str(path.resolve())
    except OSError as exc:
        raise VariantError(_("{file}: cannot read variant file: {reason}").format(
            file=path, reason=os_failure(exc)), file=str(path)) from exc
    variant, rules = _load_cached(key)
    if not overrides:
        return rules
    # The same overrides of the same loaded variant give the same rule module, as a plain
    # load does: a sweep's verifying replays load their cell once a game.
    # (Values by repr: True and 1 stay apart, and lists need no hashing.)
    okey = (key, tuple(sorted((name, repr(value)) for name, value in overrides.items())))
    hit = _OVERRIDDEN.get(okey)
    if hit is not None and hit[0] is variant:     # the base not reloaded since
        _OVERRIDDEN.move_to_end(okey)
        return hit[1]
    v = copy.copy(variant)
    v.options = {**variant.options, **overrides}
    built = _recordable(v.make_rules(), path)
    _OVERRIDDEN[okey] = (variant, built)
    while len(_OVERRIDDEN) > _CACHE_SIZE:
        _OVERRIDDEN.popitem(last=False)
    return built


def variants() -> list[str]:
    """The ids of the shipped variants, sorted."""
    return sorted(p.stem for p in VARIANTS_DIR.glob("*.toml"))


def describe_variants() -> list[tuple[str, str, str]]:
    """(id, name, description) of every shipped variant; name and description in the
    language in force (a description the catalogue does not hold as it is written)."""
    out = []
    for vid in variants():
        try:
            r = load_variant(vid)
            out.append((vid, _(r.variant.name), _(r.variant.description)))
        except VariantError as exc:
            out.append((vid, "(broken)", str(exc)))
    return out


def check_variant_file(path: str | os.PathLike[str]) -> Any:
    """Load and validate a variant file; raises ``VariantError`` naming what is wrong."""
    try:
        p = Path(path)
    except TypeError:
        raise VariantError(_("a variant file must be a path, got {value}").format(
            value=repr(path))[:200]) from None
    if not _exists(p):
        raise VariantError(_("{file}: no such variant file").format(file=p), file=str(p))
    data, chain = _resolve(p, ())
    variant = _build(data, p, p.stem, chain)
    return _recordable(variant.make_rules(), p)


def _recordable(rules: Any, path: Path) -> Any:
    """``rules``, if a record of its games can carry its definition and be read back:
    what the package writes (``Game.record``'s ``VariantData`` tag) it must read."""
    size = len(json.dumps(variant_data(rules), ensure_ascii=False, separators=(",", ":")))
    if size > MAX_VARIANT_DATA_CHARS:   # a 250,000-character name passed check before
        raise VariantError(_("{file}: the variant's definition is {size} characters as a "
                             "record carries it; the limit is {limit} (shorten its name)").format(
                               file=path, size=size, limit=MAX_VARIANT_DATA_CHARS),
                           file=str(path))
    return rules


# -- a variant written into a record ------------------------------------------------------

#: Longest variant definition a record may carry (a resolved variant is about 1 KB).
MAX_VARIANT_DATA_CHARS = 64 * 1024


def is_shipped(rules: RuleModule) -> bool:
    """Does ``rules`` play exactly as the shipped variant of its id? Then a record names
    it by id alone; anything else (a file, options changed) carries its definition."""
    v = rules.variant
    if v.id not in variants() or Path(v.source).parent != VARIANTS_DIR:
        return False
    try:
        return variant_data(load_variant(v.id)) == variant_data(rules)
    except VariantError:
        return False


def variant_data(rules: RuleModule) -> dict[str, Any]:
    """Everything that decides how ``rules`` play, as plain data (JSON-ready): the rule
    module's name, board, pieces, set-up, resolved options and die -- read back by
    ``variant_from_data`` without opening any file."""
    v = rules.variant
    return {"id": v.id, "name": v.name, "rules": v.rules, "board": [v.width, v.height],
            "pieces": [[k.kind, k.letter, k.name, k.russian, k.english] for k in v.pieces],
            "setup": v.setup, "options": dict(sorted(rules.options.items())),
            "die": v.die}


def rules_data(rules: RuleModule) -> dict[str, Any]:
    """What decides how ``rules`` play, and nothing else: ``variant_data`` without the
    variant's id and name and the pieces' names (words, not moves), and the die as the
    game rolls it -- each face's chance, and for a face that passes the turn only that
    it does (a blank mark and the face of an absent type skip alike), in the order
    the die is rolled. Two rule modules with equal ``rules_data`` play the same game
    from the same seed."""
    data = variant_data(rules)
    out: dict[str, Any] = {k: v for k, v in data.items() if k not in ("id", "name")}
    out["pieces"] = [row[:2] for row in data["pieces"]]
    die = rules.fast_paths().die if rules.has_chance else None
    if die is not None:         # a die module that offers no kernel keeps its die table
        out["die"] = {"over": data["die"].get("over", ""),
                      "faces": [["skip" if die.face_rank(f) == 0 else f, repr(float(p))]
                                for f, p in zip(die.faces, die.probabilities)]}
    return out


def rules_hash(rules: RuleModule) -> str:
    """The hash of the rules as played (``rules_data`` as canonical JSON): equal for two
    variants that differ only in id, name, description or how a skip face is marked, so
    ``tavreli`` with ``splits = false`` is ``tavreli-no-split``, and fits and cells are
    known by what they play.

    >>> rules_hash(load_variant("tavreli", splits=False)) == rules_hash(
    ...     load_variant("tavreli-no-split"))
    True
    """
    import hashlib
    text = json.dumps(rules_data(rules), sort_keys=True, default=str)
    return hashlib.blake2b(text.encode("utf-8"), digest_size=10).hexdigest()


def check_distinct_rules(named: Sequence[tuple[str, RuleModule]], what: str) -> None:
    """Refuse two entries (cells of a sweep, variants of a tournament) that play equal
    rules (``rules_hash``): comparing them compares the rules with themselves, and a
    difference found between them is noise taken for an effect. ``what`` names the
    entries ("cell", "variant")."""
    first: dict[str, str] = {}
    for name, rules in named:
        key = rules_hash(rules)
        if key in first:
            raise VariantError(_("{what} {b} plays the same rules as {what} {a} (rules hash "
                                 "{key}: they differ only in name, description or how a face "
                                 "is marked); comparing them compares the rules with "
                                 "themselves: drop one").format(what=what, a=first[key], b=name,
                                                                key=key))
        first[key] = name


def variant_from_data(data: Any, where: str = "record") -> Any:
    """The rule module ``variant_data`` describes; a ``VariantError`` naming the key at
    fault otherwise. Reads no file and runs no code: ``rules`` must name a registered
    module, and every value is checked as a variant file's would be."""
    def need(cond: bool, key: str, what: str) -> None:
        if not cond:
            raise VariantError(_("{where}: variant definition: key {key}: expected {what}")
                               .format(where=where, key=repr(key), what=what),
                               file=where, key=key)

    need(isinstance(data, dict), "", _("a table"))
    known = {"id", "name", "rules", "board", "pieces", "setup", "options", "die"}
    unknown = sorted(set(data) - known)
    need(not unknown, unknown[0] if unknown else "", _("one of {names}")
        .format(names=", ".join(sorted(known))))
    for key in ("id", "name", "rules", "setup"):
        need(isinstance(data.get(key), str), key, _("a string"))
    board = data.get("board")
    need(isinstance(board, list) and len(board) == 2
         and all(isinstance(n, int) and not isinstance(n, bool) and MIN_SIDE <= n <= MAX_SIDE
                 for n in board), "board", _("[width, height], each {low}..{high}")
                     .format(low=MIN_SIDE, high=MAX_SIDE))
    rows = data.get("pieces")
    need(isinstance(rows, list) and len(rows) == len(ROLE_BY_NAME), "pieces",
         _("{count} rows [kind, letter, name, russian, english]").format(count=len(ROLE_BY_NAME)))
    kinds: dict[int, PieceKind] = {}
    for row in rows:
        need(isinstance(row, list) and len(row) == 5 and isinstance(row[0], int)
             and row[0] in ROLE_BY_NAME.values() and row[0] not in kinds
             and all(isinstance(x, str) for x in row[1:]) and len(row[1]) == 1
             and row[1].isascii() and row[1].isalpha() and row[1].isupper(),
             "pieces", _("one row per kind: [kind, one upper-case letter, name, russian, english]"))
        kinds[row[0]] = PieceKind(row[0], row[1], row[2], row[3], row[4])
    try:
        pieces = PieceSet(kinds)
    except ValueError as exc:
        raise VariantError(_("{where}: variant definition: key 'pieces': {reason}").format(
                           where=where, reason=_(str(exc))), file=where,
                           key="pieces") from None
    options = data.get("options")
    need(isinstance(options, dict), "options", _("a table of option = value"))
    die = data.get("die", {})
    need(isinstance(die, dict), "die", _("a table"))
    name = data["name"]
    variant = Variant(id=data["id"], name=name, description="", rules=data["rules"],
                      width=board[0], height=board[1], pieces=pieces, setup=data["setup"],
                      options=dict(options), die=dict(die), source=where)
    return variant.make_rules()
