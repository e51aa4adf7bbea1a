"""Fixtures of the action's tests."""

from __future__ import annotations

import pytest

from conftest import fake_action_runner

from .common import BAD, CONFIG, GOOD


@pytest.fixture
def runner(tmp_path, monkeypatch):
    """A fake runner: a workspace with a bad and a good tools file, GitHub's files, and a
    function that runs ``mcplint.action`` with some inputs."""
    ws = tmp_path / "ws"
    (ws / "mcp").mkdir(parents=True)
    (ws / "mcp" / "bad.tools.json").write_text(BAD)
    (ws / "mcp" / "good.tools.json").write_text(GOOD)
    (ws / ".mcplint.yaml").write_text(CONFIG)
    monkeypatch.chdir(ws)
    run, files = fake_action_runner(tmp_path, monkeypatch)
    return run, files, ws
