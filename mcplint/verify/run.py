"""Run the probe suite against a decoder: one verdict per probe."""

from __future__ import annotations

import contextlib
import os
import sys
from dataclasses import dataclass

from .decoders import CompileError, dumps
from .suite import PROBES, Probe


@dataclass(frozen=True)
class Outcome:
    probe: Probe
    verdict: str  # see suite.VERDICTS
    detail: str = ""


def run_probe(decoder, probe: Probe) -> Outcome:
    try:
        compiled = decoder.compile(probe.schema)
    except CompileError as e:
        return Outcome(probe, "rejected", str(e))
    if not decoder.accepts(compiled, dumps(probe.good)):
        return Outcome(probe, "over-constrained", f"refused the conforming instance {dumps(probe.good)}")
    if probe.bad is None:
        return Outcome(probe, "enforced", "nothing to violate; the conforming instance is accepted")
    if decoder.accepts(compiled, dumps(probe.bad)):
        return Outcome(probe, "dropped", f"accepted the violating instance {dumps(probe.bad)}")
    return Outcome(probe, "enforced")


@contextlib.contextmanager
def quiet_stderr():
    """Decoders written in Rust/C++ log to file descriptor 2; keep that off the user's terminal."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


_DONE: dict = {}  # (decoder, version, probe id) -> Outcome: a probe's verdict does not change within a process


def run_suite(decoder, probes=PROBES) -> list[Outcome]:
    out = []
    with quiet_stderr():
        for p in probes:
            key = (decoder.name, decoder.version, p.id, id(p))
            if key not in _DONE:
                _DONE[key] = run_probe(decoder, p)
            out.append(_DONE[key])
    return out
