"""Inputs that used to crash, hang or exhaust mcplint (found by fuzzing): each now ends in a
finding or a located input error (exit 2), and one bad file never costs the others' findings."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import signal
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcplint.cli import main
from mcplint.errors import InputError
from mcplint.load import expand_paths, load_text, read_source

ROOT = Path(__file__).resolve().parent.parent
BAD_TYPE = '{"name": "x", "inputSchema": {"type": "object", "properties": {"a": {"type": "strin"}}}}'
FORMATS = ["text", "json", "sarif", "github", "markdown"]


def run(args, input=None):
    return CliRunner().invoke(main, args, input=input, catch_exceptions=False)


def located(text: str, origin: str) -> tuple[int, int]:
    with pytest.raises(InputError) as e:
        load_text(text, origin, "yaml" if origin.endswith(".yaml") else "json")
    assert e.value.line is not None and e.value.col is not None, str(e.value)
    return e.value.line, e.value.col


# ------------------------------------------------------------------ lone surrogates


def test_lone_surrogate_in_a_key_is_a_located_input_error():
    text = '{"tools": [{"name": "t",\n  "inputSchema": {"\\ud800": 1}}]}'
    with pytest.raises(InputError) as e:
        load_text(text, "s.json")
    assert (e.value.line, e.value.col) == (2, 19) and "lone surrogate (\\ud800)" in e.value.message


def test_lone_surrogate_in_a_value_and_in_yaml():
    assert located('{"name": "\\udfff", "inputSchema": {"type": "object"}}', "s.json") == (1, 2)
    assert located('name: t\ndescription: "ok \\ud801"\ninputSchema: {type: object}\n', "s.yaml") == (2, 20)  # PyYAML refuses it


def test_a_surrogate_pair_and_an_escaped_backslash_are_fine():
    doc = load_text('{"name": "\\ud83d\\ude00", "description": "\\\\ud800", "inputSchema": {"type": "object"}}')
    assert doc.data["name"] == "\U0001f600" and doc.data["description"] == "\\ud800"


@pytest.mark.parametrize("fmt", FORMATS)
def test_one_file_with_a_lone_surrogate_loses_no_other_findings(tmp_path, fmt):
    (tmp_path / "a.json").write_text('{"tools":[{"name":"t","inputSchema":{"\\ud800":1}}]}')
    (tmp_path / "b.json").write_text('{"tools":[{"name":"\\udfff","inputSchema":{"type":"object"}}]}')
    (tmp_path / "c.json").write_text(BAD_TYPE)
    out = tmp_path / "report.out"
    r = run(["scan", "--no-config", "--format", fmt, "-o", str(out), str(tmp_path / "a.json"),
             str(tmp_path / "b.json"), str(tmp_path / "c.json")])
    assert r.exit_code == 2, r.output
    assert "a.json:1:38: input error: a key holds a lone surrogate" in r.output
    assert "b.json:1:12: input error: a string holds a lone surrogate" in r.output
    assert "SCH101" in out.read_text(encoding="utf-8")


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_undecodable_file_name_is_reported_in_every_format(tmp_path, fmt):
    if sys.platform == "win32" or os.fsencode("\udcff") != b"\xff":
        pytest.skip("file names are not bytes here")
    (tmp_path / "bad\udcff.json").write_text(BAD_TYPE)
    r = subprocess.run([sys.executable, "-m", "mcplint", "scan", "--no-config", "--format", fmt, "."],
                       cwd=tmp_path, capture_output=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert r.returncode == 1, r.stderr
    assert b"bad\\udcff.json" in r.stdout or b"bad%FF.json" in r.stdout


def test_parallel_scan_keeps_every_finding_when_one_file_is_bad(tmp_path):
    for i in range(12):
        (tmp_path / f"f{i:02}.json").write_text(BAD_TYPE)
    (tmp_path / "f05.json").write_text('{"tools":[{"name":"t","inputSchema":{"\\ud800":1}}]}')
    r = subprocess.run([sys.executable, "-m", "mcplint", "scan", "--no-config", "--format", "json", "-j", "2", "."],
                       cwd=tmp_path, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "f05.json:1:38: input error" in r.stderr
    assert len({f["file"] for f in json.loads(r.stdout)["findings"]}) == 11


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_bug_on_one_file_is_that_files_internal_error_and_the_others_are_reported(tmp_path, monkeypatch, jobs):
    import mcplint.engine as engine
    from mcplint.pipeline import exit_code
    from mcplint.config import Config

    real = engine.lint_document

    def broken(doc, config, *args, **kwargs):
        if doc.source.origin.endswith("f03.json"):
            raise KeyError("boom")
        return real(doc, config, *args, **kwargs)

    monkeypatch.setattr(engine, "lint_document", broken)  # forked workers inherit it
    files = []
    for i in range(6):
        (tmp_path / f"f{i:02}.json").write_text(BAD_TYPE)
        files.append(str(tmp_path / f"f{i:02}.json"))
    result = engine.lint_paths(files, Config(), jobs=jobs)
    assert len({f.origin for f in result.findings}) == 5
    assert [e.exit_code for e in result.errors] == [3] and "KeyError" in str(result.errors[0])
    assert exit_code(result, Config()) == 3


# ------------------------------------------------------------------ YAML and JSON numbers, aliases


def test_huge_integers_are_located_errors():
    assert located("name: t\ninputSchema: {type: object, maximum: " + "9" * 5000 + "}\n", "n.yaml") == (2, 38)
    text = '{"name": "t", "description": "' + "1" * 5000 + '",\n "inputSchema": {"maximum": ' + "9" * 4301 + "}}"
    assert located(text, "n.json") == (2, 29)


def test_a_number_of_4300_digits_is_still_read():
    doc = load_text('{"name": "t", "inputSchema": {"type": "object", "maximum": ' + "9" * 4300 + "}}")
    assert len(str(doc.data["inputSchema"]["maximum"])) == 4300


@pytest.mark.parametrize("text,where", [
    ("a: &a [*a]\n", (1, 4)),
    ("name: t\ninputSchema:\n  type: object\n  properties: &p\n    a: {properties: *p}\n", (5, 8)),
    ("name: t\ninputSchema: &s\n  type: object\n  <<: *s\n", (2, 14)),
])
def test_recursive_alias_is_a_located_error(text, where):
    t = time.process_time()
    with pytest.raises(InputError) as e:
        load_text(text, "r.yaml", "yaml")
    assert (e.value.line, e.value.col) == where and "refers back to it" in e.value.message
    assert time.process_time() - t < 1


def laughs(levels: int, width: int = 9) -> str:
    lines = ["x0: &x0 [" + ", ".join(["lol"] * width) + "]"]
    lines += [f"x{i}: &x{i} [" + ", ".join([f"*x{i - 1}"] * width) + "]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


def test_alias_bomb_is_refused_before_it_is_built():
    import resource

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t = time.process_time()
    with pytest.raises(InputError) as e:
        load_text(laughs(16), "b.yaml", "yaml")
    assert time.process_time() - t < 1
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 50 * 1024  # KiB
    # x5 (line 6) is where the values the aliases repeat first pass 100,000
    assert (e.value.line, e.value.col) == (6, 5) and "repeat more than 100,000 values" in e.value.message


def test_aliases_within_the_budget_are_expanded():
    doc = load_text("name: t\ninputSchema: {type: object, properties: {a: &s {type: string}, b: *s}}\n", "a.yaml", "yaml")
    assert doc.data["inputSchema"]["properties"]["b"] == {"type": "string"}
    assert load_text(laughs(5), "b.yaml", "yaml").data["x4"][8][8][8][8] == ["lol"] * 9


def test_nul_in_yaml_is_located_by_line_and_column():
    with pytest.raises(InputError) as e:
        load_text('name: t\ndescription: "é€"\ninputSchema: {type: object, x: a\x00}\n', "n.yaml", "yaml")
    assert (e.value.line, e.value.col) == (3, 33) and "U+0000" in e.value.message


# ------------------------------------------------------------------ files that are not regular files


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_fifo_is_refused_not_read(tmp_path):
    (tmp_path / "pipe.json").unlink(missing_ok=True)
    os.mkfifo(tmp_path / "pipe.json")
    (tmp_path / "ok.json").write_text(BAD_TYPE)
    proc = subprocess.run([sys.executable, "-m", "mcplint", "scan", "--no-config", str(tmp_path)],
                          capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 2 and "SCH101" in proc.stdout
    assert "pipe.json: input error: not a regular file (a named pipe)" in proc.stderr
    with pytest.raises(InputError, match="a named pipe"):
        read_source(str(tmp_path / "pipe.json"), 1000)


def test_a_device_is_refused():
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    with pytest.raises(InputError, match="a character device"):
        read_source("/dev/zero", 1000)


def test_a_directory_that_cannot_be_listed_is_reported(tmp_path, monkeypatch):
    (tmp_path / "sub").mkdir()
    (tmp_path / "ok.json").write_text(BAD_TYPE)
    real = os.scandir

    def scandir(path="."):
        if os.fspath(path).endswith("sub") or os.fspath(path) == str(tmp_path / "locked"):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)  # (as root, permission bits would not stop it)
    errors: list = []
    assert expand_paths([str(tmp_path)], errors=errors) == [str(tmp_path / "ok.json")]
    assert [str(e) for e in errors] == [f"{tmp_path / 'sub'}: input error: cannot read directory: Permission denied"]
    (tmp_path / "locked").mkdir()
    with pytest.raises(InputError, match="cannot read directory: Permission denied"):
        expand_paths([str(tmp_path / "locked")])


# ------------------------------------------------------------------ sizes that used to be quadratic


def minified_tools(n: int, bad: bool = True) -> str:
    tools = [{"name": f"tool_{i}", "description": "Look up a record.", "inputSchema": {
        "type": "object", "properties": {"id": {"type": "strin" if bad else "string"}}}} for i in range(n)]
    return json.dumps({"tools": tools}, separators=(",", ":"))


def test_text_report_on_a_minified_file_is_linear(tmp_path):
    from mcplint.config import Config
    from mcplint.engine import lint_paths
    from mcplint.report import Options, render

    sizes = {}
    for n in (500, 2000):
        (tmp_path / f"m{n}.json").write_text(minified_tools(n))
        result = lint_paths([str(tmp_path / f"m{n}.json")], Config())
        text = render("text", result, Options())
        assert text.count("SCH101") == n
        sizes[n] = len(text)
        assert max(len(line) for line in text.split("\n")) < 400  # no line padded out to the column
    assert sizes[2000] < 4.5 * sizes[500]  # 4x the tools, about 4x the report (it was 16x)


def test_code_frame_of_a_long_line_is_a_window_around_the_column():
    from types import SimpleNamespace

    from mcplint.report.text import _frame

    line = "x" * 5000 + "HERE" + "y" * 5000
    f = SimpleNamespace(span=True, line=1, column=5001)
    text, caret = ("".join(t for t, _ in seg) for seg in _frame([line], f, 1))
    assert len(text) < 200 and len(caret) < 200
    body, mark = text.split("| ", 1)[1], caret.split("| ", 1)[1]
    assert body.startswith("...") and body.endswith("...")
    assert body[mark.index("^"):].startswith("HERE")
    short = SimpleNamespace(span=True, line=1, column=3)
    text, caret = ("".join(t for t, _ in seg) for seg in _frame(["ab\tcd"], short, 1))
    assert text.endswith("| ab cd") and caret.endswith("|   ^")


@pytest.mark.slow
def test_many_document_findings_are_attributed_to_their_tools_quickly():
    """PRB102 reports each of 20,000 tools at the document level; finding each one's tool
    used to be a pass over every tool."""
    from mcplint.collect import collect
    from mcplint.config import Config, Where, parse_settings
    from mcplint.engine import lint_collection
    from mcplint.probe.transcript import capture_document

    names = [f"t{i}" for i in range(20000)]
    page = {"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [
        {"name": x, "inputSchema": {"type": "object"}} for x in names]}}}
    transcript = {"transport": "stdio", "stdoutNoiseCount": 0, "pages": [page],
                  "otherVersions": {"2025-06-18": names[:1], "2025-03-26": names[:2]}}
    config = parse_settings({"select": ["PRB102"]}, Where("t"), Config())
    t = time.process_time()
    doc = capture_document({"2025-11-25": transcript}, "x")
    findings = lint_collection(collect(doc, ("2025-11-25",)), config)
    assert time.process_time() - t < 5
    assert len(findings) == 19999 and findings[-1].tool == "t19999"
    assert "2025-03-26, 2025-06-18" in findings[-1].message and "2025-03-26" not in findings[0].message


def test_line_and_column_of_many_places_on_one_line():
    from mcplint.linecol import Lines as _Lines

    text = "a" * 2_000_000 + "\nbc"
    lines = _Lines(text)
    offsets = list(range(0, 2_000_000, 100)) + [2_000_001, 2_000_002]
    t = time.process_time()
    lines.warm(offsets)
    assert time.process_time() - t < 2
    assert lines.pos(1_999_900) == (1, 1_999_901) and lines.pos(2_000_002) == (2, 2)
    cold = _Lines(text)
    t = time.process_time()
    got = [cold.pos(o) for o in range(5, 2_000_000, 4000)]
    assert time.process_time() - t < 2 and got[-1] == (1, 1_996_006)


# ------------------------------------------------------------------ signals during a parallel scan


@pytest.fixture(scope="module")
def long_scan_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("many")
    text = minified_tools(2000)
    for k in range(40):
        (d / f"f{k:02}.json").write_text(text)
    return d


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def default_sigint():
    """In the child: SIGINT as a terminal delivers it. A job started in the background of a
    non-interactive shell inherits SIGINT ignored, and an ignored SIGINT is rightly ignored by
    mcplint too; these tests are about what happens when it arrives."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("sig,group,code", [("SIGTERM", True, 143), ("SIGTERM", False, 143),
                                            ("SIGINT", True, 130), ("SIGINT", False, 130)])
