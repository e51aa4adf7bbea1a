"""Files mcplint writes (``--fix``, ``-o``, ``--update-baseline``) are written whole or not at
all, keep their permissions, and ``--fix`` never writes through a symbolic link out of the
tree it was given."""

from __future__ import annotations

import errno
import json
import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcplint import atomicio
from mcplint.atomicio import write_atomic
from mcplint.cli import main

ROOT = Path(__file__).resolve().parent.parent
# SCH102 (a misspelt dialect URI) has a safe fix: --fix rewrites this file
FIXABLE = {"tools": [{"name": f"tool_{i}", "description": "x" * 40,
                      "inputSchema": {"$schema": "http://json-schema.org/draft/2020-12/schema", "type": "object",
                                      "properties": {"a": {"type": "string"}}}} for i in range(3)]}


def run(args):  # (as 2026-07-28, where the files' findings are errors: the file names no version)
    return CliRunner().invoke(main, ["scan", "--no-config", "--protocol-version", "2026-07-28", *args])


def fixable(path: Path, n: int = 3) -> str:
    data = dict(FIXABLE, tools=[dict(FIXABLE["tools"][0], name=f"tool_{i}") for i in range(n)])
    text = json.dumps(data, indent=2) + "\n"
    path.write_text(text, encoding="utf-8")
    return text


def leftovers(directory: Path) -> list[str]:
    return [p.name for p in directory.iterdir() if p.name.endswith(".mcplint-tmp")]


def fail_midway(monkeypatch, after: int = 100, code: int = errno.ENOSPC):
    """Every write of a file's text stops with ``code`` once ``after`` characters are written."""
    def pieces(out, text):
        whole = text if isinstance(text, str) else "".join(text)
        out.write(whole[:after])
        out.flush()
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(atomicio, "_write_pieces", pieces)


# ------------------------------------------------------------------ the helper


def test_a_failed_write_leaves_the_original_and_no_temporary_file(tmp_path, monkeypatch):
    target = tmp_path / "report.json"
    target.write_text("previous report\n")
    fail_midway(monkeypatch)
    with pytest.raises(OSError) as e:
        write_atomic(target, "new " * 1000)
    assert e.value.errno == errno.ENOSPC
    assert target.read_text() == "previous report\n" and leftovers(tmp_path) == []


def test_the_new_text_replaces_the_file_keeping_its_mode_and_links(tmp_path):
    real = tmp_path / "real.json"
    real.write_text("old")
    real.chmod(0o640)
    link = tmp_path / "link.json"
    link.symlink_to("real.json")
    write_atomic(link, iter(["a", "b", "\r\n"]), newline="")
    assert link.is_symlink() and real.read_bytes() == b"ab\r\n"
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    new = tmp_path / "new.txt"
    write_atomic(new, "x")
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(new.stat().st_mode) == 0o666 & ~mask  # as open() would create it, not 0600
    assert leftovers(tmp_path) == []


