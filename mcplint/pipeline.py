"""The orchestrator: what every front end (``mcplint scan``, ``mcplint probe``, the pre-commit
hooks, the GitHub Action) runs once it has turned its options into a configuration and inputs.

A scan (:func:`scan`): the paths are expanded, each file is loaded by its kind, collected and
linted with its suppressions (:func:`mcplint.engine.lint_paths`); :func:`describe_run` adds
what the report says about the run; a baseline holds back known findings
(:func:`apply_baseline`); :func:`exit_code` follows. A probe (:func:`run_probe`): the server's
capture (:mod:`mcplint.probe.run`) is linted as a scan of the saved capture would lint it.
The front ends print; nothing here does."""

from __future__ import annotations

from contextlib import nullcontext
from typing import TYPE_CHECKING

from .config import Config
from .errors import EXIT_CLEAN, EXIT_FINDINGS, EXIT_INPUT

if TYPE_CHECKING:
    from .engine import Result


def scan(paths, config: Config, jobs: int | None = None, unsaved=None) -> Result:
    """Lint the files ``paths`` name. ``unsaved``: what ``probe --from`` found that a scan of
    its saved captures cannot see (:func:`add_unsaved`)."""
    from .engine import lint_paths

    result = lint_paths(paths, config, jobs=jobs)
    if unsaved is not None:  # the probe hook: servers it could not probe, or that listed nothing to save
        add_unsaved(result, unsaved)
    return result


def add_unsaved(result: Result, rest) -> None:
    """Add to a scan of the captures ``probe --from`` saved what that scan cannot see (``rest``,
    from :func:`mcplint.precommit.split_probe_from`): the servers it could not probe, as input
    errors before the scan's own, and the findings and tools of a server that listed nothing."""
    result.findings += rest.findings
    result.errors[:0] = rest.errors
    result.tools += rest.tools
    result.tool_index += rest.tool_index


def describe_run(result: Result, config: Config, unsaved=None) -> None:
    """What a scan's report says about the run besides the findings: the versions files that
    name none were checked as, the interpreters that imported Python servers, and notes (only
    PRB rules selected; files ``per-file-ignores`` leaves unchecked)."""
    from .sources import kind_of_document
    from .engine import active_rules

    if not config.versions_chosen:  # the text report says which version files that name none were checked as
        groups: dict = {}  # (versions, why) -> how many files
        for _origin, versions, why in result.assumed_per_file:
            groups[versions, why] = groups.get((versions, why), 0) + 1
        if groups:
            result.assumed_versions = [(*key, n) for key, n in groups.items()]
        served = [d.code.sdk_versions[-1] for d in result.documents if d.code is not None and d.code.sdk_versions]
        if served:
            result.sdk_checked_versions = (tuple(sorted(set(served))), len(served))
    result.interpreters = _interpreters(result.documents)
    if not any(m.family != "probe" for m in active_rules(config)) and not (
            unsaved is not None or any(kind_of_document(d).captures for d in result.documents)):  # PRB judges a capture
        result.notes.append("none of the selected rules checks files: the PRB rules judge a live server's "
                            "behaviour (run `mcplint probe`); select other rules to scan files")
    if config.per_file_ignores:
        result.notes += unchecked_note(config, [d.source.origin for d in result.documents])


def _interpreters(documents) -> list:
    """Each interpreter that imported Python servers: its path, what chose it (``named``: --python,
    $MCPLINT_SERVER_PYTHON or the configuration; else ``VIRTUAL_ENV``, ``.venv``, ``PATH`` or
    ``mcplint``, see mcplint.pysource.interpreter), that in words, and how many files."""
    seen: dict = {}
    for doc in documents:
        used = doc.code.interpreter if doc.code is not None else ()
        if used:
            entry = seen.setdefault(used, {"python": used[0], "chosen_by": used[1], "why": used[2], "files": 0})
            entry["files"] += 1
    return list(seen.values())


def unchecked_note(config: Config, origins) -> list[str]:
    """The note naming the files ``per-file-ignores`` leaves no rule for (they pass unchecked:
    ``exclude`` is the way to skip a file), or none. One test per set of matching globs."""
    from .config import glob_match, is_selected
    from .registry import all_rules

    checks: dict = {}
    unchecked = []
    for origin in origins:
        key = tuple(g for g in config.per_file_ignores if glob_match(origin, g))
        if key and key not in checks:
            checks[key] = any(is_selected(m.id, m.default, config, origin) for m in all_rules())
        if key and not checks[key]:
            unchecked.append(origin)
    if not unchecked:
        return []
    shown = ", ".join(unchecked[:5]) + (f" and {len(unchecked) - 5} more" if len(unchecked) > 5 else "")
    return [f"per-file-ignores leaves no rule to check {len(unchecked)} file{'s' * (len(unchecked) != 1)} "
            f"({shown}): they pass unchecked; use exclude to skip files"]


def record_baseline(result: Result, path: str) -> str:
    """Write every finding of ``result`` to the baseline file ``path``; what to tell the user."""
    from . import baseline

    n = baseline.write(path, result)
    return f"Recorded {n} finding{'s' * (n != 1)} in {path}."


def apply_baseline(result: Result, path: str) -> str | None:
    """Hold back the findings the baseline file ``path`` records; what to tell the user, if anything."""
    from . import baseline

    applied = baseline.apply(path, result)
    if applied.matched or applied.fixed:
        return (f"Baseline {path}: {applied.matched} known finding{'s' * (applied.matched != 1)} not shown"
                + (f", {applied.fixed} recorded finding{'s' * (applied.fixed != 1)} now fixed"
                   " (refresh with --update-baseline)" if applied.fixed else "") + ".")
    return None


def exit_code(result: Result, config: Config, exit_zero: bool = False) -> int:
    """0 clean, 1 findings at or above fail-on (0 with ``exit_zero``), 2 unreadable input, 3 a bug on one."""
    if result.errors:  # 2 for inputs that could not be used; 3 when mcplint itself failed on one
        return max(getattr(e, "exit_code", EXIT_INPUT) for e in result.errors)
    worst = result.worst()
    if exit_zero:
        return EXIT_CLEAN
    return EXIT_FINDINGS if worst is not None and worst >= config.fail_on else EXIT_CLEAN


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
    from .engine import Result, lint_captures

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
