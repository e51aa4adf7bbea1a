"""Regular expressions as ECMA-262 reads them: the one engine every path that matches a JSON
Schema ``pattern`` or ``patternProperties`` key uses (``validate``, SCH109's value checks, the
projection's tests).

JSON Schema says a pattern is an ECMA-262 regular expression, built with the ``u`` flag where
the implementation can (2020-12 Core §6.4; Validation §6.3.3, §10.3.2.2). The engine is
``regress``, a Rust implementation of ECMA-262's syntax and semantics: ``\\d`` is ``[0-9]`` (not
every Unicode digit), ``\\w`` is ``[A-Za-z0-9_]``, ``$`` does not match before a trailing
newline, ``\\cC`` is a control character, ``\\p{Letter}`` is a Unicode property. A pattern is
compiled with the ``u`` flag; one that is valid ECMA-262 only without it (``\\_``, a lone
``{``) is compiled without it, as a browser does. ``docs/validate.md`` has the measurements
behind the choice.

A match is bounded in time. ``regress`` backtracks, holds the interpreter lock while it
matches and takes no step limit, so nothing in this process can stop it: a match under a
deadline runs in a helper process (started once, on the first bounded match), which is killed
when the deadline passes. :func:`search` raises :class:`MatchTimeout` then. Starting the helper
is not matching: the time it takes (a Python start-up, which on a loaded machine can outlast a
whole budget) is left out of every deadline. :func:`search_within` bounds matches by the
helper's CPU time instead of the clock (where the system has CPU timers), so that what a lint
finds does not depend on how loaded the machine is.

A match is bounded in memory too. ``regress`` keeps a record per iteration of a counted
repetition, so counts nested inside each other (``(?:(?:a?){10000}){10000}``: a hundred
million iterations, even on the empty string) make it ask for gigabytes, and a failed
allocation aborts the whole process. A pattern whose nested counts multiply beyond
:data:`MAX_ITERATIONS` is not matched at all (:class:`PatternTooComplex`), and the helper runs
under a memory limit, so what slips past that estimate ends the helper, not mcplint.
"""

from __future__ import annotations

import marshal
import os
import signal
import struct
import subprocess
import sys
import threading
import time
from typing import Iterable

__all__ = ["PatternError", "PatternTooComplex", "MatchTimeout", "MAX_ITERATIONS", "compile_pattern", "search",
           "search_all", "search_within", "check", "iterations", "too_complex"]


class PatternError(ValueError):
    """The text is not an ECMA-262 regular expression (with or without the ``u`` flag)."""


class PatternTooComplex(PatternError):
    """The pattern is valid, but its nested counted repetitions may take more iterations than
    :data:`MAX_ITERATIONS`: it is not matched (see :func:`too_complex`)."""


class MatchTimeout(Exception):
    """A bounded match did not finish before its deadline (the helper running it was stopped)."""


_cache: dict = {}
_CACHE_MAX = 1024


def compile_pattern(pattern: str):
    """The compiled ``regress.Regex`` (``u`` flag, else without it); :class:`PatternError` if
    neither compiles. Cached."""
    got = _cache.get(pattern)
    if got is None:
        import regress

        try:
            got = regress.Regex(pattern, "u")
        except Exception:
            try:
                got = regress.Regex(pattern)
            except Exception as e:
                got = PatternError(str(e) or "not an ECMA-262 regular expression")
        if len(_cache) >= _CACHE_MAX:
            _cache.clear()
        _cache[pattern] = got
    if isinstance(got, PatternError):
        raise got
    return got


def check(pattern: str) -> str | None:
    """None when ``pattern`` compiles, else why not."""
    try:
        compile_pattern(pattern)
    except PatternError as e:
        return str(e)
    return None


