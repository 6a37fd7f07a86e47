"""The README's first command, `make lab`, really opens the tutorials in JupyterLab,
with Jupyter's news pop-up (which covers the board in class) switched off.

It runs as a newcomer runs it: in a fresh copy of the project's files (outside
this working tree, whose .venv it must not touch), so the copy sets up its own
.venv from scratch -- about a minute on a quiet 2-core machine, several when it
is loaded. The waits are therefore generous and polling: the test fails at
once if `make lab` exits, and otherwise only after LAB_DEADLINE.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: Seconds for a fresh `make lab` (venv, install, JupyterLab start) to answer.
LAB_DEADLINE = 1200
#: What is not the project's own: never copied (a fallback when git is absent).
NOT_COPIED = shutil.ignore_patterns(".git", ".venv", "build", "dist", "_site", "*.egg-info",
                                    "test-artifacts", "__pycache__", ".ipynb_checkpoints")


def fresh_copy(where: Path) -> Path:
    """The project's files (tracked, or new and not ignored) copied under ``where``."""
    copy = where / "tavrei_lab-copy"
    listed = None
    if (ROOT / ".git").exists() and shutil.which("git"):
        listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"],
                                cwd=ROOT, capture_output=True, check=True).stdout
    if not listed:
        shutil.copytree(ROOT, copy, symlinks=True, ignore=NOT_COPIED)
        return copy
    for name in listed.decode().split("\0"):
        source = ROOT / name
        if not name or not (source.exists() or source.is_symlink()):
            continue                                 # deleted but not yet committed
        target = copy / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target, follow_symlinks=False)
    return copy


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_make_lab_serves_the_quick_start(tmp_path: Path) -> None:
    if shutil.which("make") is None:
        pytest.fail("make is not installed: the README's two commands need it")
    project = fresh_copy(tmp_path)
    assert (project / "Makefile").exists() and not (project / ".venv").exists()
    port, token = free_port(), secrets.token_hex(16)
    env = dict(os.environ)
    for name in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR",
                 "JUPYTERLAB_SETTINGS_DIR", "JUPYTERLAB_WORKSPACES_DIR", "IPYTHONDIR"):
        env[name] = str(tmp_path / name.lower())
    args = (f"--no-browser --ServerApp.ip=127.0.0.1 --ServerApp.port={port} "
            f"--ServerApp.port_retries=0 --IdentityProvider.token={token}")
    log = tmp_path / "make-lab.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(["make", "-s", "lab", f"LAB_ARGS={args}"], cwd=project,
                                env=env, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)
    try:
        base = f"http://127.0.0.1:{port}"
        started = time.monotonic()
        while True:
            if proc.poll() is not None:
                out = log.read_text(errors="replace")
                pytest.fail(f"make lab exited with {proc.returncode}:\n{out[-3000:]}")
            try:
                with urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=10):
                    break
            except OSError:
                if time.monotonic() - started > LAB_DEADLINE:
                    out = log.read_text(errors="replace")
                    pytest.fail(f"make lab did not answer within {LAB_DEADLINE} s:\n"
                                f"{out[-3000:]}")
                time.sleep(1)
        assert (project / ".venv" / "bin" / "jupyter").exists()     # its own set-up
        # a file argument makes its folder, notebooks/, the root: every tutorial is listed
        url = f"{base}/api/contents/00_quick_start.ipynb?token={token}&content=0"
        with urllib.request.urlopen(url, timeout=60) as reply:
            info = json.load(reply)
        assert info["type"] == "notebook" and info["name"] == "00_quick_start.ipynb"
        with urllib.request.urlopen(f"{base}/api/contents?token={token}", timeout=60) as reply:
            listed = {item["name"] for item in json.load(reply)["content"]}
        assert {"01_meet_the_tavrels.ipynb", "classroom_demo.ipynb"} <= listed
        # Jupyter's news/update pop-up would cover the board: off by default here ...
        url = (f"{base}/lab/api/settings/@jupyterlab/apputils-extension:notification"
               f"?token={token}")
        with urllib.request.urlopen(url, timeout=60) as reply:
            schema = json.load(reply)["schema"]["properties"]
        assert schema["fetchNews"]["default"] == "false"
        assert schema["checkForUpdates"]["default"] is False
        # ... by a file in the environment, not in the user's own settings
        assert not any((tmp_path / "jupyterlab_settings_dir").rglob("*.json"))
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
