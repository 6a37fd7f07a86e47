"""Run every benchmark: ``python -m benchmarks [name ...]`` (e.g. ``perft render``).

Each ``bench_<name>.py`` exposes ``main()``; it measures the things it
compares side by side in the same process and prints the ratios, because
absolute times on a shared 2-core machine mean little.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time
from pathlib import Path


def main(argv: list[str]) -> int:
    here = Path(__file__).parent
    names = sorted(m.name[len("bench_"):] for m in pkgutil.iter_modules([str(here)])
                   if m.name.startswith("bench_"))
    # a benchmark that takes hours (``LONG = True``) runs only when named
    chosen = argv or [n for n in names
                      if not getattr(importlib.import_module(f"benchmarks.bench_{n}"), "LONG",
                                     False)]
    if not argv and len(chosen) < len(names):
        print(f"(not run unless named: {', '.join(sorted(set(names) - set(chosen)))})")
    unknown = [n for n in chosen if n not in names]
    if unknown:
        print(f"unknown benchmark(s): {', '.join(unknown)}; known: {', '.join(names)}")
        return 2
    for name in chosen:
        print(f"== {name} " + "=" * (70 - len(name)))
        start = time.perf_counter()
        importlib.import_module(f"benchmarks.bench_{name}").main()
        print(f"   ({time.perf_counter() - start:.1f} s)\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
