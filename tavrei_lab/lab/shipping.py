"""Getting a variant to a worker that was not forked from this process.

A forked worker inherits everything: the variant files read, the rule
modules registered at run time. A worker started fresh (``spawn``,
``forkserver``, a dask worker on this or another machine) inherits nothing:
a variant file may not exist there, and a rule module registered in a
notebook (``register_rule_module``) is unknown there. So a game is sent
with a ``VariantParcel``: the resolved ``Variant`` itself (data: no file is
read on the worker) and, for a module registered at run time, the module's
class (pickled by reference by ``pickle``, by value by dask's cloudpickle for
a class defined in a notebook or a function).

``probe`` asks the executor to unpack every parcel once *before the first
game*: a parcel that cannot travel (a class the pickler cannot carry) or
cannot be built on the worker fails there, and the run stops with an error
saying which variant and why, instead of failing game after game.
"""

from __future__ import annotations

import hashlib
import json
import os
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

from tavrei_lab.errors import TavreiError
from tavrei_lab.i18n import gettext as _
from tavrei_lab.rules.base import RuleModule

#: Rule modules built on this worker, by parcel key (a worker plays many games).
_BUILT: dict[tuple[str, str, str, str], Any] = {}


def variant_fingerprint(rules: RuleModule) -> str:
    """A short hash of everything that decides how a variant plays.

    Two variants with the same fingerprint play identically: same rule module,
    board, set-up, pieces, resolved options and die. Stores use it so that
    results of a changed variant file are never mixed with the old ones.
    """
    v = rules.variant
    data = {"rules": v.rules, "width": v.width, "height": v.height, "setup": v.setup,
            "pieces": [(k.kind, k.letter) for k in v.pieces],
            "options": dict(sorted(rules.options.items())), "die": v.die}
    text = json.dumps(data, sort_keys=True, default=str)
    return hashlib.blake2b(text.encode("utf-8"), digest_size=8).hexdigest()


@dataclass(frozen=True)
class VariantParcel:
    """A variant packed to travel to a worker: its data, and its module if need be."""

    key: str                       # the variant's fingerprint (how it plays)
    variant: Any                   # the resolved ``Variant`` (options included)
    module: Any = None             # the rule module class, if registered at run time
    run_time_module: bool = False  # registered at run time (sent or not)

    @classmethod
    def of(cls, rules: RuleModule, executor: Any = None) -> VariantParcel:
        """Pack a built rule module's variant for ``executor``'s workers.

        A module registered at run time goes along when the executor's pickler can
        carry it: dask's cloudpickle carries any class, the standard pickle only one
        importable by name. A class it cannot carry stays behind: forked workers
        have it already, and the others fail ``probe`` with a message saying why.
        """
        from tavrei_lab.rules.registry import is_registered_at_run_time
        run_time = is_registered_at_run_time(rules.variant.rules)
        module = type(rules) if run_time else None
        if module is not None and not _carries(executor, module):
            module = None
        return cls(variant_fingerprint(rules), rules.variant, module, run_time)

    @property
    def cache_key(self) -> tuple[str, str, str, str]:
        """Two variants may play alike (same fingerprint) yet differ in name and source,
        which their records show: the worker's cache tells them apart."""
        cls = self.module
        module = "" if cls is None else f"{cls.__module__}.{cls.__qualname__}"
        return (self.key, self.variant.id, self.variant.source, module)

    def build(self) -> Any:
        """The rule module, built once per worker process."""
        rules = _BUILT.get(self.cache_key)
        if rules is None:
            if self.module is not None:
                from tavrei_lab.rules.registry import register_rule_module
                register_rule_module(self.module, self.variant.rules)
            rules = self.variant.make_rules()
            _BUILT[self.cache_key] = rules
        return rules


def _carries(executor: Any, cls: Any) -> bool:
    """Can ``executor`` send the class ``cls`` to its workers?"""
    if executor is None or type(executor).__module__.split(".")[0] == "distributed":
        return True                 # dask pickles with cloudpickle: classes by value
    import pickle
    try:
        pickle.dumps(cls)
    except (pickle.PicklingError, AttributeError, TypeError):
        return False
    return True


def _unpack(parcel: VariantParcel) -> str:
    """Run on a worker: build the variant and return its fingerprint."""
    return variant_fingerprint(parcel.build())


def probe(executor: Executor, parcels: dict[str, VariantParcel]) -> None:
    """Build every variant once on the executor's workers; raise naming any that fail.

    ``parcels`` maps a name the user knows (a variant id, a sweep cell) to its
    parcel. Raises ``TavreiError`` before any game has been played.
    """
    for name, parcel in parcels.items():
        try:
            got = executor.submit(_unpack, parcel).result()
        except Exception as exc:    # pickling errors, missing imports on the worker, ...
            what = (_("the workers cannot build this variant") if isinstance(exc, TavreiError)
                    else _("the variant cannot reach the workers"))
            hint = ""
            if parcel.run_time_module:   # said first: messages are cut at 300 characters
                hint = _(" (rule module {rules!r} was registered at run time; workers not "
                         "forked from this process need its class importable by name, or "
                         "dask, whose cloudpickle carries it)").format(
                    rules=parcel.variant.rules)
            raise TavreiError(_("{name}: {what}{hint}: {error}: {reason}").format(
                name=os.path.basename(name), what=what, hint=hint,
                error=type(exc).__name__, reason=exc)) from exc
        if got != parcel.key:
            raise TavreiError(_("{name}: the workers built a different variant (fingerprint "
                                "{got}, expected {key}): is the same tavrei_lab version "
                                "installed on every worker?")
                                  .format(name=name, got=got, key=parcel.key))


__all__ = ["VariantParcel", "probe", "variant_fingerprint"]
