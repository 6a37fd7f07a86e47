"""The cells of a sweep: a base variant with one choice of rule options each.

``grid={"splits": [True, False], "castling": [True, False]}`` over the base
``tavreli`` makes four cells, every combination, each the base variant with
those options set -- the variant a teacher would otherwise write as a file.
Every cell is built and checked *before* any game is played: an unknown
option, or a value the option does not accept, is an error naming the
option, the value and the base, and nothing runs.

A base is a variant id or a variant file; several bases can be swept with
the same grid, and a grid may be empty (then each base is one cell: the way
to compare variant files as they are).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tavrei_lab.errors import LimitError, VariantError
from tavrei_lab.i18n import gettext as _
from tavrei_lab.lab.shipping import VariantParcel
from tavrei_lab.rules.base import RuleModule
from tavrei_lab.variant import load_variant


def _text(value: Any) -> str:
    """An option value as the command line writes it (``true``, ``3``, ``destiny``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@dataclass(frozen=True)
class Cell:
    """One variant of a sweep: ``base`` with ``options`` set."""

    base: str
    options: tuple[tuple[str, Any], ...] = ()
    rules: RuleModule | None = field(default=None, compare=False, repr=False)

    @property
    def name(self) -> str:
        """``tavreli[splits=false,castling=true]``, or just ``tavreli`` with no options.

        >>> Cell("tavreli", (("splits", False),)).name
        'tavreli[splits=false]'
        """
        if not self.options:
            return self.base
        return f"{self.base}[{','.join(f'{k}={_text(v)}' for k, v in self.options)}]"

    @property
    def option_dict(self) -> dict[str, Any]:
        return dict(self.options)

    def parcel(self, executor: Any = None) -> VariantParcel:
        """The cell's variant packed for ``executor``'s workers (``lab.shipping``)."""
        rules = (self.rules if self.rules is not None
                 else load_variant(self.base, **dict(self.options)))
        return VariantParcel.of(rules, executor)

    def __str__(self) -> str:
        return self.name


def parse_value(option: Any, text: str) -> Any:
    """A command-line value (``true``, ``3``, ``queen``) as the option's type.

    >>> from tavrei_lab.rules.base import Option
    >>> parse_value(Option("splits", bool, True, ""), "False")
    False
    """
    t = text.strip()
    if option.type is bool:
        low = t.lower()
        if low in ("true", "yes", "on", "1"):
            return True
        if low in ("false", "no", "off", "0"):
            return False
        return t            # left as text: the check says "expected true or false"
    if option.type is int:
        try:
            return int(t)
        except ValueError:
            return t
    if option.type is float:
        try:
            return float(t)
        except ValueError:
            return t
    return t


def parse_grid_args(items: Sequence[str]) -> dict[str, list[str]]:
    """``["splits=true,false", "castling=false"]`` -> ``{"splits": ["true", "false"], ...}``
    (values stay text until the base says which type each option has)."""
    grid: dict[str, list[str]] = {}
    for item in items:
        name, eq, values = item.partition("=")
        name = name.strip()
        if not eq or not name or not values.strip():
            raise VariantError(_("--grid {item!r}: expected OPTION=VALUE1,VALUE2,...")
                                   .format(item=item))
        if name in grid:
            raise VariantError(_("--grid {item!r}: option {name!r} is given twice")
                                   .format(item=item, name=name))
        grid[name] = [v.strip() for v in values.split(",") if v.strip()]
    return grid


#: The most cells a sweep may have (bases x every combination of the grid's values).
#: A built cell holds its rule module and parcel, about 0.5 MB: 256 cells are
#: about 128 MB; 15 two-valued options (49,152 cells) took 3 GB before failing.
MAX_SWEEP_CELLS = 256


def count_cells(base: str | Sequence[str], grid: Mapping[str, Sequence[Any]] | None = None,
                ) -> int:
    """How many cells ``build_cells`` would build, counted without building any;
    ``LimitError`` past ``MAX_SWEEP_CELLS``."""
    bases = 1 if isinstance(base, str) else len(base)
    count = bases
    sizes = [(name, len(v) if isinstance(v, Sequence) else 1) for name, v in (grid or {}).items()]
    for _name, size in sizes:
        count *= size
    if count > MAX_SWEEP_CELLS:
        raise LimitError(_("sweep grid: {count} cells ({bases} bases x {sizes}); the limit is "
                           "{limit}").format(count=count, bases=bases, limit=MAX_SWEEP_CELLS,
                                             sizes=" x ".join(f"{size} {name}"
                                                              for name, size in sizes)))
    return count


def _declared(rules: RuleModule) -> dict[str, Any]:
    return {o.name: o for o in type(rules).OPTIONS}


def build_cells(base: str | Sequence[str], grid: Mapping[str, Sequence[Any]] | None = None,
                ) -> list[Cell]:
    """Every cell of the sweep, each built and validated (``VariantError`` otherwise).

    Values may be given as text (from the command line): they are read as the
    option's type first.

    >>> [c.name for c in build_cells("tavreli", {"splits": [True, False]})]
    ['tavreli[splits=true]', 'tavreli[splits=false]']
    """
    bases = [base] if isinstance(base, str) else list(base)
    if not bases:
        raise VariantError(_("a sweep needs at least one base variant"))
    grid = dict(grid or {})
    for name, values in grid.items():
        if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
            raise VariantError(_("sweep grid: option {name!r}: expected a list of values, got "
                                 "{values!r}").format(name=name, values=values))
        if not values:
            raise VariantError(_("sweep grid: option {name!r} has no values").format(name=name))
    count_cells(bases, grid)         # refused before one is built (0.5 MB each)
    cells: list[Cell] = []
    for b in bases:
        base_rules = load_variant(b)
        declared = _declared(base_rules)
        typed: dict[str, list[Any]] = {}
        for name, values in grid.items():
            option = declared.get(name)
            if option is None:
                raise VariantError(
                    _("sweep grid: unknown option {name!r} for base {b!r} (rule module "
                      "{rules!r}); known options: {names}")
                        .format(name=name, b=b, rules=base_rules.variant.rules,
                                names=", ".join(sorted(declared))), file=b, key=f"options.{name}")
            typed[name] = []
            for value in values:
                v = parse_value(option, value) if isinstance(value, str) else value
                problem = option.check(v)
                if problem:
                    raise VariantError(_("sweep grid: option {name!r} of base {b!r}: value "
                                         "{value!r}: {problem}")
                                           .format(name=name, b=b, value=value,
                                                   problem=problem), file=b, key=f"options.{name}")
                if v in typed[name]:
                    raise VariantError(_("sweep grid: option {name!r}: value {value!r} is given "
                                         "twice")
                                             .format(name=name,
                                                     value=value), file=b, key=f"options.{name}")
                typed[name].append(v)
        names = list(typed)
        for combo in itertools.product(*(typed[n] for n in names)):
            options = tuple(zip(names, combo))
            try:
                rules = load_variant(b, **dict(options)) if options else base_rules
            except VariantError as exc:
                raise VariantError(_("sweep cell {name}: {exc}")
                                       .format(name=Cell(b, options).name, exc=exc),
                                   file=b) from exc
            cells.append(Cell(b, options, rules))
    names_seen: set[str] = set()
    for c in cells:
        if c.name in names_seen:
            raise VariantError(_("sweep: cell {name} appears twice (a base given twice?)")
                                   .format(name=c.name))
        names_seen.add(c.name)
    return cells


__all__ = ["MAX_SWEEP_CELLS", "Cell", "build_cells", "count_cells", "parse_grid_args",
           "parse_value"]
