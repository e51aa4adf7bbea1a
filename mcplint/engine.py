"""The pipeline, top to bottom: load -> collect -> rules -> (report, in the CLI).

:func:`lint_paths` is what ``mcplint scan`` runs; :func:`lint_document` is the entry for
text already in memory (the probe, tests, the Python API).
"""

from __future__ import annotations

import gc
from dataclasses import dataclass, field
from typing import AbstractSet, Any, Iterable, NamedTuple, Sequence

from .capture import one_per_saved_server
from .collect import Collection
from .config import Config, is_selected, unused_suppressions
from .errors import EXIT_INTERNAL, McplintError, NotAServer, rule_stopped
from .jobs import jobs_for
from .finish import RuleHit, finish
from .load import expand_paths
from .memo import Memo
from .model import ROOT, Document, Finding, Severity
from .packing import pack_findings, unpack_findings
from .registry import FILE_KINDS, Context, RuleMeta, all_rules
from .repeats import RepeatedSlots
from .schemawalk import UNSHARED, Walks
from .sources import held_by, kind_of, kind_of_document


class RuleCall(NamedTuple):
    """One rule made on one target: the rule, the function it runs, the context it runs with (one
    per rule, versions and profile, reused for every target of the collection), the versions its
    findings hold under and the profile's name (None for a rule without profiles)."""

    meta: RuleMeta
    func: Any
    ctx: Context
    versions: tuple
    profile: str | None


class FileFacts(NamedTuple):
    """What linting one file adds to the run besides its findings, from its collection."""

    assumed: tuple  # the versions a file that names none was checked for (collect.assume_versions)
    assumed_why: str
    notes: tuple  # what the report says about the file (a client configuration: where its servers are linted)
    redact: tuple  # literal secrets (a client configuration's), never shown
    capture: bool  # the file is a probe's saved capture (its findings may merge with other servers')


class FileOutcome(NamedTuple):
    """What linting one file gave. ``status`` "ok": its document, its tools' labels (each tool
    once however many versions list it), its findings, the suppress entries it used and what its
    collection adds to the run; else "error" (the input, exit 2) or "internal" (a bug in mcplint,
    exit 3), with the ``error``."""

    status: str
    doc: Document | None = None
    labels: Sequence[str] = ()
    findings: Any = ()  # a list of Finding (packed while it crosses from a worker: see _lint_chunk)
    used: AbstractSet = frozenset()
    facts: FileFacts | None = None
    error: McplintError | None = None


class InternalError(McplintError):
    exit_code = EXIT_INTERNAL
    kind = "internal error"


@dataclass
class Result:
    findings: list[Finding] = field(default_factory=list)
    files: int = 0
    tools: int = 0
    documents: list[Document] = field(default_factory=list)
    errors: list[McplintError] = field(default_factory=list)  # inputs that could not be linted
    tool_index: list[tuple[str, str]] = field(default_factory=list)  # (origin, tool label) of every tool seen
    profiles: list[str] = field(default_factory=list)  # names of the decoder profiles checked
    notes: list[str] = field(default_factory=list)  # warnings about the run itself (not findings)
    servers: list[dict] = field(default_factory=list)  # probe --from: what became of each configured server
    # scan: (origin, versions, why) of each file that names no protocol version, none being chosen: the
    # versions its content is consistent with, which it was checked for, and why (collect.assume_versions)
    assumed_per_file: list[tuple[str, tuple, str]] = field(default_factory=list)
    assumed_versions: list | None = None  # scan: [(versions, why, files)] for files naming none (the summary's)
    sdk_checked_versions: tuple | None = None  # scan: the same for Python servers, checked as their SDK's newest
    interpreters: list = field(default_factory=list)  # scan: what imported Python servers ({python, chosen_by, ...})
    # {origin: literal secrets}: an MCP client's configuration's, never shown in a code frame or a diff
    redactions: dict[str, tuple] = field(default_factory=dict)
    captures: list[Document] = field(default_factory=list)  # scan: the documents that are saved probe captures
    diff_exit: int = 0  # scan --diff: the exit code (1 when the fixes would change a file)
    changed_files: int = 0  # scan --fix: how many files the fixes changed

    def count(self, severity: Severity) -> int:
        return sum(1 for f in self.findings if f.severity == severity)

    def worst(self) -> Severity | None:
        return max((f.severity for f in self.findings), default=None)


def active_rules(config: Config, origin: str | None = None) -> list[RuleMeta]:
    return [m for m in all_rules() if is_selected(m.id, m.default, config, origin)]


