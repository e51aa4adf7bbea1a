from __future__ import annotations

import json
import sys

import click

from ..verify.decoders import DECODERS
from .common import echo_json, echo_text


@click.command("verify")
@click.option("--decoder", "decoders", multiple=True, type=click.Choice(list(DECODERS)),
              help="Real decoder to run (installed locally); repeatable. Default: every installed one.")
@click.option("--profile", "profile_name", default=None, metavar="NAME",
              help="Profile to hold against the decoder (a built-in name or a YAML path). "
                   "Default: the profile named like the decoder.")
@click.option("--report", is_flag=True,
              help="Print the keyword x target matrix of every built-in profile as Markdown "
                   "(local-decoder columns checked live where the decoder is installed).")
@click.option("--table", is_flag=True, help="Also print every probe's verdict, not only the disagreements.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.argument("paths", nargs=-1)
def verify(decoders, profile_name, report, table, fmt, paths) -> None:
    """Hold decoder profiles against the real decoders, or compile your own schemas.

    Without PATHS: run the per-keyword probe suite on each decoder and print where its
    profile and the decoder disagree. With PATHS: compile each schema slot with the real
    decoder; report what it rejects, and what the probe suite shows it drops among the
    keywords the slot uses (where the profile says so too), with file:line:col.

    Exit status: 0 profile and decoder agree (PATHS: nothing rejected or dropped), 1 a
    disagreement (PATHS: some slot is rejected or weakened), 2 no decoder available or
    bad input.
    """
    from ..errors import InputError

    if report and paths:
        raise InputError("--report renders the matrix of the built-in profiles; it takes no PATHS",
                         origin="--report")
    loaded = _load(decoders, required=not report)
    from ..verify.run import run_suite

    results = {d.name: (d, run_suite(d)) for d in loaded}
    if report:
        from ..verify.report import render

        echo_text(render({name: outs for name, (_, outs) in results.items()}), nl=False)
        return
    if paths:
        _verify_paths(results, paths, profile_name, fmt)
        return
    _compare(results, profile_name, table, fmt)


def _load(names, required: bool):
    from ..errors import InputError
    from ..verify.decoders import Unavailable, get

    loaded = []
    for name in names or tuple(DECODERS):
        try:
            loaded.append(get(name))
        except Unavailable as e:
            if names:
                raise InputError(str(e), expected="the decoder installed: pip install 'mcplint[decoders]'") from None
    if required and not loaded:
        raise InputError("no decoder is installed", expected="pip install 'mcplint[decoders]'")
    return loaded


def _profile_for(decoder_name: str, profile_name: str | None):
    from ..profiles import load_profile

    return load_profile(profile_name or decoder_name)


def _compare(results, profile_name, table, fmt):
    from ..verify.compare import compare, stale_exceptions

    failed = False
    payload = []
    for name, (dec, outcomes) in results.items():
        profile = _profile_for(name, profile_name)
        rows = compare(profile, outcomes)
        stale = stale_exceptions(profile, rows)
        bad = [r for r in rows if not r.ok]
        failed = failed or bool(bad) or bool(stale)
        vw = profile.verified_with or {}
        if fmt == "json":
            payload.append({
                "decoder": name, "version": dec.version, "profile": profile.name, "verified_with": vw or None,
                "stale_exceptions": stale,
                "probes": [{"probe": r.probe.id, "keyword": r.probe.keyword, "profile": r.claim.verdict,
                            "decoder": r.outcome.verdict, "agrees": r.agrees, "exception": r.exception,
                            "why_profile": r.claim.reason(), "why_decoder": r.outcome.detail} for r in rows]})
            continue
        exc = [r for r in rows if not r.agrees and r.exception]
        echo_text(f"{name} {dec.version} against profile {profile.name}: {len(rows)} probes, "
                  f"{len(bad)} disagreement{'s' * (len(bad) != 1)}"
                  + (f", {len(exc)} documented exception{'s' * (len(exc) != 1)}" if exc else ""))
        if vw and (vw.get("package"), str(vw.get("version"))) != (_dist(dec), dec.version):
            echo_text(f"  note: the profile was verified with {vw.get('package')} {vw.get('version')} "
                      f"on {vw.get('date')}; this run used {_dist(dec)} {dec.version}")
        for r in rows:
            if table or not r.agrees:
                mark = "ok  " if r.agrees else ("exc " if r.exception else "DIFF")
                echo_text(f"  {mark} {r.probe.id:<30} profile: {r.claim.verdict:<17} decoder: {r.outcome.verdict}")
                if not r.agrees:
                    echo_text(f"         profile: {r.claim.reason()}")
                    if r.outcome.detail:
                        echo_text(f"         decoder: {r.outcome.detail}")
                    if r.exception:
                        echo_text(f"         documented exception: {r.exception}")
        for k in stale:
            echo_text(f"  STALE exception {k!r} in {profile.origin}: the profile and the decoder agree "
                      "(or no such probe); remove it")
    if fmt == "json":
        echo_json(json.dumps(payload, indent=2))
    sys.exit(1 if failed else 0)


def _dist(dec) -> str:
    return {"outlines": "outlines-core"}.get(dec.name, dec.name)


def _verify_paths(results, paths, profile_name, fmt):
    from ..collect import collect
    from ..config import Config
    from ..load import expand_paths, parse, read_source
    from ..verify.schemas import verify_documents

    config = Config()
    docs = []
    for p in expand_paths(paths):
        doc = parse(read_source(p, config.bounds.max_file_bytes))
        docs.append((doc, collect(doc, config.protocol_versions)))
    reports = []
    for name, (dec, outcomes) in results.items():
        profile = _profile_for(name, profile_name)
        reports += [(name, r) for r in verify_documents(dec, docs, outcomes, profile)]
    bad = [(n, r) for n, r in reports if r.verdict != "compiled"]
    if fmt == "json":
        echo_json(json.dumps([{"decoder": n, **r.__dict__} for n, r in reports], indent=2))
    else:
        for n, r in bad:
            level = "error  " if r.verdict == "rejected" else "warning"
            echo_text(f"{r.origin}:{r.line}:{r.column}: {level} [{n}] tool {r.tool} {r.slot}: "
                      f"{r.verdict}: {r.detail}  ({r.pointer})")
        ok = sum(1 for _, r in reports if r.verdict == "compiled")
        echo_text(f"{ok} slot compilations succeeded; {sum(1 for _, r in bad if r.verdict == 'rejected')} rejected; "
                  f"{sum(1 for _, r in bad if r.verdict != 'rejected')} unenforced or narrowed keywords.")
    sys.exit(1 if bad else 0)