def test_a_signal_ends_a_parallel_scan_quietly(long_scan_dir, sig, group, code):
    import signal

    p = subprocess.Popen([sys.executable, "-m", "mcplint", "scan", str(long_scan_dir), "--no-config", "-j", "2",
                          "--format", "json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         start_new_session=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
                         preexec_fn=default_sigint)
    deadline = time.monotonic() + 30
    while len(_children(p.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    workers = _children(p.pid)
    assert len(workers) == 2
    time.sleep(0.5)  # the workers are busy now
    (os.killpg if group else os.kill)(p.pid, getattr(signal, sig))
    try:
        _, err = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        pytest.fail(f"the scan hung after {sig}")
    assert p.returncode == code
    assert err.decode().strip() in ("", "interrupted")  # no traceback, no "Process ForkPoolWorker-2:"
    time.sleep(0.5)
    assert not [w for w in workers if Path(f"/proc/{w}").exists() and "Z" not in
                Path(f"/proc/{w}/stat").read_text().split(")")[-1][:3]]  # no worker left running


def _running(pid: int) -> bool:
    """Is ``pid`` a live process (not gone, not a zombie waiting to be reaped)?"""
    try:
        return "Z" not in Path(f"/proc/{pid}/stat").read_text().split(")")[-1][:3]
    except OSError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork, and /proc to see the workers")
def test_a_worker_dies_at_once_on_sigterm_and_never_outlives_its_parent():
    """A worker the pool forks to replace a dead one (a group's SIGTERM kills the first ones) is
    forked after the parent installed its SIGTERM handler: it must not inherit it. And a worker
    ends when its parent is killed outright (SIGKILL: no handler runs), whether it started
    before (``early``) or just after (``late``: forked before the parent died, set up after),
    or it holds the output pipes open for ever."""
    import signal

    from mcplint.engine import _worker_start

    report_r, report_w = os.pipe()
    go_r, go_w = os.pipe()
    parent = os.fork()
    if parent == 0:  # the scan's parent: the lifeline, two workers, then wait to be killed
        try:
            os.close(report_r)
            os.close(go_w)
            lifeline, held = os.pipe()
            for name in (b"early", b"late"):
                if os.fork() == 0:
                    try:
                        signal.signal(signal.SIGTERM, lambda *a: os._exit(7))  # the parent's handler, inherited
                        os.write(report_w, b"%s %d\n" % (name, os.getpid()))
                        if name == b"late":
                            os.read(go_r, 1)  # (set up only once the parent is dead)
                        _worker_start(lifeline, held)
                        if name == b"early":
                            kept = signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
                            os.write(report_w, b"kept %d\n" % kept)
                        time.sleep(60)
                    finally:
                        os._exit(6)
            time.sleep(60)
        finally:
            os._exit(6)
    os.close(report_w)
    os.close(go_r)
    pids = [parent]
    try:
        with os.fdopen(report_r, "rb") as reports:
            said = dict(reports.readline().split() for _ in range(3))  # early, late, kept: in any order
            pids += [int(said[b"early"]), int(said[b"late"])]
            assert said[b"kept"] == b"1"  # SIGTERM back to its default
            os.kill(parent, signal.SIGKILL)
            os.waitpid(parent, 0)
            os.write(go_w, b"!")
            deadline = time.monotonic() + 20  # (a bound on the wait, on a loaded machine; not a measure)
            while any(map(_running, pids[1:])) and time.monotonic() < deadline:
                time.sleep(0.01)
            assert not [w for w in pids[1:] if _running(w)]  # both ended with their parent
    finally:
        os.close(go_w)
        for pid in pids:  # (nothing left behind if the test fails)
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass


_SIGTERM_ON_ANOTHER_THREAD = r"""
import os, signal, sys, threading, time
from pathlib import Path
from mcplint.config import Config
from mcplint.engine import lint_paths

def children():
    return [int(c) for c in Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children").read_text().split()]

def meddle():
    while len(children()) < 2:
        time.sleep(0.02)
    time.sleep(0.3)
    for pid in children():  # the workers die mid-task (as a group's SIGTERM kills them) ...
        os.kill(pid, signal.SIGKILL)
    os.kill(os.getpid(), signal.SIGTERM)  # ... and SIGTERM reaches this thread, not the main one

threading.Thread(target=meddle, daemon=True).start()
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})  # the main thread (and the pool's threads) never take it
lint_paths([sys.argv[1]], Config(), jobs=2)
print("finished")
"""


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_sigterm_taken_by_another_thread_still_ends_a_parallel_scan(long_scan_dir):
    """Python runs a signal handler only in the main thread, when it runs Python code; the kernel
    may hand the signal to any thread. A main thread asleep in an untimed wait for results that
    dead workers will never send would then sleep for ever."""
    p = subprocess.run([sys.executable, "-c", _SIGTERM_ON_ANOTHER_THREAD, str(long_scan_dir)], capture_output=True,
                       text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert p.returncode == 143 and "finished" not in p.stdout, (p.returncode, p.stderr[-500:])