def _profiles(config: Config) -> list:
    if not config.profiles:
        return []
    from .profiles import load_profiles  # only when profiles are in play ("default" expands to a set)

    return load_profiles(config.profiles)


def lint_collection(coll: Collection, config: Config, rules: list[RuleMeta] | None = None,
                    profiles: list | None = None, used: set | None = None) -> list[Finding]:
    """Every finding of the selected rules on one collection. ``used`` collects the indices
    of the ``suppress`` entries that silenced something."""
    return finish(_raw_findings(coll, config, rules, profiles), coll, config, used)


def _raw_findings(coll: Collection, config: Config, rules: list[RuleMeta] | None = None,
                  profiles: list | None = None, alike=None) -> list[RuleHit]:
    """What the selected rules found on one collection, as finish takes it. ``alike``: see
    :func:`lint_captures`."""
    rules = active_rules(config, coll.doc.source.origin) if rules is None else rules
    profiles = _profiles(config) if profiles is None else profiles
    raw: list[RuleHit] = []
    append = raw.append
    no_profile = [None]
    # Per (rule, versions): the version tuples a rule is called with, and one Context per
    # (rule, versions, profile), built once per collection and reused for every target:
    # a Context holds no per-target state. ~100k rule calls per 3,000 tools make this matter.
    plans: dict = {}
    memo = Memo()  # what the rules share while they lint this collection (dropped with it)

    def plan(meta: RuleMeta, versions: tuple) -> list:
        applicable = tuple(v for v in versions if v in meta.versions)
        if not applicable:
            return []
        calls = [(v,) for v in applicable] if meta.per_version else [applicable]
        return [(Context(meta, vs, config, profile, coll, memo), vs if meta.requires not in FILE_KINDS else (),
                 getattr(profile, "name", None)) for profile in (profiles if meta.profiled else no_profile) for vs in calls]

    by_scope: dict[str, list[RuleMeta]] = {"document": [], "tool": [], "slot": []}
    for m in rules:
        if m.profiled and not profiles:
            continue  # a profile rule runs once per profile: with none selected it cannot apply
        by_scope[m.scope].append(m)

    def calls_for(scope: str, versions: tuple, met: frozenset = frozenset()) -> list:
        """Every :class:`RuleCall` for one target of ``scope`` that meets the requirements ``met``
        (rules requiring anything else are left out)."""
        key = (scope, versions, met)
        calls = plans.get(key)
        if calls is None:
            calls = plans[key] = [RuleCall(meta, meta.func, ctx, vs, pname) for meta in by_scope[scope]
                                  if meta.applies(met)
                                  for ctx, vs, pname in plan(meta, versions)]
        return calls

    def run(calls: list, target, tool, slot_kind) -> None:
        memo.next_target()
        meta = None
        try:
            for meta, func, ctx, vs, pname in calls:
                for rf in func(target, ctx):
                    append(RuleHit(meta, rf, vs, tool, slot_kind, pname))
        except BaseException as e:  # out of stack: a bug (exit 3); a native library's panic: located (exit 2)
            raise rule_stopped(e, meta.id, coll.doc, target, slot_kind, InternalError) from None

    has_slot_rules = bool(by_scope["slot"])
    words = frozenset(m.requires for m in by_scope["slot"] if m.requires in _WORDS)
    repeats = RepeatedSlots(raw, run, memo.walks)  # a slot whose schema an earlier slot holds: see mcplint.repeats
    for tool in coll.tools:
        if alike is not None:
            alike.lint(tool, raw, run, calls_for, words if has_slot_rules else None, memo.walks)
            continue
        run(calls_for("tool", tool.versions, _tool_facts(tool)), tool, tool, None)
        if has_slot_rules:
            for slot in tool.slots():
                repeats.lint(slot, tool, calls_for("slot", tool.versions, _slot_facts(slot, words, memo.walks)))
    # The document's rules last: one that reads every slot (a profile's request limits) finds
    # what the slot rules kept of each (its walk and evaluation) rather than walking it first
    # for itself. (The order of the rules' findings is finish's sort.)
    run(calls_for("document", coll.versions, frozenset({coll.shape} & set(FILE_KINDS))), coll, None, None)
    memo.forget()  # (dropped with this call in any case: emptied now, nothing it kept outlives it)
    return raw


