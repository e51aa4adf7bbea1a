"""What the probe's tests share: running ``mcplint probe`` on the test servers and reading
its JSON report."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from click.testing import CliRunner

from conftest import STDIO
from mcplint.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent


def probe(*args, server=(), url=None, select="PRB"):
    """Run ``mcplint probe``; by default with only the PRB rules, so that what the other
    rule families say about the test servers' tools does not blur what is tested here."""
    argv = ["probe", "--no-config", *(["--select", select] if select else []), *args]
    argv += ["--url", url] if url else ["--", sys.executable, STDIO, *server]
    return CliRunner().invoke(main, argv, catch_exceptions=False)


def findings(result) -> list[dict]:
    return json.loads(result.stdout)["findings"]


def rules(result) -> set[str]:
    return {f["rule"] for f in findings(result)}
