"""Importing a Python server file runs its module code, so whatever that code starts or prints
is held in: a daemon it forks (setsid, double fork) is killed with the import, a process that
keeps the output pipes open makes mcplint wait for nothing, and a module printing without end
costs bounded memory. Each class is checked the plain way (a fresh interpreter per file) and in
a fork of the warm interpreter; by process state, the error reported and traced memory, never
by the clock."""

from __future__ import annotations

import os
import sys
import tracemalloc
from pathlib import Path

import pytest

from mcplint.errors import InputError
from mcplint.pysource import load_python

pytest.importorskip("mcp.server.mcpserver", reason="the official MCP SDK (pip install -e '.[pysource-test]')")
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="process groups and fork: POSIX")

SERVER = ("from mcp.server.mcpserver import MCPServer\n\nserver = MCPServer('s')\n\n\n@server.tool()\n"
          "def hello(x: int) -> int:\n    return x\n")


@pytest.fixture(params=["plain", "warm"])
def mode(request, monkeypatch):
    if request.param == "warm" and not sys.platform.startswith("linux"):
        pytest.skip("the warm interpreter runs on Linux only")
    monkeypatch.setenv("MCPLINT_PYTHON_FORK", "1" if request.param == "warm" else "0")
    return request.param


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except FileNotFoundError:
        return False
    except OSError:  # no /proc: ask the kernel
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


def pids_in(path: Path) -> list[int]:
    return [int(p) for p in path.read_text().split()] if path.exists() else []


@pytest.mark.slow
def test_a_daemon_the_module_forks_ends_with_the_import(tmp_path, mode):
    pids = tmp_path / "pids"
    # a double fork with setsid() between: the daemon leaves the session and process group
    (tmp_path / "daemon_server.py").write_text(
        "import os, time\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    if os.fork() == 0:\n"
        f"        open({str(pids)!r}, 'a').write(f'{{os.getpid()}} ')\n"
        "        time.sleep(600)\n"
        "    os._exit(0)\n"
        "os.wait()\n"
        "import subprocess\n"
        f"open({str(pids)!r}, 'a').write(f'{{subprocess.Popen([\"sleep\", \"600\"]).pid}} ')\n" + SERVER)
    doc = load_python(str(tmp_path / "daemon_server.py"), sys.executable)
    assert doc is not None
    started = pids_in(pids)
    assert len(started) == 2
    assert not [p for p in started if alive(p)]


@pytest.mark.slow
def test_a_process_keeping_the_pipes_open_does_not_hold_the_error(tmp_path, mode):
    pids = tmp_path / "pids"
    (tmp_path / "pipes_server.py").write_text(
        "import subprocess, sys\n"
        "p = subprocess.Popen(['sleep', '600'], stdout=sys.stdout, stderr=sys.stderr, start_new_session=True)\n"
        f"open({str(pids)!r}, 'w').write(str(p.pid))\n"
        "raise RuntimeError('boom at import')\n")
    with pytest.raises(InputError) as e:
        load_python(str(tmp_path / "pipes_server.py"), sys.executable, timeout=60)
    # the module's own failure, at once: not "did not finish within 60 s" after waiting for the pipes
    assert "RuntimeError" in str(e.value) and "boom at import" in str(e.value)
    assert "did not finish" not in str(e.value)
    assert not [p for p in pids_in(pids) if alive(p)]


@pytest.mark.slow
@pytest.mark.parametrize("how", ["print", "fd"])
def test_a_module_printing_without_end_costs_bounded_memory(tmp_path, mode, how):
    mb = 200 if how == "print" else 40  # (written to the descriptor, the output lands on disk first)
    write = ("import sys\nchunk = 'x' * 1023 + '\\n'\nfor _ in range({n}):\n    sys.stdout.write(chunk)\n"
             if how == "print" else
             "import os\nchunk = b'y' * 1023 + b'\\n'\nfor _ in range({n}):\n    os.write(1, chunk)\n")
    (tmp_path / "loud_server.py").write_text(write.format(n=mb * 1024) + "print('THE LAST LINE')\n"
                                             + "raise KeyError('after the noise')\n")
    tracemalloc.start()
    try:
        with pytest.raises(InputError) as e:
            load_python(str(tmp_path / "loud_server.py"), sys.executable, timeout=60)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4 * 1024 * 1024, peak  # (a whole copy of the output: over 200 MB)
    assert "KeyError" in str(e.value) and len(str(e.value)) < 20_000


def test_the_output_kept_is_the_end_of_it(tmp_path):
    from mcplint.pysource.contain import OUTPUT_KEPT, tail

    f = tmp_path / "out"
    f.write_bytes(b"a" * (3 * OUTPUT_KEPT) + b"THE END")
    with open(f, "rb") as fh:
        kept = tail(fh)
    assert kept.endswith("THE END") and kept.startswith("...\n") and len(kept) <= OUTPUT_KEPT + 4
    f.write_bytes(b"short")
    with open(f, "rb") as fh:
        assert tail(fh) == "short"  # the near miss: nothing cut, nothing marked