# In schemawalk.encoded form a string is "u", its length in 4 little-endian bytes, its bytes: so
# "\0\0\0" + a prefix finds every string shorter than 256 bytes that starts with it. One search
# per word requirement: "pattern" finds patternProperties too, and "$" every reference keyword ($ref,
# $dynamicRef, $recursiveRef, $id, $anchor, $dynamicAnchor; and $defs, $schema: a superset).
_WORDS = {"x-mcp-header": b"\0\0\0x-mcp-header", "pattern": b"\0\0\0pattern", "ref": b"\0\0\0$"}
_FACTS: dict = {}  # tuple of facts -> the same frozenset (plans are keyed by it)


def _interned(facts) -> frozenset:
    key = tuple(sorted(facts))
    found = _FACTS.get(key)
    if found is None:
        found = _FACTS[key] = frozenset(key)
    return found


def _tool_facts(tool) -> frozenset:
    """Which of registry.REQUIREMENTS a tool meets."""
    facts = []
    if tool.examples:
        facts.append("examples")
    if tool.context == "mcpdesc":
        facts.append("mcpdesc")
    return _interned(facts)


def _slot_facts(slot, wanted: frozenset = frozenset(_WORDS), walks: Walks = UNSHARED) -> frozenset:
    """Which of registry.REQUIREMENTS a slot meets (of the word requirements, only ``wanted``:
    those some selected rule declares). ``walks``: the collection's (its rules read the same
    encoding of the slot)."""
    schema = slot.schema
    facts = []
    if isinstance(schema, dict) and "$schema" in schema:  # the usual slot names no dialect
        from .jstruct.dialects import is_jstruct

        if is_jstruct(schema):
            facts.append("jstruct")
    if wanted:
        blob = walks.encoded(schema)  # the same encoding SEC108 and JST101 read
        for word in wanted:
            if blob is None or _WORDS[word] in blob:  # None: cannot tell, so assume it is there
                facts.append(word)
    return _interned(facts)


def lint_document(doc: Document, config: Config, used: set | None = None) -> tuple[Collection, list[Finding]]:
    """The document's collection and its findings (a probe capture's collections' findings
    sorted together)."""
    from .versions import ordered

    kind = kind_of_document(doc)
    colls = kind.collections(doc, config)
    if not kind.captures:
        return colls[0], lint_collection(colls[0], config, used=used)
    # A probe's capture file: linted as the probe that wrote it linted it.
    findings = lint_captures(colls, config, used)
    findings.sort(key=Finding.sort_key)
    whole = Collection(doc, "capture", [t for c in colls for t in c.tools],
                       ordered({v for c in colls for v in c.versions}), ROOT)
    return whole, findings


def lint_captures(colls: list, config: Config, used: set | None = None) -> list[Finding]:
    """The findings of a probe's captures (:func:`mcplint.capture.capture_collections`), a problem
    of several captures (the versions that got different listings) as one finding. A tool that
    an earlier capture listed alike is linted once (:mod:`mcplint.alike`), unless ``suppress``
    entries, which name one capture's places, are in play."""
    from .alike import AlikeTools
    from .capture import one_per_problem

    if config.suppress:
        return one_per_problem([f for c in colls for f in lint_collection(c, config, used=used)])
    alike = AlikeTools(_tool_facts, _slot_facts)
    # every capture's rules first: what one finds for a tool an earlier capture listed alike joins
    # that capture's findings, which finish then merges as one_per_problem would
    raws = [_raw_findings(c, config, alike=alike) for c in colls]
    if colls:  # every capture's findings mapped in one scan of the text (the captures share it; one
        # capture's finish at a time would map again all that the captures before it asked for)
        colls[0].doc.prepare([hit.finding.pointer for raw in raws for hit in raw])
    return one_per_problem([f for c, raw in zip(colls, raws) for f in finish(raw, c, config, used)])


class _no_cycle_collection:
    """Context manager: no cyclic garbage collection while files are linted.

    Linting builds many small objects (walk nodes, pointers, findings) and keeps most of
    them until a file is done, and the result keeps growing until the run is done, so the
    collector's passes find nothing and cost about a fifth of the run. The pipeline creates
    no reference cycles (tests/test_engine_gc.py keeps it so) and reference counting frees
    everything as usual; the collector's state is restored afterwards."""

    def __enter__(self):
        self.was_enabled = gc.isenabled()
        gc.disable()
        return self

    def __exit__(self, *exc):
        if self.was_enabled:
            gc.enable()
        return False