# How many iterations of its innermost repetition a pattern may ask for before it is not matched.
# regress keeps about 40 bytes per iteration: a million is some 40 MB and a few hundredths of a
# second; real patterns stay far below (``^(?:[A-Za-z0-9+/]{4}){0,1000}$`` is 4,000).
MAX_ITERATIONS = 1_000_000
_CAP = MAX_ITERATIONS * 1000  # products are clamped here (the exact size past the bound is moot)


def iterations(pattern: str) -> int:
    """An upper estimate of the iterations a match of ``pattern`` may be made to run whatever the
    text: over every atom, the product of the counts of the repetitions around it (``{n,m}``
    counts m, ``{n}`` and ``{n,}`` count n; ``*``, ``+`` and ``?`` count 1, since they stop at an
    iteration that consumes nothing, and so run at most once per character of the text).
    Clamped to a value past :data:`MAX_ITERATIONS`. Reads the syntax loosely (a brace that is
    not a quantifier counts as one when it looks like one), which only overestimates."""
    frames = [1]  # the largest cost seen in each open group (the last is the innermost)
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        i += 1
        if c == "(":
            frames.append(1)
            continue
        if c == ")":
            atom = frames.pop() if len(frames) > 1 else 1
        elif c == "\\":
            if i < n and pattern[i] in "upPk" and i + 1 < n and pattern[i + 1] in "{<":
                close = pattern.find("}" if pattern[i + 1] == "{" else ">", i)
                i = n if close < 0 else close + 1
            else:
                i += 1
            atom = 1
        elif c == "[":  # a class is one atom: skip to its end (escapes inside it included)
            while i < n and pattern[i] != "]":
                i += 2 if pattern[i] == "\\" else 1
            i += 1
            atom = 1
        else:
            atom = 1
        count, i = _quantifier(pattern, i)
        frames[-1] = max(frames[-1], min(atom * count, _CAP))
    while len(frames) > 1:  # an unclosed group: not valid, but estimated all the same
        atom = frames.pop()
        frames[-1] = max(frames[-1], atom)
    return frames[0]


def _quantifier(pattern: str, i: int) -> tuple[int, int]:
    """The count of the quantifier at ``pattern[i:]`` (1 for none, ``*``, ``+``, ``?``) and
    where the text after it (and after a lazy ``?``) starts."""
    n = len(pattern)
    if i < n and pattern[i] in "*+?":
        i += 1
        count = 1
    elif i < n and pattern[i] == "{":
        j = i + 1
        while j < n and pattern[j] in "0123456789,":
            j += 1
        if j >= n or pattern[j] != "}" or j == i + 1 or pattern[i + 1] == ",":
            return 1, i
        low, _, high = pattern[i + 1:j].partition(",")
        if "," in high:
            return 1, i
        count = max(1, _count(high) if high else _count(low))
        i = j + 1
    else:
        return 1, i
    if i < n and pattern[i] == "?":
        i += 1
    return count, i


def _count(digits: str) -> int:
    return _CAP if len(digits) > 12 else min(int(digits), _CAP)


def too_complex(pattern: str) -> str | None:
    """Why ``pattern`` is not matched (its repetitions nest past :data:`MAX_ITERATIONS`), or None."""
    got = iterations(pattern)
    if got <= MAX_ITERATIONS:
        return None
    shown = f"{got:,}" if got < _CAP else f"more than {_CAP:,}"
    return (f"its counted repetitions nest to {shown} iterations, more than the {MAX_ITERATIONS:,} "
            "mcplint matches")


def _bounded(pattern: str):
    """The compiled pattern, or :class:`PatternError` / :class:`PatternTooComplex`."""
    got = compile_pattern(pattern)
    why = too_complex(pattern)
    if why is not None:
        raise PatternTooComplex(why)
    return got