def test_a_target_that_is_not_a_regular_file_is_written_in_place(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        write_atomic(fifo, "through the pipe")
        assert os.read(reader, 100) == b"through the pipe"
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(fifo.stat().st_mode) and leftovers(tmp_path) == []


def test_sigterm_during_the_write_removes_the_temporary_file_then_reaches_its_handler(tmp_path):
    target = tmp_path / "report.txt"
    target.write_text("previous")

    class Stopped(Exception):
        pass

    def handler(signum, frame):
        raise Stopped(signum)

    def pieces():
        yield "first half "
        os.kill(os.getpid(), signal.SIGTERM)
        yield "second half"

    old = signal.signal(signal.SIGTERM, handler)
    try:
        with pytest.raises(Stopped):
            write_atomic(target, pieces())
        assert signal.getsignal(signal.SIGTERM) is handler  # put back as it was
    finally:
        signal.signal(signal.SIGTERM, old)
    assert target.read_text() == "previous" and leftovers(tmp_path) == []


# ------------------------------------------------------------------ --fix, -o, baseline


def test_fix_on_a_full_disk_keeps_the_file_and_is_a_located_error(tmp_path, monkeypatch):
    f = tmp_path / "tools.json"
    before = fixable(f)
    fail_midway(monkeypatch, after=50)
    r = run(["--fix", str(f)])
    assert r.exit_code == 2, r.output
    assert f"{f}: input error: cannot write the fixed file: {os.strerror(errno.ENOSPC)}" in r.stderr
    assert "Traceback" not in r.output
    assert f.read_text() == before and leftovers(tmp_path) == []


def test_output_and_baseline_on_a_full_disk_keep_the_previous_file(tmp_path, monkeypatch):
    f = tmp_path / "tools.json"
    fixable(f)
    report, base = tmp_path / "report.sarif", tmp_path / "baseline.json"
    report.write_text("the previous report")
    base.write_text('{"version": 1, "findings": []}\n')
    fail_midway(monkeypatch)
    r = run(["--format", "sarif", "-o", str(report), str(f)])
    assert r.exit_code == 2 and f"{report}: input error: cannot write the output file" in r.stderr
    r = run(["--baseline", str(base), "--update-baseline", str(f)])
    assert r.exit_code == 2 and f"{base}: input error: cannot write the baseline" in r.stderr
    assert report.read_text() == "the previous report"
    assert base.read_text() == '{"version": 1, "findings": []}\n' and leftovers(tmp_path) == []


def test_fix_under_a_file_size_limit_leaves_the_file_whole(tmp_path):
    """The real failure, not a simulated one: RLIMIT_FSIZE below the fixed file's size (the kernel
    refuses the write with EFBIG once SIGXFSZ is ignored)."""
    resource = pytest.importorskip("resource")
    f = tmp_path / "tools.json"
    before = fixable(f, n=200)
    assert len(before) > 40_000

    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (20_000, 20_000))

    p = subprocess.run([sys.executable, "-m", "mcplint", "scan", "--no-config", "--fix", "-q", str(f)],
                       capture_output=True, text=True, preexec_fn=limit, timeout=120,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert p.returncode == 2, p.stderr
    assert f"{f}: input error: cannot write the fixed file: {os.strerror(errno.EFBIG)}" in p.stderr
    assert "Traceback" not in p.stderr
    assert f.read_text() == before and leftovers(tmp_path) == []


def test_fix_keeps_the_files_mode(tmp_path):
    f = tmp_path / "tools.json"
    before = fixable(f)
    f.chmod(0o604)
    assert run(["--fix", str(f)]).exit_code in (0, 1)
    assert f.read_text() != before and "https://json-schema.org/draft/2020-12/schema" in f.read_text()
    assert stat.S_IMODE(f.stat().st_mode) == 0o604


# ------------------------------------------------------------------ symbolic links


def test_fix_does_not_write_through_a_link_out_of_the_tree(tmp_path):
    repo, outside = tmp_path / "repo", tmp_path / "outside"
    repo.mkdir()
    outside.mkdir()
    target = outside / "tools.json"
    before = fixable(target)
    (repo / "tools.json").symlink_to(target)
    (repo / "sub").symlink_to(outside, target_is_directory=True)  # the walk does not descend into it
    own = repo / "own.json"
    fixable(own)
    for args in (["--fix", str(repo)], ["--fix", str(repo / "tools.json")]):
        r = run(["--output-format", "concise", *args])
        assert r.exit_code == 1, r.output  # its findings are still reported
        assert "not fixed: it is a symbolic link (or lies under one) to a file outside the scanned tree" in r.stderr
        assert "SCH102" in r.stdout
        assert target.read_text() == before
    assert "https://json-schema.org/draft/2020-12/schema" in own.read_text()  # the tree's own file is fixed
    diff = run(["--diff", str(repo)])
    assert "outside" not in diff.stdout and "not fixed: it is a symbolic link" in diff.stderr


def test_a_link_inside_the_tree_is_followed_and_stays_a_link(tmp_path):
    (tmp_path / "real").mkdir()
    real = tmp_path / "real" / "tools.json"
    fixable(real)
    link = tmp_path / "tools.json"
    link.symlink_to("real/tools.json")
    r = run(["--fix", str(tmp_path)])
    assert r.exit_code in (0, 1) and "not fixed" not in r.stderr
    assert link.is_symlink() and "https://json-schema.org/draft/2020-12/schema" in real.read_text()
    # a file outside the tree named through the scanned tree's parent is in its tree
    other = tmp_path / "other.json"
    fixable(other)
    alias = tmp_path / "real" / "alias.json"
    alias.symlink_to(other)
    r = run(["--fix", str(tmp_path / "real")])
    assert "not fixed: it is a symbolic link" in r.stderr and "http://json-schema" in other.read_text()
    r = run(["--fix", str(tmp_path)])
    assert "not fixed" not in r.stderr and "http://json-schema" not in other.read_text()


def test_every_file_mcplint_writes_goes_through_the_atomic_helper():
    """No module writes a file by itself: a plain open(..., "w") or write_text() is what left
    truncated files. Allowed: the helper, appends to the runner's own files (GITHUB_OUTPUT,
    GITHUB_STEP_SUMMARY), the result file of the Python import helper (read by mcplint alone)
    and os.devnull."""
    import ast

    allowed = {("atomicio.py", "w"), ("action.py", "a"), ("pysource/_child.py", "w"), ("verify/run.py", "w")}
    found = set()
    for path in (ROOT / "mcplint").rglob("*.py"):
        rel = path.relative_to(ROOT / "mcplint").as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in ("write_text", "write_bytes"):
                found.add((rel, name))
            elif name in ("open", "fdopen"):
                mode = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "mode"),
                                                                   None)
                if isinstance(mode, ast.Constant) and isinstance(mode.value, str) and set(mode.value) & set("wax+"):
                    found.add((rel, mode.value))
    assert ("atomicio.py", "w") in found and ("action.py", "a") in found  # (the check sees them)
    assert found <= allowed, found - allowed