def _lint_file(path: str, config: Config) -> FileOutcome:
    """One file, start to finish: its "ok" outcome, or its "error" (a :class:`McplintError`)."""
    used: set = set()
    try:  # (under lint_paths' _no_cycle_collection, or in a worker that never collects)
        kind = kind_of(path)  # a data file, or a Python server (server.py[:object]) whose SDK lists the tools
        doc = kind.load(path, config)
        coll, findings = lint_document(doc, config, used)
        findings = kind.after_lint(doc, findings)
    except InternalError:
        raise
    except McplintError as e:
        return FileOutcome("error", error=e)
    facts = FileFacts(coll.assumed, coll.assumed_why, tuple(coll.notes), coll.redact, coll.shape == "capture")
    return FileOutcome("ok", doc, list(dict.fromkeys(t.label for t in coll.tools)), findings, used, facts)


def _lint_file_guarded(path: str, config: Config) -> FileOutcome:
    """:func:`_lint_file`, with a bug in mcplint caught as that file's "internal" outcome: the
    other files are still linted and reported (the run then exits 3)."""
    try:
        return _lint_file(path, config)
    except InternalError as e:
        return FileOutcome("internal", error=e)
    except Exception as e:  # a bug: carried to the parent, which reports it as an internal error
        import os

        if os.environ.get("MCPLINT_DEBUG"):
            import traceback

            traceback.print_exc()
        return FileOutcome("internal", error=InternalError(f"{type(e).__name__}: {e} (this is a bug in mcplint; "
                                                           "rerun with MCPLINT_DEBUG=1 for details)", origin=path))