def search(pattern: str, text: str, deadline: float | None = None) -> bool:
    """Does ``pattern`` match somewhere in ``text`` (ECMA-262 ``RegExp.prototype.test``)?

    ``deadline``: a ``time.monotonic()`` value; the match then runs in the helper process and
    :class:`MatchTimeout` is raised if it is not done by then. Without one it runs here, unbounded
    (for callers whose input is trusted, such as tests). :class:`PatternError` for a bad pattern,
    :class:`PatternTooComplex` for one whose repetitions nest too deep to match."""
    return search_all([(pattern, text)], deadline)[0]


def search_all(pairs: Iterable[tuple[str, str]], deadline: float | None = None) -> list[bool]:
    """:func:`search` for several ``(pattern, text)`` pairs under one deadline (one round trip)."""
    pairs = list(pairs)
    for pattern, _ in pairs:
        _bounded(pattern)  # a bad pattern is reported here, never by the helper
    if deadline is None:
        return [compile_pattern(p).find(t) is not None for p, t in pairs]
    waited = start_helper()
    return _current[0].run(pairs, deadline + waited)[0]


# Where the helper can bound its own CPU time (a CPU timer whose signal ends it), the wall clock
# is only a backstop: a match that has not used its CPU seconds after this many times as many
# wall seconds (plus one) is stopped too.
CPU_TIMERS = hasattr(signal, "setitimer") and hasattr(signal, "SIGPROF")
WALL_BACKSTOP = 20


def search_within(pairs: Iterable[tuple[str, str]], cpu: float) -> tuple[list[bool], float]:
    """:func:`search_all` within ``cpu`` seconds of the helper's CPU time (a loaded machine gives
    the same answers, later), and the CPU seconds the matches took. Without CPU timers (Windows)
    the bound is ``cpu`` seconds of the clock, as :func:`search_all`'s."""
    pairs = list(pairs)
    for pattern, _ in pairs:
        _bounded(pattern)
    start_helper()
    wall = cpu * WALL_BACKSTOP + 1.0 if CPU_TIMERS else cpu
    return _current[0].run(pairs, time.monotonic() + wall, cpu if CPU_TIMERS else None)


def start_helper() -> float:
    """Start the helper unless it runs, and wait until it is ready to match: the seconds that
    took (0.0 when it was running), which a caller leaves out of its deadline.
    :class:`MatchTimeout` if it does not start at all."""
    if _pid[0] == os.getpid() and _current and _current[0].alive():
        return 0.0
    t = time.monotonic()
    _helper()
    return time.monotonic() - t


# ------------------------------------------------------------------ the helper process

_HEADER = struct.Struct("<I")
_HELPER_CODE = "from mcplint.ecma import _serve; _serve()"
START_TIMEOUT = 120.0  # seconds a helper may take to start (and say it is ready)


class _Helper:
    """A child Python process that matches what it is sent; killed when a deadline passes."""

    def __init__(self):
        # the child imports this very mcplint, wherever it was imported from
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1",
               "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}
        self.proc = subprocess.Popen([sys.executable, "-c", _HELPER_CODE],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     env=env, close_fds=True)
        self.lock = threading.Lock()
        try:  # it says it is ready (an empty reply) once it has imported what it matches with
            if _read_within(self.proc.stdout.fileno(), _HEADER.size, START_TIMEOUT) != _HEADER.pack(0):
                raise EOFError()
        except (MatchTimeout, OSError, EOFError):
            self.kill()
            raise MatchTimeout() from None

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        try:
            self.proc.kill()
            self.proc.wait(timeout=5)
        except Exception:
            pass

    def run(self, pairs: list, deadline: float, cpu: float | None = None) -> tuple[list[bool], float]:
        """Whether each pattern matches, and the CPU seconds that took; stopped (killed) at the
        ``deadline`` of the clock, or when it has used ``cpu`` seconds of CPU (None: no CPU bound)."""
        with self.lock:
            body = marshal.dumps((cpu, pairs))
            try:
                self.proc.stdin.write(_HEADER.pack(len(body)) + body)
                self.proc.stdin.flush()
                head = self._read(_HEADER.size, deadline)
                results, used = marshal.loads(self._read(_HEADER.unpack(head)[0], deadline))
            except MatchTimeout:
                self.kill()
                raise
            except (OSError, EOFError, ValueError, TypeError, struct.error):
                self.kill()
                raise MatchTimeout() from None  # the helper died (its CPU timer ended it): the match did not end
            return results, used

    def _read(self, n: int, deadline: float) -> bytes:
        out = b""
        fd = self.proc.stdout.fileno()
        while len(out) < n:
            left = deadline - time.monotonic()
            if left <= 0:
                raise MatchTimeout()
            chunk = _read_within(fd, n - len(out), left)
            if not chunk:
                raise EOFError()
            out += chunk
        return out


