from __future__ import annotations

import json
import sys

import click

from ..verify.decoders import DECODERS


@click.command("verify")
@click.option("--decoder", "decoders", multiple=True, type=click.Choice(list(DECODERS)),
              help="Real decoder to run (installed locally); repeatable. Default: every installed one.")
@click.argument("paths", nargs=-1)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def verify(decoders, paths, fmt) -> None:
    """Run the per-keyword probe suite against real decoders, or compile your own
    schemas (PATHS) with them and report what they reject or do not enforce.

    Exit status: 0 nothing rejected or dropped in PATHS (or the suite ran), 1 some slot
    is rejected or weakened, 2 no decoder available or bad input.
    """
    from ..errors import InputError
    from ..verify.decoders import Unavailable, get
    from ..verify.run import run_suite

    names = decoders or tuple(DECODERS)
    loaded = []
    for name in names:
        try:
            loaded.append(get(name))
        except Unavailable as e:
            if decoders:
                raise InputError(str(e), expected="the decoder installed: pip install 'mcplint[decoders]'") from None
    if not loaded:
        raise InputError("no decoder is installed", expected="pip install 'mcplint[decoders]'")
    results = {d.name: (d, run_suite(d)) for d in loaded}
    if not paths:
        _print_suite(results, fmt)
        return
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
        reports += [(name, r) for r in verify_documents(dec, docs, outcomes)]
    bad = [(n, r) for n, r in reports if r.verdict != "compiled"]
    if fmt == "json":
        click.echo(json.dumps([{"decoder": n, **r.__dict__} for n, r in reports], indent=2))
    else:
        for n, r in bad:
            level = "error  " if r.verdict == "rejected" else "warning"
            click.echo(f"{r.origin}:{r.line}:{r.column}: {level} [{n}] tool {r.tool} {r.slot}: "
                       f"{r.verdict}: {r.detail}  ({r.pointer})")
        ok = sum(1 for _, r in reports if r.verdict == "compiled")
        click.echo(f"{ok} slot compilations succeeded; {sum(1 for _, r in bad if r.verdict == 'rejected')} rejected; "
                   f"{sum(1 for _, r in bad if r.verdict == 'dropped')} unenforced keywords.")
    sys.exit(1 if bad else 0)


def _print_suite(results, fmt):
    if fmt == "json":
        click.echo(json.dumps({name: {"version": d.version, "verdicts": {o.probe.id: {"verdict": o.verdict,
                                                                                    "detail": o.detail}
                                                                       for o in outs}}
                               for name, (d, outs) in results.items()}, indent=2))
        return
    names = list(results)
    click.echo("probe".ljust(30) + "".join(f"{n} {results[n][0].version}".ljust(24) for n in names))
    probes = [o.probe for o in results[names[0]][1]]
    for i, p in enumerate(probes):
        click.echo(p.id.ljust(30) + "".join(results[n][1][i].verdict.ljust(24) for n in names))
