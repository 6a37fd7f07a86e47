"""Side-by-side benchmarks: each compares within one run and prints ratios."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def on_pure_build(name: str, timeout: float = 1800) -> Any:
    """``benchmarks.<name>()`` (``"bench_perft.measure"``) run in a child process on the
    pure Python build (``TAVREI_PURE=1``), its result read back as JSON; None (said on
    stdout) if the child failed.

    Why a child: the compiled modules, once imported, cannot be swapped for their
    sources in the same process, and both builds must be timed in the same run, on the
    same positions, for their ratio to mean anything on a shared machine.
    """
    module, _, function = name.rpartition(".")
    package = f"benchmarks.{module}" if module else "benchmarks"
    env = {**os.environ, "TAVREI_PURE": "1"}
    code = (f"import importlib, json; print(json.dumps("
            f"getattr(importlib.import_module({package!r}), {function!r})()))")
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         cwd=ROOT, timeout=timeout)
    if run.returncode != 0:
        print(f"  (the pure build's run failed: {run.stderr.strip()[-300:]})")
        return None
    return json.loads(run.stdout.strip().splitlines()[-1])


def build_in_use() -> dict[str, Any]:
    """Which build this process runs (what ``on_pure_build("build_in_use")`` reports)."""
    import tavrei_lab
    from tavrei_lab import builds
    return {"compiled": tavrei_lab.compiled, "modules": list(builds.compiled_modules())}
