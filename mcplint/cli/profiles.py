"""``mcplint profiles`` (list) and ``mcplint profile NAME`` (what one profile enforces,
rejects, drops and rewrites, with the source of every fact)."""

from __future__ import annotations

import json

import click

ORDER = ("reject", "drop", "rewrite", "annotation", "enforce")
HEADINGS = {
    "reject": "Rejects (the request fails / no grammar / tool left out)",
    "drop": "Accepts but does not enforce (silent weakening)",
    "rewrite": "Rewrites before the model sees it",
    "annotation": "Treats as annotation only",
    "enforce": "Enforces",
}


@click.command("profiles")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def profiles(fmt: str) -> None:
    """List the built-in decoder profiles (and what the `default` alias stands for)."""
    from ..profiles import builtin_names, default_set, load_profile

    rows = [load_profile(n) for n in builtin_names()]
    if fmt == "json":
        click.echo(json.dumps([{"id": p.name, "kind": p.kind, "title": p.title, "extends": list(p.chain),
                                "default_set": p.default_set} for p in rows], indent=2))
        return
    width = max((len(p.name) for p in rows), default=10)
    for p in rows:
        ext = f" (extends {p.chain[0]})" if p.chain else ""
        star = "*" if p.default_set else " "
        click.echo(f"{p.name:<{width}} {star} {p.kind:<8} {p.title}{ext}")
    click.echo(f"\n* in the `default` set: --profile default = {', '.join(default_set())}")
    click.echo("Your own file: --profile ./my-model.yaml (see `mcplint profile NAME --format json` for the shape).")


def _line(subject: str, rule, cond: str = "") -> str:
    from ..profiles import evidence_line

    bits = [subject]
    if cond:
        bits.append(f"[{cond}]")
    msg = getattr(rule, "message", None)
    if msg:
        bits.append("- " + msg)
    err = getattr(rule, "error", None)
    if err:
        bits.append(f'\n      provider error: "{err}"')
    sdk = getattr(rule, "sdk", None)
    if sdk:
        bits.append(f"\n      client SDK: {sdk}")
    bits.append(f"\n      source: {evidence_line(rule.source)}")
    return "\n".join(line.rstrip() for line in ("    " + " ".join(bits)).split("\n"))


def _branches(subject: str, rule, prefix: str = ""):
    """(action, subject, condition words, rule) for a rule and its otherwise-chain."""
    cond = prefix
    while True:
        here = rule.when.describe() if rule.when else ""
        yield rule.action, subject, " and ".join(x for x in (cond, ("if " + here) if here else "") if x), rule
        for feat, fr in (rule.regex or {}).items():
            yield fr.action, f"{subject} ({feat.replace('_', ' ')})", "", fr
        if rule.otherwise is None:
            return
        cond = " and ".join(x for x in (cond, f"unless {here}" if here else "") if x)
        rule = rule.otherwise


@click.command("profile")
@click.argument("name")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def profile(name: str, fmt: str) -> None:
    """Show what profile NAME (or a profile file) enforces, rejects, drops and rewrites, with sources."""
    from ..errors import ConfigError
    from ..profiles import DEFAULT_ALIAS, LIMIT_WORDS, builtin_names, default_set, evidence_line, fill, load_profile

    if name == DEFAULT_ALIAS:
        raise click.BadParameter(f"{DEFAULT_ALIAS!r} is a set of profiles, not one: name one of "
                                 + ", ".join(default_set()), param_hint="NAME")
    try:
        p = load_profile(name)
    except ConfigError as e:
        if e.origin != "--profile":
            raise
        raise click.BadParameter(f"unknown profile {name!r}; built-in profiles: " + ", ".join(builtin_names())
                                 + " (or give a path to a profile YAML file)", param_hint="NAME") from None
    if fmt == "json":
        click.echo(json.dumps(p.as_dict(), indent=2))
        return
    click.echo(f"# {p.name}: {p.title}")
    click.echo(f"Kind: {p.kind}. Checks: {', '.join(p.slots)}. " + (f"Extends: {' -> '.join(p.chain)}. " if p.chain else "")
               + f"A rejection means: {p.on_reject}.")
    click.echo(f"Applies to: {p.applies_to}" if p.applies_to else "")
    click.echo(p.summary)
    click.echo(f"Source: {evidence_line(p.source)}")
    if p.verified_with:  # what `mcplint verify` held it against
        vw = p.verified_with
        click.echo(f"Verified with: {vw['package']} {vw['version']} ({vw['date']}); "
                   f"{len(vw.get('exceptions') or {})} documented exception(s)")
    click.echo()
    groups: dict = {a: [] for a in ORDER}
    for kw, rule in p.keywords.items():
        for action, subject, cond, r in _branches(kw, rule):
            groups[action].append(_line(subject, r, cond))
    for cname, rule in p.constructs.items():
        for action, subject, cond, r in _branches(f"<{cname}>", rule):
            groups[action].append(_line(subject, r, cond))
    if p.tool_name:
        groups[p.tool_name.action].append(_line(f"<tool name> must match {p.tool_name.pattern}", p.tool_name))
    for action in ORDER:
        if groups[action]:
            click.echo(f"## {HEADINGS[action]}")
            click.echo("\n".join(groups[action]) + "\n")
    for label, rule in (("any other JSON Schema keyword", p.default_action),
                        ("keys that are not JSON Schema keywords", p.unknown_keywords)):
        if rule is not None:
            click.echo(f"## {label.capitalize()}: {rule.action}")
            click.echo(_line("*", rule) + "\n")
    if p.limits:
        click.echo("## Limits")
        for lname, lim in p.limits.items():
            words = fill(LIMIT_WORDS.get(lname, lname), {"count": "N", "max": lim.max, "values": lim.over_values})
            click.echo(_line(f"{lname} <= {lim.max} ({lim.action}): {words}", lim))
        click.echo("")
    if p.notes:
        click.echo("## Notes")
        for n in p.notes:
            click.echo(f"  - {n}")
