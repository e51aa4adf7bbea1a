"""DSC: the descriptions a model chooses tools and fills arguments by: a tool without one, a
parameter without one, a description that only repeats the name. Conservative: they run by
default, but each is a warning or information, which fails no run unless ``--fail-on`` says
so (the text report folds information per rule and file). The limits a target puts on a
description's length are the profiles' (DEC008)."""

from __future__ import annotations

import re

from ..model import Severity
from ..registry import rule


def _blank(value) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


_NOT_WORD = re.compile(r"[\W_]+")


def _words(text: str) -> str:
    """A name or text as its letters and digits, lower case: ``get_weather``, ``getWeather`` and
    ``Get weather.`` are all ``getweather``."""
    return _NOT_WORD.sub("", text).lower()


def _repeats(text: str, name: str) -> bool:
    """``text`` says nothing but ``name`` (their letters and digits are the same). A long text is
    read from its start only until it holds more letters and digits than the name: most
    descriptions are far longer than their name, and reading them whole made this rule the
    costliest of the family (tests/rules/test_descriptions.py holds it to the plain test)."""
    word = _words(name)
    if not word:
        return False
    head = text[:4 * len(name) + 64]
    if len(head) < len(text) and len(_words(head)) > len(word):
        return False
    return _words(text) == word


@rule("DSC001", "tool-without-description", severity=Severity.WARNING, scope="tool",
      fix="Add a `description` that says what the tool does, when to use it and what it returns")
def tool_without_description(tool, ctx):
    """A tool has no description.

    ## What it does
    Reports a tool whose `description` is missing or blank.

    ## Why is this bad?
    `description` is optional in every MCP revision, but it is what a client puts in front of
    the model beside the name: the model picks a tool, and decides when not to, from the
    name and the description. A tool with a name only is called on a guess, or not at all.

    ## Example
    ```json
    {"name": "sync", "inputSchema": {"type": "object", "properties": {}}}
    ```

    ## Use instead
    ```json
    {"name": "sync", "description": "Push local calendar changes to the server; returns the number of events sent.",
     "inputSchema": {"type": "object", "properties": {}}}
    ```

    ## References
    MCP server/tools.mdx (every revision): `description`, "a human-readable description of
    functionality", which clients may use to improve the model's understanding of the tool;
    Anthropic, "Define tools" (platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools:
    detailed descriptions are the most important factor in tool performance); OpenAI,
    "Function calling" (platform.openai.com/docs/guides/function-calling: write clear, detailed
    function and parameter descriptions).
    """
    data = tool.data
    if isinstance(data, dict) and isinstance(data.get("name"), str) and _blank(data.get("description")):
        where = tool.pointer / "description" if "description" in data else tool.pointer
        yield ctx.finding(where, f"tool {data['name']!r} has no description: the model chooses tools by their name and "
                                 "description")


@rule("DSC002", "parameter-without-description", severity=Severity.INFO, scope="tool",
      fix="Add a `description` to the property: what the value means, its unit or format, an example")
def parameter_without_description(tool, ctx):
    """A parameter of a tool has no description.

    ## What it does
    Reports each property of a tool's `inputSchema` (its top-level `properties`: the tool's
    arguments) that has neither a `description` nor a `title`, and is not a `$ref` (whose
    target may describe it). The finding is on the property, so a Python server's finding is on
    the argument's line; the text report folds them into one line per file (`--show-info`
    lists them per tool).

    ## Why is this bad?
    The model fills each argument from its name, its schema and its description. A name such
    as `q`, `id` or `limit` says little about the unit, the format or which identifier is
    meant, and the model guesses.

    ## Example
    ```json
    {"name": "search", "description": "Search the catalogue.",
     "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}}
    ```

    ## Use instead
    ```json
    {"name": "search", "description": "Search the catalogue.",
     "inputSchema": {"type": "object", "properties": {"q": {"type": "string", "description": "Words to find in titles"}}}}
    ```

    ## References
    JSON Schema 2020-12 Validation §9.1 (`title` and `description` annotate an instance);
    Anthropic, "Define tools" (platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools);
    OpenAI, "Function calling" (platform.openai.com/docs/guides/function-calling).
    """
    data = tool.data
    schema = data.get("inputSchema") if isinstance(data, dict) else None
    props = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(props, dict):
        return
    for name, prop in props.items():
        if isinstance(prop, dict) and "$ref" not in prop and _blank(prop.get("description")) \
                and _blank(prop.get("title")):
            yield ctx.finding(tool.pointer / "inputSchema" / "properties" / name,
                              f"parameter {name!r} of tool {tool.label!r} has no description")


@rule("DSC003", "description-repeats-name", severity=Severity.INFO, scope="tool",
      fix="Say what the name does not: what it does or means, when to use it, units and formats")
def description_repeats_name(tool, ctx):
    """A tool's or a parameter's description only repeats its name.

    ## What it does
    Reports a description whose letters and digits are those of the name, in order, once case,
    spaces and punctuation are set aside (`get_weather` described as "Get weather.", a
    parameter `user_id` as "User ID").

    ## Why is this bad?
    Such a description tells the model nothing the name did not, and takes the place where
    what the tool does, or what the value means, would be said.

    ## Example
    ```json
    {"name": "get_weather", "description": "Get weather.",
     "inputSchema": {"type": "object", "properties": {"city": {"type": "string", "description": "City"}}}}
    ```

    ## Use instead
    ```json
    {"name": "get_weather", "description": "Current temperature and conditions for a city.",
     "inputSchema": {"type": "object", "properties": {"city": {"type": "string", "description": "City name, e.g. Paris"}}}}
    ```

    ## References
    MCP server/tools.mdx (`description`: a human-readable description of functionality);
    Anthropic, "Define tools" (platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools).
    """
    data = tool.data
    if not isinstance(data, dict):
        return
    name, desc = data.get("name"), data.get("description")
    if isinstance(name, str) and isinstance(desc, str) and _repeats(desc, name):
        yield ctx.finding(tool.pointer / "description", f"the description of tool {name!r} only repeats its name")
    schema = data.get("inputSchema")
    props = schema.get("properties") if isinstance(schema, dict) else None
    for key, prop in (props.items() if isinstance(props, dict) else ()):
        if isinstance(prop, dict) and isinstance(prop.get("description"), str) and _repeats(prop["description"], str(key)):
            yield ctx.finding(tool.pointer / "inputSchema" / "properties" / key / "description",
                              f"the description of parameter {key!r} only repeats its name")
