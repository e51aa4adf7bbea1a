"""``mcplint profiles`` (list) and ``mcplint profile NAME`` (what one profile enforces,
rejects, drops and rewrites, with the source of every fact). The words are the
describer's (:mod:`mcplint.profiles.describe`)."""

from __future__ import annotations

import json

import click

from .common import echo_json, echo_text

# What the [tag] after each source means (profile.schema.json's `tag`), said once under the profile.
TAGS = {
    "D": "the vendor's documentation says so",
    "S": "the vendor's SDK source code does so",
    "X": "probed here, with the real decoder or SDK (`mcplint verify` repeats it)",
    "I": "inferred from error reports (issues) of users who hit it",
    "?": "not verified: treat as a lead",
}


def tag_legend(text: str) -> list[str]:
    """The legend of the evidence tags that ``text`` uses, one line each."""
    import re

    used = set(re.findall(r"\[([DSXI?])\]$", text, re.M))
    if not used:
        return []
    out = ["## Evidence tags (after each source), and confidence"]
    out += [f"  [{t}] {TAGS[t]}" for t in TAGS if t in used]
    out.append("  confidence: high for D, S and X, medium for I, low for ?, unless the fact says otherwise")
    return out


@click.command("profiles")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def profiles(fmt: str) -> None:
    """List the built-in decoder profiles (and what the `default` and `strict` aliases stand for)."""
    from ..profiles import builtin_names, default_set, load_profile, strict_set
    from ..profiles.describe import listing_rows, listing_text

    rows = [load_profile(n) for n in builtin_names()]
    if fmt == "json":
        click.echo(json.dumps(listing_rows(rows), indent=2))
        return
    click.echo(listing_text(rows, default_set(), strict_set()))


@click.command("profile")
@click.argument("name")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--max-age", "max_age", type=click.IntRange(min=0), default=365, show_default=True, metavar="DAYS",
              help="Mark facts whose source was last read more than DAYS ago as STALE.")
def profile(name: str, fmt: str, max_age: int) -> None:
    """Show what profile NAME (or a profile file) enforces, rejects, drops and rewrites, with sources,
    and for each fact the kind and age of its evidence."""
    import datetime as _dt
    from ..errors import ConfigError
    from ..profiles import ALIASES, alias_set, builtin_names, load_profile
    from ..profiles.describe import profile_sheet

    if name in ALIASES:
        raise click.BadParameter(f"{name!r} is a set of profiles, not one: name one of "
                                 + ", ".join(alias_set(name)), param_hint="NAME")
    try:
        p = load_profile(name)
    except ConfigError as e:
        if e.origin != "--profile":
            raise
        raise click.BadParameter(f"unknown profile {name!r}; built-in profiles: " + ", ".join(builtin_names())
                                 + " (or give a path to a profile YAML file)", param_hint="NAME") from None
    today = _dt.date.today()
    if fmt == "json":
        from ..profiles.describe import evidence_rows

        data = p.as_dict()
        data["evidence"] = {"max_age_days": max_age, "facts": list(evidence_rows(p, today, max_age))}
        echo_json(json.dumps(data, indent=2))
        return
    text = profile_sheet(p, today, max_age)
    legend = tag_legend(text)
    echo_text(text.rstrip("\n") + "\n\n" + "\n".join(legend) if legend else text)  # (a profile file is input)
