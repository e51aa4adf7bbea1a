"""The compiled store of the shipped profiles (mcplint.profiles.store): what it gives is what
parsing the YAML gives, and it is never read stale."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from mcplint.profiles import loader, store

from .common import ROOT


@pytest.fixture
def fresh(monkeypatch, tmp_path):
    """A private cache directory and a copy of the shipped profiles, with no in-process memo."""
    cache = tmp_path / "cache"
    builtin = tmp_path / "builtin"
    shutil.copytree(ROOT / "profiles", builtin)
    monkeypatch.setenv("MCPLINT_CACHE_DIR", str(cache))
    monkeypatch.setattr(loader, "_builtin_dir", lambda: builtin)
    forget()
    yield cache, builtin
    forget()


def forget():
    """What a new process starts with: no profile read yet."""
    loader._TABLE.clear()
    loader._CACHE.clear()
    loader._ALIAS_SETS.clear()


def everything() -> dict:
    return {n: loader.load_profile(n).as_dict() for n in loader.builtin_names()} | {"default": loader.default_set()}


@pytest.mark.slow
def test_the_store_gives_what_parsing_gives(fresh, monkeypatch):
    cache, _ = fresh
    monkeypatch.setenv("MCPLINT_CACHE_DIR", "off")
    parsed = everything()
    assert not cache.exists()
    forget()
    monkeypatch.setenv("MCPLINT_CACHE_DIR", str(cache))
    first = everything()  # builds the store
    assert len(list(cache.glob("profiles-*.json"))) == 1
    forget()
    monkeypatch.setattr(loader, "_read", lambda *a: pytest.fail("a shipped profile was parsed despite the store"))
    assert everything() == first == parsed


@pytest.mark.slow
def test_a_changed_shipped_profile_is_read_again_even_with_the_same_size_and_time(fresh):
    cache, builtin = fresh
    assert loader.load_profile("gemini").keywords["minimum"].action == "enforce"
    f = builtin / "gemini.yaml"
    st = f.stat()
    text = f.read_text(encoding="utf-8")
    assert "  minimum: {action: enforce," in text
    f.write_text(text.replace("  minimum: {action: enforce,", "  minimum: {action: reject ,"), encoding="utf-8")
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns))  # same size, same time: only the content tells
    assert f.stat().st_size == st.st_size
    forget()
    assert loader.load_profile("gemini").keywords["minimum"].action == "reject"
    # a child is rebuilt with its changed parent
    assert loader.load_profile("gemini-cli").keywords["minimum"].action == "reject"
    assert len(list(cache.glob("profiles-*.json"))) == 2


@pytest.mark.slow
def test_a_changed_profile_is_seen_in_the_same_process(fresh):
    _, builtin = fresh
    assert "drop-me" not in loader.load_profile("openai-strict").keywords
    f = builtin / "openai-strict.yaml"
    f.write_text(f.read_text(encoding="utf-8").replace("\nkeywords:\n", "\nkeywords:\n  drop-me: {action: drop}\n", 1),
                 encoding="utf-8")
    os.utime(f, ns=(f.stat().st_atime_ns, f.stat().st_mtime_ns + 10**9))
    assert loader.load_profile("openai-strict").keywords["drop-me"].action == "drop"
    assert loader.load_profile("openai-agents").keywords["drop-me"].action == "drop"  # extends openai-strict


def test_the_key_is_the_bytes_it_depends_on(fresh, tmp_path):
    _, builtin = fresh
    loader_copy = tmp_path / "loader.py"
    loader_copy.write_bytes(b"x = 1\n")
    key = store.fingerprint(builtin, (loader_copy,))
    assert key == store.fingerprint(builtin, (loader_copy,))  # the same bytes, the same key
    f = builtin / "gemini.yaml"
    data = f.read_bytes()
    for at in (0, len(data) // 2, len(data) - 1):  # one byte changed, the length kept
        f.write_bytes(data[:at] + bytes([data[at] ^ 1]) + data[at + 1:])
        assert store.fingerprint(builtin, (loader_copy,)) != key
    f.write_bytes(data)
    assert store.fingerprint(builtin, (loader_copy,)) == key
    loader_copy.write_bytes(b"x = 2\n")  # a file the loader depends on
    assert store.fingerprint(builtin, (loader_copy,)) != key
    assert store.fingerprint(builtin, (tmp_path / "missing.py",)) is None


def test_a_new_shipped_profile_changes_the_key(fresh):
    _, builtin = fresh
    key = store.fingerprint(builtin, ())
    shutil.copy(builtin / "gemini.yaml", builtin / "zz-copy.yaml")
    assert store.fingerprint(builtin, ()) != key


def test_an_invalid_shipped_profile_still_gives_its_located_error(fresh):
    _, builtin = fresh
    (builtin / "broken.yaml").write_text("id: broken\ntitle: 3\n", encoding="utf-8")
    with pytest.raises(loader.ConfigError) as e:
        loader.load_profile("broken")
    assert e.value.origin.endswith("broken.yaml") and e.value.line is not None
    forget()
    with pytest.raises(loader.ConfigError):  # and again from the store
        loader.load_profile("broken")
    assert "broken" not in loader.default_set()


@pytest.mark.slow
def test_a_damaged_cache_file_is_ignored_and_rebuilt(fresh):
    cache, _ = fresh
    want = loader.load_profile("anthropic-strict").as_dict()
    (f,) = cache.glob("profiles-*.json")
    for damage in ("{not json", json.dumps({"key": "other", "profiles": {}}), ""):
        f.write_text(damage, encoding="utf-8")
        forget()
        assert loader.load_profile("anthropic-strict").as_dict() == want
    assert json.loads(f.read_text(encoding="utf-8"))["profiles"]["anthropic-strict"]


def test_an_unwritable_cache_directory_only_costs_time(fresh, monkeypatch, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("MCPLINT_CACHE_DIR", str(blocker / "cache"))  # cannot be created
    assert loader.load_profile("gemini").name == "gemini"


def test_a_users_profile_extending_a_shipped_one_parses_only_the_users_file(fresh, tmp_path, monkeypatch):
    loader.load_profile("openai-strict")  # the store is built
    mine = tmp_path / "mine.yaml"
    mine.write_text("id: mine\ntitle: Mine\nkind: hosted\nextends: openai-strict\n"
                    "source: {url: 'https://example.com', seen: '2026-12-01', confidence: low}\n"
                    "keywords:\n  minimum: {action: drop}\n", encoding="utf-8")
    read = []
    real = loader._read
    monkeypatch.setattr(loader, "_read", lambda p: read.append(p.name) or real(p))
    prof = loader.load_profile(str(mine))
    assert read == ["mine.yaml"]
    assert prof.chain == ("openai-strict",) and prof.keywords["minimum"].action == "drop"
    assert prof.keywords["allOf"] == loader.load_profile("openai-strict").keywords["allOf"]


@pytest.mark.slow
def test_a_scan_with_the_strict_profiles_reads_no_yaml(tmp_path):
    """The second run of `--profile strict` neither imports the YAML parser nor jsonschema. (Of the
    `default` set, claude-code checks every schema against the draft 2020-12 meta-schema, as the
    Claude API does, which needs jsonschema.)"""
    f = tmp_path / "t.json"
    f.write_text('{"name": "a", "inputSchema": {"type": "object"}}')
    env = {**os.environ, "MCPLINT_CACHE_DIR": str(tmp_path / "cache")}
    run = [sys.executable, "-X", "importtime", "-m", "mcplint", "scan", "--no-config", "--profile", "strict", str(f)]
    first = subprocess.run(run, capture_output=True, text=True, env=env, cwd=tmp_path)
    second = subprocess.run(run, capture_output=True, text=True, env=env, cwd=tmp_path)
    assert first.stdout == second.stdout and "DEC" in second.stdout
    mods = {line.rsplit("|", 1)[-1].strip() for line in second.stderr.splitlines() if line.startswith("import time")}
    assert "yaml" in {line.rsplit("|", 1)[-1].strip() for line in first.stderr.splitlines()}
    assert "yaml" not in mods and "jsonschema" not in mods and "mcplint.profiles" in mods
