"""Ending every process a probed server started, including those that left its process group.

A server runs in its own process group, and closing it kills the group. A descendant that
calls ``setsid()`` (a daemonising helper, a double fork) leaves the group and would outlive
the probe. On Linux, mcplint makes itself a *child subreaper* for the probe
(``prctl(PR_SET_CHILD_SUBREAPER)``): an orphaned descendant is re-parented to mcplint rather
than to init, so when the probe ends every process that became mcplint's child meanwhile,
and everything below those, can be found (from ``/proc``) and killed, and the dead reaped.
Elsewhere only the process group is killed (see docs/probe.md).
"""

from __future__ import annotations

import os
import signal
import sys

PR_SET_CHILD_SUBREAPER = 36
SWEEPS = 50  # rounds of find-and-kill: each catches what the previous round's victims forked


def _prctl(option: int, value: int) -> bool:
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _children_map(zombies: bool = False) -> dict[int, list[int]]:
    """{parent pid: [live child pids]} from ``/proc`` ({} where there is none); with
    ``zombies``, the dead that wait to be reaped instead."""
    children: dict[int, list[int]] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return children
    for name in entries:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:
            continue  # gone already
        fields = stat[stat.rfind(b")") + 2:].split()  # after "pid (comm) ": the name may hold anything
        if len(fields) > 1 and (fields[0] == b"Z") == zombies:  # a zombie needs reaping, not killing
            children.setdefault(int(fields[1]), []).append(int(name))
    return children


def _below(children: dict, roots) -> list[int]:
    out, todo = [], list(roots)
    while todo:
        for child in children.get(todo.pop(), ()):
            out.append(child)
            todo.append(child)
    return out


class ServerReaper:
    """Context manager around a probe: on Linux, a subreaper while it runs; at the end, every
    process that became mcplint's child during the probe (the servers, and orphans of theirs
    re-parented to mcplint) is killed with everything below it, and the dead are reaped.
    Children mcplint had before the probe are left alone (mcplint used as a library, or a test
    harness, may have its own). ``ended`` counts the processes killed."""

    def __init__(self) -> None:
        self.active = False
        self.ended = 0
        self.before: set = set()

    def __enter__(self) -> "ServerReaper":
        if sys.platform.startswith("linux"):
            self.before = set(_children_map().get(os.getpid(), ()))
            self.active = _prctl(PR_SET_CHILD_SUBREAPER, 1)
        return self

    def __exit__(self, *exc) -> bool:
        if self.active:
            try:
                self.sweep()
            finally:
                _prctl(PR_SET_CHILD_SUBREAPER, 0)
        return False

    def sweep(self) -> None:
        me = os.getpid()
        killed: set = set()
        for _ in range(SWEEPS):
            children = _children_map()
            roots = [c for c in children.get(me, ()) if c not in self.before]
            left = [p for p in roots + _below(children, roots) if p not in killed or _alive(p)]
            if not left:
                break
            for pid in left:
                try:
                    os.kill(pid, signal.SIGKILL)
                    killed.add(pid)
                except OSError:
                    pass
            _reap(killed)
        self.ended = len(killed)
        _reap(killed, wait=0.5)
        # killed below a server before it died (kill_descendants), then handed here dead
        _reap({c for c in _children_map(zombies=True).get(me, ()) if c not in self.before})


def kill_descendants(pid: int) -> int:
    """SIGKILL every live descendant of ``pid`` (by parent links in ``/proc``; nothing where
    there is none), those that left its process group included: a server stopped while
    running takes them with it, whatever other servers are being probed meanwhile. (Those
    whose parent died first are orphans, re-parented to mcplint: :class:`ServerReaper`.)"""
    found = _below(_children_map(), [pid]) if sys.platform.startswith("linux") else []
    for child in found:
        try:
            os.kill(child, signal.SIGKILL)
        except OSError:
            pass
    return len(found)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            stat = fh.read()
    except OSError:
        return False
    return stat[stat.rfind(b")") + 2:][:1] != b"Z"


def _reap(pids: set, wait: float = 0.0) -> None:
    """Collect the exit status of those of ``pids`` that are mcplint's children (a killed
    orphan is re-parented here once its parent is dead too)."""
    import time

    deadline = time.monotonic() + wait
    todo = set(pids)
    while todo:
        for pid in list(todo):
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:  # not (or no longer) a child here: its parent reaps it
                todo.discard(pid)
                continue
            except OSError:
                todo.discard(pid)
                continue
            if done:
                todo.discard(pid)
        if not todo or time.monotonic() >= deadline:
            return
        time.sleep(0.01)