def _outcomes(files: list[str], config: Config, jobs: int):
    if jobs <= 1:
        for path in files:
            yield _lint_file_guarded(path, config)
        return
    import functools
    import multiprocessing
    import os

    if "fork" not in multiprocessing.get_all_start_methods():  # no cheap workers here: stay sequential
        yield from _outcomes(files, config, 1)
        return
    # Workers are forked: objects they inherit stay shared with this process until written to,
    # and a collector pass writes to every object it visits. Freezing moves what exists now out
    # of the collector's sight, and workers (which lint, and create no cycles) never collect.
    gc.freeze()
    lifeline, held = os.pipe()  # the workers' lifeline (see _worker_start): only this process keeps `held`
    try:
        pool = multiprocessing.get_context("fork").Pool(jobs, initializer=_worker_start, initargs=(lifeline, held))
    except BaseException:
        os.close(lifeline)
        os.close(held)
        raise
    finally:
        gc.unfreeze()
    old_term = _on_sigterm(_terminated)
    try:
        size = max(1, len(files) // (jobs * 16))  # small chunks: no core idles on a late big file
        chunks = [files[i:i + size] for i in range(0, len(files), size)]
        # One task per chunk, chunksize 1: only then does imap return the iterator whose next()
        # takes a timeout (with a larger chunksize it wraps that iterator in a plain generator).
        results = pool.imap(functools.partial(_lint_chunk, config=config), chunks)
        while True:
            # Timed waits: a signal is handled only when this thread runs Python code, and the kernel
            # may hand SIGTERM to one of the pool's threads, which leaves an untimed wait asleep for ever.
            try:
                outcomes = results.next(timeout=0.2)
            except multiprocessing.TimeoutError:
                continue
            except StopIteration:
                break
            for outcome in outcomes:
                if outcome.status == "ok":  # (findings cross column by column: see _lint_chunk)
                    outcome = outcome._replace(findings=unpack_findings(outcome.findings))
                yield outcome
        pool.close()
    finally:
        pool.terminate()
        pool.join()
        os.close(held)  # (the workers are gone: none is left to read the lifeline)
        os.close(lifeline)
        _on_sigterm(old_term)


def _lint_chunk(paths: list[str], config: Config) -> list:
    """In a worker: the outcomes of ``paths``, each file's findings packed to cross to the parent."""
    out = []
    for path in paths:
        outcome = _lint_file_guarded(path, config)
        if outcome.status == "ok":
            outcome = outcome._replace(findings=pack_findings(outcome.findings))
        out.append(outcome)
    return out


def _worker_start(lifeline: int, held: int) -> None:
    """In each worker: no cycle collection (see above); Ctrl-C, which the whole terminal's
    process group gets, is left to the parent (which stops the workers: a worker interrupted
    mid-task would print a traceback and leave the pool waiting for it); SIGTERM kills at once
    (a worker the pool forks to replace a dead one after the parent installed its handler would
    otherwise inherit it); and the worker ends when the parent does, however it ends (killed
    outright, it leaves no worker holding the output pipes open).

    The last is the lifeline, a pipe the parent makes before the pool: the worker closes its
    copy of the write end (``held``) and a thread waits on the read end (``lifeline``). Nothing
    is ever written, so the read returns only at end of file, when no process holds the write
    end any more: the parent has ended (every worker closed its copy first thing, and any
    program a worker starts gets none: the pipe is not inheritable). A worker forked just as
    the parent left gets the end of file as soon as it has closed its own copy."""
    import os
    import signal
    import threading

    gc.disable()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.close(held)
    threading.Thread(target=_end_with_parent, args=(lifeline,), name="mcplint-lifeline", daemon=True).start()


def _end_with_parent(lifeline: int) -> None:
    """In a worker's thread: wait for the lifeline's end of file (the parent is gone), then end
    the worker at once."""
    import os

    try:
        while os.read(lifeline, 1):
            pass
    except OSError:
        pass
    os._exit(1)


def _terminated(signum, frame):
    """SIGTERM while workers run: end them and leave at once, quietly, with 143 (as a shell reports
    SIGTERM). Not through the pool's own cleanup: a worker the same signal killed (a group's
    SIGTERM reaches every process) may have died holding the pool's lock, and that cleanup waits
    for the lock forever."""
    import multiprocessing
    import os
    import sys

    for child in multiprocessing.active_children():
        child.kill()
    sys.stderr.flush()
    os._exit(128 + signum)


def _on_sigterm(handler):
    """Install ``handler`` for SIGTERM (main thread only); returns the previous one."""
    import signal

    if handler is None:
        return None
    try:
        return signal.signal(signal.SIGTERM, handler)
    except (ValueError, OSError):  # not the main thread, or no such signal here
        return None


def _add(result: Result, outcome: FileOutcome) -> None:
    doc, labels, findings, facts = outcome.doc, outcome.labels, outcome.findings, outcome.facts
    assert doc is not None and facts is not None  # (an "ok" outcome)
    result.files += 1
    result.tools += len(labels)
    result.tool_index += [(doc.source.origin, label) for label in labels]
    result.findings += findings
    result.documents.append(doc)
    result.notes += doc.notes
    result.notes += facts.notes
    if facts.assumed:
        result.assumed_per_file.append((doc.source.origin, facts.assumed, facts.assumed_why))
    if facts.redact:
        result.redactions[doc.source.origin] = facts.redact
    if facts.capture:
        result.captures.append(doc)


def lint_paths(paths: Iterable[str], config: Config, jobs: int | None = None) -> Result:
    """Lint every file. A file that cannot be read or understood is recorded in
    ``result.errors`` (the run goes on with the others, and exits 2 at the end).
    Big runs are spread over the machine's cores (``jobs``; the result is the same)."""
    result = Result()
    # an unknown or invalid profile stops the run before any file is read
    result.profiles = [p.name for p in _profiles(config)]
    files: list[str] = []
    for p in paths:
        try:
            files += expand_paths([p], config.exclude, result.errors)
        except McplintError as e:
            result.errors.append(e)
    used: set = set()
    not_servers: list[NotAServer] = []
    held: list = []
    with _no_cycle_collection():  # the result grows with every file: nothing in it is garbage
        for outcome in _outcomes(files, config, jobs_for(files, jobs)):
            if outcome.status != "ok":  # "error" (the input), or "internal" (a bug, exit 3)
                (not_servers if isinstance(outcome.error, NotAServer) else result.errors).append(outcome.error)
                continue
            used |= outcome.used
            kind = held_by(outcome.doc, files)
            if kind is not None:  # a Python server importing servers that other files of the run define:
                held.append((kind, outcome))  # reported there? (decided once every file is in)
            else:
                _add(result, outcome)
    if held:
        for kind, outcome in held:
            if (note := kind.passed_over(outcome.doc, files, result.documents)) is not None:
                result.notes.append(note)
            else:
                _add(result, outcome)
    if not_servers and result.files:  # passed over among servers that were scanned (a glob, a hook's files)
        result.notes.append(NotAServer.skipped(not_servers))
    else:  # alone, they are what the user asked for, and it cannot be done
        result.errors += not_servers
    # only the captures: a document back from a worker has left its data behind, and asking any
    # other file whether it is a capture would parse it again in this process and keep it
    result.findings = one_per_saved_server(result.findings, result.captures)
    if config.suppress and not result.errors:
        result.notes += unused_suppressions(config, used, [d.source.origin for d in result.documents])
    return result
