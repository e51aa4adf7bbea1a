"""The shipped profiles, read once: every built-in profile file parsed, validated and its
``extends`` resolved on first use, and the result kept as one JSON file in the user's cache
directory, so later runs read one small file instead of parsing and validating thirteen
YAML files against the profile schema.

What is kept is the loader's own intermediate form (per built-in profile: the merged data
with every entry's source filled in, and the chain of profiles it extends), not model
objects: the :class:`~.model.Profile` is still built by :func:`.loader._build` on every
load, so a change to the model or to how an entry becomes a :class:`~.model.Rule` needs
no cache change. A user's own profile file (given by path) is never cached here.

The cache is keyed by a fingerprint of everything the kept form depends on: the bytes of
every ``*.yaml`` of the built-in directory, the profile schema, the loader's source and
the format version below. Change any of them (edit a shipped profile, add one, install
another mcplint) and the key changes, so a stale entry is never read; an entry whose
content does not parse is ignored and rebuilt. The contract for the loader: whatever
:func:`.loader._resolve` reads besides those files must be added to the fingerprint.

Where: ``$MCPLINT_CACHE_DIR``, else ``$XDG_CACHE_HOME/mcplint``, else ``~/.cache/mcplint``;
``MCPLINT_CACHE_DIR=off`` (or an unwritable directory) turns the cache off, and the
profiles are then read from YAML on every run, as before.
"""

from __future__ import annotations

import json
import os
import zlib
from pathlib import Path

FORMAT = 1  # bump when the kept form changes
_KEEP = 8  # cache files older than the newest few are removed when a new one is written


def cache_dir() -> Path | None:
    """The directory the cache lives in, or None when it is turned off."""
    env = os.environ.get("MCPLINT_CACHE_DIR")
    if env is not None:
        return None if env.strip().lower() in ("", "off", "0", "no") else Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg:
        return Path(xdg) / "mcplint"
    home = os.path.expanduser("~")
    return None if home == "~" else Path(home) / ".cache" / "mcplint"


def fingerprint(builtin: Path, depends_on: tuple) -> str | None:
    """A key for the built-in directory's profiles as the loader reads them (None: cannot tell):
    the CRC-32 and the Adler-32 of every byte the kept form depends on (each file's name and
    length among them), and their count. A checksum, not a cryptographic digest: it tells whether
    any of those bytes changed since the cache was made, which is all a key must do here (whoever
    can write the cache can write anything in it). ``zlib`` is in every run already (the
    standard library's ``shutil`` loads it), where ``hashlib`` would load OpenSSL for this alone:
    3.5 MB more memory in every process of a scan with profiles."""
    crc, adler, size = 0, 1, 0

    def add(data: bytes) -> None:
        nonlocal crc, adler, size
        crc, adler, size = zlib.crc32(data, crc), zlib.adler32(data, adler), size + len(data)

    add(f"mcplint-profiles {FORMAT}\0{builtin}\0".encode())
    try:
        for p in sorted(builtin.glob("*.yaml")):
            data = p.read_bytes()
            add(f"{p.name}\0{len(data)}\0".encode())
            add(data)
        for p in depends_on:
            data = Path(p).read_bytes()
            add(f"\0{len(data)}\0".encode())
            add(data)
    except OSError:
        return None
    return f"{crc:08x}{adler:08x}{size:x}"


def read(key: str) -> dict | None:
    """The kept table for ``key`` ({name: [data, chain] or None}), or None if there is none."""
    d = cache_dir()
    if d is None:
        return None
    try:
        table = json.loads((d / f"profiles-{key}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(table, dict) or table.get("key") != key or not isinstance(table.get("profiles"), dict):
        return None
    return table["profiles"]


def write(key: str, profiles: dict) -> None:
    """Keep ``profiles`` under ``key`` (atomically; any failure leaves the cache as it was)."""
    d = cache_dir()
    if d is None:
        return
    target = d / f"profiles-{key}.json"
    from ..atomicio import write_atomic

    try:
        d.mkdir(parents=True, exist_ok=True)
        write_atomic(target, json.dumps({"key": key, "profiles": profiles}, separators=(",", ":")))
        old = sorted(d.glob("profiles-*.json"), key=lambda p: p.stat().st_mtime_ns, reverse=True)[_KEEP:]
        for p in old:
            p.unlink()
    except OSError:
        pass
