"""Finding rule modules: the built-in ones and installed plugins.

A third-party package adds a module by declaring an entry point in the
``tavrei_lab.rules`` group (``name = "package.module:Class"``). Variant files
name modules only by these registered names, so loading a variant file can
never import or run arbitrary code.
"""

from __future__ import annotations

from importlib import metadata
from typing import TYPE_CHECKING, Any

from tavrei_lab.errors import VariantError
from tavrei_lab.i18n import gettext as _

if TYPE_CHECKING:
    from tavrei_lab.rules.base import RuleModule

ENTRY_POINT_GROUP = "tavrei_lab.rules"

_BUILTIN = {
    "tower-chess": "tavrei_lab.rules.stacking:TowerChessRules",
    "die": "tavrei_lab.rules.die:DieRules",
}
_registered: dict[str, Any] = {}


def register_rule_module(cls: Any, name: str | None = None) -> None:
    """Register a rule module class at run time (tests, notebooks, experiments)."""
    _registered[name or cls.name] = cls


def is_registered_at_run_time(name: str) -> bool:
    """Was ``name`` registered by ``register_rule_module`` (not built in, not a plugin)?
    Such a module exists only in this process: a worker not forked from it must be
    sent the class (see ``lab.shipping``)."""
    return name in _registered


def _load(target: str) -> Any:
    module_name, _, attr = target.partition(":")
    import importlib
    module = importlib.import_module(module_name)
    return getattr(module, attr)


def rule_modules() -> dict[str, str]:
    """Every known module name with where it comes from."""
    found: dict[str, str] = {}
    for name, target in _BUILTIN.items():
        found[name] = target
    eps = metadata.entry_points(group=ENTRY_POINT_GROUP)
    for ep in eps:
        found.setdefault(ep.name, ep.value)
    for name, cls in _registered.items():
        found[name] = f"{cls.__module__}:{cls.__qualname__}"
    return found


def rule_module(name: str, *, file: str = "") -> type[RuleModule]:
    """The rule module class registered under ``name``."""
    if name in _registered:
        return _registered[name]
    # A built-in name is answered without reading the installed packages' entry points:
    # ``rule_modules`` lets no plugin take a built-in's name, and reading every package's
    # metadata cost 20 ms a variant -- 7 % of the lab's eight-game benchmark.
    target = _BUILTIN.get(name) or rule_modules().get(name)
    if target is None:
        known = ", ".join(sorted(rule_modules()))
        raise VariantError(_("{file}: key 'rules': unknown rule module {name}; expected one "
                             "of: {known}").format(file=file or "<variant>", name=repr(name),
                                                   known=known), file=file, key="rules")
    try:
        return _load(target)
    except (ImportError, AttributeError) as exc:
        raise VariantError(_("{file}: rule module {name} ({target}) could not be loaded: "
                             "{reason}").format(file=file or "<variant>", name=repr(name),
                                                target=target, reason=exc),
                           file=file, key="rules") from exc
