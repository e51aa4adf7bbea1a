"""The profiles' meta-schema check answers a valid schema from the engine in use (without
importing python-jsonschema) and an invalid one from python-jsonschema's best match: held
here to the plain path, python-jsonschema alone, on every real schema and on invalid ones."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mcplint.profiles.facts import _metaschema_best_error, first_metaschema_error

CORPUS = Path(__file__).resolve().parents[2] / "tests" / "data" / "corpus"
INVALID = [
    {"type": 5},
    {"type": "object", "properties": []},
    {"minLength": -1},
    {"type": "object", "properties": {"a": {"enum": "x"}}},
    {"anyOf": []},
    {"items": {"type": ["string", "strin"]}},
    {"$defs": {"x": {"required": [1]}}},
]


def _schemas():
    for path in sorted(CORPUS.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        tools = data.get("tools") if isinstance(data, dict) else None
        for tool in tools or []:
            for slot in ("inputSchema", "outputSchema"):
                if isinstance(tool.get(slot), dict):
                    yield tool[slot]


def test_the_shortcut_gives_the_plain_answer_on_real_schemas():
    schemas = list(_schemas())
    assert len(schemas) > 100
    for schema in schemas:
        assert first_metaschema_error(schema) == _metaschema_best_error(schema)


@pytest.mark.parametrize("schema", INVALID)
def test_the_shortcut_gives_the_plain_answer_on_invalid_schemas(schema):
    found = first_metaschema_error(schema)
    assert found is not None and found == _metaschema_best_error(schema)


@pytest.mark.slow
def test_a_run_with_the_default_profiles_does_not_import_python_jsonschema():
    """What the shortcut is for: a valid file under --profile default leaves python-jsonschema
    (and its referencing, attrs) unimported, once the profiles are compiled into the cache (the
    first run validates their YAML with python-jsonschema). The same run leaves OpenSSL unloaded
    (``_hashlib``: the profile cache's key is a zlib checksum, not a hashlib digest)."""
    example = Path(__file__).resolve().parents[2] / "examples" / "weather-server.tools.json"
    code = ("import sys; from mcplint.cli import main\n"
            "try: main(['scan', sys.argv[1], '--no-config', '--profile', 'default', '--format', 'json', '-o', sys.argv[2]])\n"
            "except SystemExit: pass\n"
            "print('jsonschema' in sys.modules, '_hashlib' in sys.modules)")
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        runs = [subprocess.run([sys.executable, "-c", code, str(example), str(Path(tmp) / "r.json")],
                               capture_output=True, text=True, timeout=120, cwd=tmp) for _ in range(2)]
    assert runs[1].stdout.strip().splitlines()[-1] == "False False", runs[1].stderr
