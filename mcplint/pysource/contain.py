"""Running a Python server's helper so that nothing of the module outlives it or floods mcplint.

Importing a server file runs its module code: whatever it starts must end with the scan, and
whatever it prints must cost bounded memory. The helper runs in a session of its own (its own
process group), writes its output to files rather than pipes (a process the module started
that keeps them open holds nothing up), and, on Linux, is the *subreaper* of what the module
starts, which it kills when it is done (``contain`` and ``end_descendants`` in
``_child_serve.py``; the warm fork server does the same for each fork). mcplint waits for the
helper alone, kills what is left of its group, and reads only the end of its output.
"""

from __future__ import annotations

import os


def run_plain(argv: list, timeout: float) -> tuple[int, bool, str]:
    """Run the helper in a fresh interpreter, in a session (and process group) of its own:
    (exit status, whether it was stopped at ``timeout``, the end of what it printed). Its output
    goes to files, so a process the module started that keeps them open holds nothing up: mcplint
    waits for the helper alone, then kills what is left of its group (the helper, a subreaper,
    has killed what it started already; see ``contain`` in ``_child_serve.py``)."""
    import signal
    import subprocess
    import tempfile

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err, cwd=os.getcwd(),
                                start_new_session=True)
        timed_out = False
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            _end_tree(proc.pid)
        except BaseException:  # Ctrl-C: nothing of the module outlives mcplint
            _end_tree(proc.pid)
            proc.wait()
            raise
        proc.wait()
        if hasattr(os, "killpg"):
            try:
                os.killpg(proc.pid, signal.SIGKILL)  # whatever is left of its group
            except OSError:
                pass
        return proc.returncode, timed_out, tail(out) + tail(err)


def _end_tree(pid: int) -> None:
    """SIGKILL ``pid``, everything below it (those that left its group too: Linux) and its group."""
    import signal

    from ..probe.reaper import kill_descendants

    kill_descendants(pid)
    for kill in (getattr(os, "killpg", None), os.kill):
        if kill is None:
            continue
        try:
            kill(pid, signal.SIGKILL)
        except OSError:
            pass


OUTPUT_KEPT = 64 * 1024  # bytes of the end of a module's stdout, and of its stderr, that mcplint reads


def tail(fh) -> str:
    """The last ``OUTPUT_KEPT`` bytes of an open binary file, as text (whatever its size)."""
    fh.seek(0, os.SEEK_END)
    size = fh.tell()
    fh.seek(max(0, size - OUTPUT_KEPT))
    data = fh.read(OUTPUT_KEPT)
    return ("...\n" if size > OUTPUT_KEPT else "") + data.decode("utf-8", "replace")
