"""Fuzzing: generated schemas and mutated real servers' schemas through every entry point a
user has (``scan`` in every output format, ``project``, ``validate``) and through the probe's
handling of what a server sends. Whatever the input: no exception escapes, the exit code is
0, 1 or 2 (never 3, a bug), and every input error names its place (file:line:column).

The draw is the same on every run (tests/conftest.py); a longer exploring run draws new
inputs each time::

    MCPLINT_HYPOTHESIS=explore MCPLINT_FUZZ_EXAMPLES=2000 python -m pytest tests/test_fuzz.py -q

A counterexample it finds belongs in tests/test_reliability.py as an explicit case.
"""

from __future__ import annotations

import copy
import json
import os
import re
import tempfile
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcplint.cli import main
from schema_strategies import tool_schemas

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = int(os.environ.get("MCPLINT_FUZZ_EXAMPLES", "60"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])


def _seeds() -> list:
    """The tools of a dozen real servers' tools/list results (the smaller files, for speed)."""
    files = sorted((ROOT / "bench" / "servers").glob("*.json"), key=lambda p: (p.stat().st_size, p.name))
    tools = []
    for p in files[10:130:10]:
        data = json.loads(p.read_text(encoding="utf-8"))
        listed = data.get("tools") if isinstance(data, dict) else data
        tools += [t for t in listed or [] if isinstance(t, dict)][:4]
    return tools


SEEDS = _seeds()

# Text that JSON cannot hold as a value is planted as a marker string, then put in the text.
RAW = {"@@HUGE@@": "9" * 4400, "@@NAN@@": "NaN", "@@INF@@": "-Infinity", "@@BIGFLOAT@@": "1e400",
       "@@NEGZERO@@": "-0.0", "@@LONGINT@@": "12345678901234567890123456789"}
ODD_VALUES = st.sampled_from([
    "\ud800", "a\udfffb", True, False, None, 0, -1, 2**64, 1.5, "", [], {}, [True], {"$ref": "#"},
    {"$ref": "#/properties/~1a~0b"}, {"$ref": "#/$defs/missing"}, {"type": "strin"}, {"type": []},
    {"enum": []}, {"pattern": "(a+)+$"}, {"pattern": "["}, {"format": "date-time"}, {"$schema": "urn:nope"},
    {"items": False}, {"not": True}, {"properties": {"~/": True, "a/b": False, "~0": {}}},
    {"required": ["x", "x"]}, {"minimum": "1"}, {"$id": "http://x.example/s", "$anchor": "a"},
    {"$schema": "https://json-structure.org/meta/core/v0/#", "type": "int64"},
    *RAW.keys(),
])
ODD_KEYS = st.sampled_from(["~", "/", "~1", "a/b~c", "", "$ref", "type", "properties", "\ud800", "\u0000",
                            "items", "additionalProperties", "required", "$defs", "oneOf", "x-mcp-header"])


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*prefix, i))


def _set(value, path, new):
    if not path:
        return new
    parent = value
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = new
    return value


@st.composite
def mutated(draw, base):
    """``base`` (deep-copied) with a few values replaced or keys added anywhere."""
    value = json.loads(json.dumps(base))
    for _ in range(draw(st.integers(1, 4))):
        paths = list(_paths(value))
        path = draw(st.sampled_from(paths))
        if draw(st.booleans()):
            value = _set(value, path, copy.deepcopy(draw(ODD_VALUES)))  # (never the shared constant)
        else:
            parent = value
            for step in path:
                parent = parent[step]
            if isinstance(parent, dict):
                parent[draw(ODD_KEYS)] = copy.deepcopy(draw(ODD_VALUES))
            elif isinstance(parent, list):
                parent.append(copy.deepcopy(draw(ODD_VALUES)))
    return value


def _tool(schema) -> dict:
    return {"name": "t", "description": "A tool.", "inputSchema": schema}


documents = st.one_of(
    tool_schemas().map(_tool),
    tool_schemas().flatmap(lambda s: mutated(_tool(s))),
    st.sampled_from(SEEDS).flatmap(mutated),
    st.lists(st.sampled_from(SEEDS).flatmap(mutated), min_size=1, max_size=3).map(lambda ts: {"tools": ts}),
    st.sampled_from(SEEDS).flatmap(mutated).map(
        lambda t: {"jsonrpc": "2.0", "id": 1, "result": {"tools": [t]}}),
    st.sampled_from([True, False, [], {}, "text", 3]),  # not tool definitions at all
)