def _read_within(fd: int, n: int, timeout: float) -> bytes:
    """Up to ``n`` bytes from ``fd``, or :class:`MatchTimeout` after ``timeout`` seconds."""
    if os.name == "nt":  # pragma: no cover - no select() on Windows pipes: read in a thread
        got: list = []
        reader = threading.Thread(target=lambda: got.append(os.read(fd, n)), daemon=True)
        reader.start()
        reader.join(timeout)
        if not got:
            raise MatchTimeout()  # the helper is killed, which ends the read
        return got[0]
    import select

    if not select.select([fd], [], [], timeout)[0]:
        raise MatchTimeout()
    return os.read(fd, n)


_current: list = []  # [_Helper] of this process
_pid: list = [os.getpid()]


def _helper() -> _Helper:
    if _pid[0] != os.getpid():  # a forked worker must not share its parent's helper
        _current.clear()
        _pid[0] = os.getpid()
    if not _current or not _current[0].alive():
        _current[:] = [_Helper()]
    return _current[0]


HELPER_MEMORY = 1 << 30  # bytes of address space the helper may add to what it holds once started


def _limit_memory() -> None:
    """Cap the helper's address space (where the system has the limit) a gibibyte above what it
    holds now: a match that asks for more fails its allocation, which ends the helper (a match
    that did not end) rather than exhausting the machine."""
    try:
        import resource

        with open("/proc/self/statm") as f:
            held = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        want = held + HELPER_MEMORY
        if hard != resource.RLIM_INFINITY:
            want = min(want, hard)
        if soft == resource.RLIM_INFINITY or soft > want:
            resource.setrlimit(resource.RLIMIT_AS, (want, hard))
    except (ImportError, OSError, ValueError, IndexError):
        pass  # no such limit here (Windows, macOS without /proc): the iteration bound still holds


def _serve() -> None:
    """The helper's loop: read (CPU bound, (pattern, text) pairs), write whether each matches and
    the CPU seconds that took. A CPU bound arms a CPU timer whose signal ends this process (its
    default action): a backtracking match cannot be interrupted otherwise."""
    import regress  # noqa: F401  (imported before saying it is ready: the first match does not pay it)

    if CPU_TIMERS:
        signal.signal(signal.SIGPROF, signal.SIG_DFL)
    _limit_memory()
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    stdout.write(_HEADER.pack(0))
    stdout.flush()
    while True:
        head = stdin.read(_HEADER.size)
        if len(head) < _HEADER.size:
            return
        cpu, pairs = marshal.loads(stdin.read(_HEADER.unpack(head)[0]))
        if cpu is not None:
            signal.setitimer(signal.ITIMER_PROF, max(cpu, 0.001))
        start = time.process_time()
        out = []
        for pattern, text in pairs:
            try:
                out.append(compile_pattern(pattern).find(text) is not None)
            except PatternError:
                out.append(False)
        used = time.process_time() - start
        if cpu is not None:
            signal.setitimer(signal.ITIMER_PROF, 0)
        body = marshal.dumps((out, used))
        stdout.write(_HEADER.pack(len(body)) + body)
        stdout.flush()
