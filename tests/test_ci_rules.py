"""Under CI=true a browser test cannot pass by skipping (the rule in tests/conftest.py).

Each case runs pytest on the pixel tests in a child process with Chromium
pointed at a file that does not exist (``TAVREI_CHROMIUM``): on a developer's
machine they skip with the reason; under CI the same run fails.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run_pixel_tests(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k != "CI"}
    environment.update(env, TAVREI_CHROMIUM=str(tmp_path / "no-chromium"))
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:nbmake",
         "tests/test_render_pixels.py"],
        cwd=ROOT, env=environment, capture_output=True, text=True, timeout=300)


def test_without_chromium_browser_tests_skip_with_the_reason(tmp_path: Path) -> None:
    run = run_pixel_tests(tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "no-chromium is missing: run 'make browser'" in run.stdout
    assert " skipped" in run.stdout and "passed" not in run.stdout


@pytest.mark.parametrize("value", ["true", "1"])
def test_under_ci_a_missing_chromium_fails_the_run(tmp_path: Path, value: str) -> None:
    run = run_pixel_tests(tmp_path, CI=value)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "CI=true: this browser test may not skip" in run.stdout
    assert "skipped" not in run.stdout.splitlines()[-1]
