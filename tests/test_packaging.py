"""The built-in profiles ship in the wheel: `pip install .` into a clean venv, then run the
installed mcplint from outside the checkout. Slow (it builds and installs the package)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_pip_install_ships_profiles_and_profile_schema(tmp_path):
    if os.environ.get("MCPLINT_SKIP_SLOW"):
        pytest.skip("MCPLINT_SKIP_SLOW is set")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    bindir = venv / ("Scripts" if os.name == "nt" else "bin")
    py = bindir / "python"
    done = subprocess.run([str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(ROOT)],
                          capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        pytest.skip(f"could not install from the package index: {done.stderr[-400:]}")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    listing = subprocess.run([str(bindir / "mcplint"), "profiles"], cwd=elsewhere, capture_output=True, text=True,
                             env=env, timeout=120)
    assert listing.returncode == 0, listing.stderr
    for name in ("openai-strict", "openai-finetuned", "anthropic-strict", "gemini", "gemini-openapi", "llguidance",
                 "xgrammar", "outlines", "llama-cpp", "anthropic-api", "vscode-copilot", "gemini-cli", "openai-agents"):
        assert name in listing.stdout
    where = subprocess.run([str(py), "-c", "import mcplint.profiles.loader as p; print(p._builtin_dir())"], cwd=elsewhere,
                           capture_output=True, text=True, env=env, timeout=120)
    assert "site-packages" in where.stdout and str(ROOT) not in where.stdout, where.stdout
    schema = subprocess.run([str(py), "-c", "import mcplint.profiles as p; print(p.profile_schema()['title'])"],
                            cwd=elsewhere, capture_output=True, text=True, env=env, timeout=120)
    assert "profile" in schema.stdout
    example = ROOT / "examples" / "weather-server.tools.json"
    scan = subprocess.run([str(bindir / "mcplint"), "scan", str(example), "--profile", "strict", "--no-color"],
                          cwd=elsewhere, capture_output=True, text=True, env=env, timeout=120)
    assert scan.returncode == 1 and "DEC001" in scan.stdout and "Decoder profiles" in scan.stdout
