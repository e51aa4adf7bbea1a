"""The orchestrator: what every front end (``mcplint scan``, ``mcplint probe``, the pre-commit
hooks, the GitHub Action) runs once it has turned its options into a configuration and inputs.

A scan: the paths are expanded, each file is loaded by its kind (see :mod:`mcplint.engine`),
collected, linted, then suppressed or held against a baseline; the exit code follows. A probe:
the server's capture (:mod:`mcplint.probe.run`) is linted as a scan of the saved capture would
lint it."""

from __future__ import annotations

from contextlib import nullcontext

from .config import Config
from .engine import Result, lint_captures


def run_probe(**options) -> tuple[Result, list[str]]:
    """Probe one server and lint its capture: (the result, notes about the run). ``options``:
    those of :class:`~mcplint.probe.run.ServerProbe`."""
    from .probe.reaper import ServerReaper
    from .probe.run import ServerProbe

    probe = ServerProbe(**options)
    with ServerReaper() if not options.get("url") else nullcontext():  # every descendant of a stdio server ends with it
        probe.capture()
    return lint_probe(probe)


def lint_probe(probe) -> tuple[Result, list[str]]:
    """Lint what ``probe`` (a :class:`~mcplint.probe.run.ServerProbe`) captured, within its
    overall timeout, then save the capture if asked: (the result, notes about the run)."""
    config: Config = probe.config
    with probe.time_limit():  # --overall-timeout bounds this part too
        captured = probe.captured()
        result = Result()
        if config.profiles:  # every profile checked has its row, one with no finding too
            from .profiles import load_profiles

            result.profiles = [p.name for p in load_profiles(config.profiles)]
        # a problem of several captures (the versions that got different results) is one finding
        result.findings = lint_captures(captured.collections, config)
        # a tool listed under several versions counts once
        labels = list(dict.fromkeys(t.label for c in captured.collections for t in c.tools))
        result.files = 1 if captured.save else 0  # a capture not saved is no file
        result.tools = len(labels)
        result.tool_index = [(captured.origin, label) for label in labels]
        result.documents.append(captured.doc)
    result.findings.sort(key=lambda f: f.sort_key())
    return result, captured.finish(result.worst(), probe.save)
