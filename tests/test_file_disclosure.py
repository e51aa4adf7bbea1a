"""A path in a configuration can name any file (``profiles: ["/etc/passwd"]``): an error about
a file that is not a profile, a configuration or a baseline says so, located, exit 2, without
quoting what the file holds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcplint.cli import main

EXAMPLE = str(Path(__file__).resolve().parents[1] / "examples" / "weather-server.tools.json")
SECRET = "s3cr3t-Zq9vX7-value"

# files that are not profiles, each holding the marker the error must not quote
NOT_PROFILES = {
    "passwd": "".join(f"user{i}:x:{i}:{i}:{SECRET}:/home/u{i}:/bin/sh\n" for i in range(40)),
    "dotenv": f"API_TOKEN={SECRET}\nOTHER=1\n",
    "list.yaml": f"- {SECRET}\n- two\n",
    "secrets.yaml": f"api_key: {SECRET}\ndatabase_url: postgres://u:{SECRET}@h/db\n",
    "number.yaml": "123456789\n",
    "latin1.txt": f"\xe9 {SECRET}\n".encode("latin-1"),
}


def write(path: Path, content) -> Path:
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    return path


@pytest.mark.parametrize("name", sorted(NOT_PROFILES))
def test_a_profile_path_naming_another_file_quotes_nothing(tmp_path, monkeypatch, name):
    target = write(tmp_path / name, NOT_PROFILES[name])
    for how in ("config", "option"):
        if how == "config":
            (tmp_path / ".mcplint.yaml").write_text(f"profiles: [{json.dumps(str(target))}]\n")
            args = ["scan", EXAMPLE]
        else:
            args = ["scan", "--no-config", "--profile", str(target), EXAMPLE]
        monkeypatch.chdir(tmp_path)
        r = CliRunner().invoke(main, args, catch_exceptions=False)
        assert r.exit_code == 2, r.output
        assert SECRET not in r.output and "user3" not in r.output
        assert f"{target}:1:1: config error: not a profile: " in r.output, r.output


def test_a_profile_that_is_one_still_gets_the_schema_words(tmp_path):
    # the near miss: a file with a profile's keys is a profile with a mistake, told in the schema's words
    prof = write(tmp_path / "p.yaml", "id: mine\ntitle: Mine\nkind: [decoder]\n")
    r = CliRunner().invoke(main, ["scan", "--no-config", "--profile", str(prof), EXAMPLE], catch_exceptions=False)
    assert r.exit_code == 2
    assert f"{prof}:1:1: config error: invalid profile at /: 'source' is a required property" in r.output, r.output
    assert "not a profile" not in r.output


def test_a_long_value_in_a_profile_error_is_clipped(tmp_path):
    prof = write(tmp_path / "p.yaml", f"id: '{'x' * 3000}'\ntitle: t\nkind: decoder\nsource: {{}}\n")
    r = CliRunner().invoke(main, ["scan", "--no-config", "--profile", str(prof), EXAMPLE], catch_exceptions=False)
    assert r.exit_code == 2 and "invalid profile at /id" in r.output
    assert "x" * 300 not in r.output


def test_a_config_file_that_is_not_utf8_is_located_not_a_crash(tmp_path):
    cfg = write(tmp_path / "c.yaml", b"profiles: [default]\n# caf\xe9 " + SECRET.encode() + b"\n")
    r = CliRunner().invoke(main, ["scan", "--config", str(cfg), EXAMPLE], catch_exceptions=False)
    assert r.exit_code == 2, r.output
    assert f"{cfg}:2:6: config error: the config file is not UTF-8 text" in r.output
    assert SECRET not in r.output


@pytest.mark.parametrize("name", ["passwd", "secrets.yaml", "dotenv"])
def test_a_baseline_path_naming_another_file_quotes_nothing(tmp_path, name):
    target = write(tmp_path / name, NOT_PROFILES[name])
    r = CliRunner().invoke(main, ["scan", "--no-config", "--baseline", str(target), EXAMPLE],
                           catch_exceptions=False)
    assert r.exit_code == 2 and f"{target}:" in r.output
    assert SECRET not in r.output
