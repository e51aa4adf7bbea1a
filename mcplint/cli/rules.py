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
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "json"]), default="text", show_default=True,
              help="text: rendered for the terminal; markdown: the same document as Markdown source.")
@click.option("--color/--no-color", default=None, help="Force colour on or off (default: on a terminal).")
def rule(rule_id: str, fmt: str, color) -> None:
    """Explain one rule (by ID such as SEC101, or by name)."""
    from ..docs import rule_markdown

    m = get(rule_id)
    if m is None:
        raise click.BadParameter(f"no rule {rule_id!r}; `mcplint rules` lists them", param_hint="RULE_ID")
    if fmt == "json":
        click.echo(json.dumps(m.as_dict(), indent=2))
        return
    text = rule_markdown(m)
    if fmt == "markdown":
        click.echo(text, nl=False)
        return
    click.echo(render_markdown(text, color), nl=False, color=bool(color) or None)


def render_markdown(text: str, color=None) -> str:
    """Markdown rendered for a terminal by rich: headings, emphasis, code blocks with their
    indentation, lists; in colour only on a terminal (or with --color)."""
    import shutil
    from io import StringIO

    from rich.console import Console
    from rich.markdown import Markdown

    from .common import use_color

    colored = use_color(color)
    width = min(shutil.get_terminal_size((100, 24)).columns, 100)
    buf = StringIO()
    console = Console(file=buf, force_terminal=colored, no_color=not colored, width=width, highlight=False,
                      color_system="standard" if colored else None)
    console.print(Markdown(text, code_theme="ansi_dark", hyperlinks=False))
    return "\n".join(line.rstrip() for line in buf.getvalue().split("\n"))