@st.composite
def files(draw):
    """(file name, text): JSON with raw literals planted, JSON with a duplicate key, or YAML."""
    value = draw(documents)
    text = json.dumps(value, ensure_ascii=draw(st.booleans()) or _has_surrogate(value),
                      indent=draw(st.sampled_from([None, 1])))
    for marker, raw in RAW.items():
        text = text.replace(json.dumps(marker), raw)
    kind = draw(st.sampled_from(["json", "json", "json", "dup", "yaml"]))
    if kind == "dup":
        text = re.sub(r'"name": ', '"name": "dup", "name": ', text, count=1)
    if kind == "yaml" and not any(m in json.dumps(value) for m in RAW) and not _has_surrogate(value):
        return "case.yaml", yaml.safe_dump(value, allow_unicode=True)
    return "case.json", text


def _has_surrogate(value) -> bool:
    return bool(re.search(r"\\ud[89a-f]", json.dumps(value)))


LOCATED = re.compile(r"^(?P<where>[^\n]*?):(?P<line>\d+):(?P<col>\d+): ")


def check(result, origin: str, allowed=(0, 1, 2)):
    """No exception escaped, the exit code is allowed, every input error about ``origin`` is located."""
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code in allowed, (result.exit_code, result.output[-2000:])
    assert "Traceback" not in result.output and "internal error" not in result.output, result.output[-2000:]
    for line in result.stderr.splitlines():
        if line.startswith(origin) and " error: " in line:
            assert LOCATED.match(line), line


def run(args):
    return CliRunner().invoke(main, args, catch_exceptions=True)


@pytest.fixture(scope="module")
def workdir():
    with tempfile.TemporaryDirectory() as d:
        yield Path(d)


@FUZZ
@given(case=files(), fmt=st.sampled_from(["text", "json", "sarif", "github", "markdown"]),
       profile=st.sampled_from([None, "openai-strict", "default"]))
@pytest.mark.slow
def test_scan_never_fails_unlocated(workdir, case, fmt, profile):
    name, text = case
    path = workdir / name
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    args = ["scan", "--no-config", "--format", fmt, str(path)] + (["--profile", profile] if profile else [])
    check(run(args), str(path))
    out = workdir / "report.out"
    check(run(args + ["-o", str(out)]), str(path))  # the same, saved to a file


@FUZZ
@given(case=files(), profile=st.sampled_from(["openai-strict", "gemini", "anthropic-strict"]))
def test_project_never_fails_unlocated(workdir, case, profile):
    name, text = case
    path = workdir / name
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    check(run(["project", "--profile", profile, str(path), "-o", str(workdir / "projected.json")]), str(path))
    check(run(["project", "--to", "json-schema", str(path)]), str(path))


@FUZZ
@given(case=files(), arguments=st.sampled_from(SEEDS + [{}, [], "x", {"a": "\ud800"}, {"q": 2**70}]).flatmap(
    lambda a: mutated(a) if isinstance(a, dict) and a else st.just(a)))
def test_validate_never_fails_unlocated(workdir, case, arguments):
    name, text = case
    path = workdir / name
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    args_path = workdir / "args.json"
    args_path.write_text(json.dumps(arguments), encoding="utf-8")
    check(run(["validate", str(path), "--tool", "t", "--arguments", str(args_path)]), str(path))


@FUZZ
@given(value=documents, id_=st.one_of(st.integers(), st.text(max_size=3), st.none(), st.booleans(),
                                      st.just({"a": 1}), st.just([1]), st.floats(allow_nan=True)))
def test_probe_message_handling(value, id_):
    """What a server sends, as the probe takes it: a line is a message or noise, a message's
    id can always be matched, and a captured listing lints (or is a located input error)."""
    from mcplint.collect import collect
    from mcplint.config import Config
    from mcplint.engine import lint_collection
    from mcplint.errors import McplintError
    from mcplint.probe.transcript import capture_document
    from mcplint.probe.wire import Reply, parse_message

    msg = {"jsonrpc": "2.0", "id": id_, "result": value if isinstance(value, dict) else {"tools": [value]}}
    line = json.dumps(msg)
    obj = parse_message(line)
    if obj is not None:
        {obj.get("id"): Reply(line, obj)}  # the probe keys late answers by id: it must be hashable
        Reply(line, obj).error  # noqa: B018 (reading it must not fail)
    transcript = {"transport": "stdio", "stdoutNoise": [], "stdoutNoiseCount": 0, "pages": [{"raw": line}],
                  "otherVersions": {"2025-06-18": ["t", {"x": 1}]}}
    try:
        doc = capture_document({"2025-11-25": transcript}, "<tools/list>")
    except McplintError as e:
        assert e.line is not None, str(e)
        return
    lint_collection(collect(doc, ("2025-11-25",)), Config())
