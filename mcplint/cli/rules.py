from __future__ import annotations

import json

import click

from ..registry import all_rules, get


@click.command("rules")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text", show_default=True,
              help="markdown: the full rule reference (docs/rules.md).")
def rules(fmt: str) -> None:
    """List every rule: ID, name, default severity, summary."""
    metas = all_rules()
    if fmt == "markdown":
        from ..docs import rules_markdown

        click.echo(rules_markdown(), nl=False)
        return
    if fmt == "json":
        click.echo(json.dumps([m.as_dict() for m in metas], indent=2))
        return
    for m in metas:
        click.echo(f"{m.id}  {m.name:<34} {m.severity.label:<8} {m.summary}")


@click.command("rule")
@click.argument("rule_id")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def rule(rule_id: str, fmt: str) -> None:
    """Explain one rule (by ID such as SEC101, or by name)."""
    m = get(rule_id)
    if m is None:
        raise click.BadParameter(f"no rule {rule_id!r}; `mcplint rules` lists them", param_hint="RULE_ID")
    if fmt == "json":
        click.echo(json.dumps(m.as_dict(), indent=2))
        return
    versions = "all protocol versions" if len(m.versions) == 5 else ", ".join(sorted(m.versions))
    click.echo(f"# {m.name} ({m.id})\n")
    click.echo(f"Family: {m.family}. Default severity: {m.severity.label}. Applies to: {versions}.")
    click.echo(f"Fix: {m.fix}\n")
    click.echo(m.summary + "\n")
    click.echo(m.explanation)
