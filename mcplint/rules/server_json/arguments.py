"""REG011-REG012: a server.json's package arguments, and the links a registry listing shows
(`websiteUrl`, icons), as the registry's validator checks them."""

from __future__ import annotations

from urllib.parse import urlsplit

from ...model import ROOT, Severity
from ...registry import rule
from .common import clip, items, manifest


def _arguments(data: dict):
    """(pointer, argument) of each object argument of each package."""
    for ptr, pkg in items(data, "packages"):
        for key in ("runtimeArguments", "packageArguments"):
            args = pkg.get(key)
            if isinstance(args, list):
                yield from ((ptr / key / i, a) for i, a in enumerate(args) if isinstance(a, dict))


def argument_problems(ptr, arg: dict):
    """(pointer, message) for each problem of one named argument."""
    if arg.get("type") != "named":
        return
    name = arg.get("name")
    if not isinstance(name, str) or not name:
        return  # (missing: REG001's)
    if any(c in name for c in "<> $"):
        yield ptr / "name", (f"the named argument {clip(name)} holds more than a flag (a space, <, > or $): put the "
                             "flag in name and the value in value, or a placeholder in valueHint")
        return
    for key in ("value", "default"):
        value = arg.get(key)
        if isinstance(value, str) and value.startswith(name):
            yield ptr / key, (f"the {key} of named argument {clip(name)} starts with the flag itself; clients write "
                              "the flag before the value, so it would appear twice")


@rule("REG011", "server-argument-shape", severity=Severity.ERROR, scope="document", requires="server-json",
      fix="Give a named argument its flag alone in name (\"--port\") and the value alone in value or default")
def server_argument_shape(collection, ctx):
    """A server.json named argument has its value in `name`, or repeats its flag in `value`.

    ## What it does
    For each named argument of each package (`runtimeArguments`, `packageArguments`): a
    `name` that holds a space, `<`, `>` or `$` (`"--port 8080"`, `"--dir <path>"`), and a
    `value` or `default` that starts with the flag (`"name": "--port", "value": "--port=8080"`).

    ## Why is this bad?
    A client builds the command line from the argument: the flag from `name`, then the value.
    A value in the name is passed as one odd flag, and a flag repeated in the value appears
    twice; the registry refuses both (`invalid-named-argument-name`,
    `argument-value-starts-with-name`).

    ## Example
    ```json
    {"$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
     "name": "io.github.example/weather", "description": "Weather forecasts", "version": "1.0.0",
     "packages": [{"registryType": "npm", "identifier": "@example/weather-mcp", "version": "1.0.0",
                   "transport": {"type": "stdio"},
                   "packageArguments": [{"type": "named", "name": "--units <metric|imperial>"}]}]}
    ```

    ## Use instead
    ```json
    {"$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
     "name": "io.github.example/weather", "description": "Weather forecasts", "version": "1.0.0",
     "packages": [{"registryType": "npm", "identifier": "@example/weather-mcp", "version": "1.0.0",
                   "transport": {"type": "stdio"},
                   "packageArguments": [{"type": "named", "name": "--units", "choices": ["metric", "imperial"]}]}]}
    ```

    ## References
    modelcontextprotocol/registry internal/validators/validators.go (`validateNamedArgumentName`,
    `validateArgumentValueFields`); the server.json schema (`NamedArgument`: "The flag name,
    including any leading dashes").
    """
    data = manifest(collection)
    if data is None:
        return
    for ptr, arg in _arguments(data):
        for where, message in argument_problems(ptr, arg):
            yield ctx.finding(where, message)


def _not_https(url) -> str | None:
    """Why a link is not an absolute https URL, else None."""
    if not isinstance(url, str):
        return None  # (REG001's)
    parts = urlsplit(url.strip())
    if not parts.scheme or not parts.netloc:
        return "is not an absolute URL"
    return None if parts.scheme.lower() == "https" else f"uses {parts.scheme}:, not https:"


@rule("REG012", "server-link-not-https", severity=Severity.ERROR, scope="document", requires="server-json",
      fix="Use an absolute https:// URL")
def server_link_not_https(collection, ctx):
    """A server.json `websiteUrl` or icon `src` is not an absolute `https://` URL.

    ## What it does
    Reports the manifest's `websiteUrl` and each icon's `src` that is relative or uses a scheme
    other than https (`http:`, `data:`, `file:`).

    ## Why is this bad?
    Registry listings and clients show these links and load these icons; the registry accepts
    only absolute https URLs for them (`website-url-invalid-scheme`, `icon-src-invalid-scheme`),
    so a `data:` icon or an `http:` homepage is refused at publish time.

    ## Example
    ```json
    {"$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
     "name": "io.github.example/weather", "description": "Weather forecasts", "version": "1.0.0",
     "websiteUrl": "http://weather.example.com", "icons": [{"src": "icon.png"}]}
    ```

    ## Use instead
    ```json
    {"$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
     "name": "io.github.example/weather", "description": "Weather forecasts", "version": "1.0.0",
     "websiteUrl": "https://weather.example.com", "icons": [{"src": "https://weather.example.com/icon.png"}]}
    ```

    ## References
    modelcontextprotocol/registry internal/validators/validators.go (`validateWebsiteURL`,
    `validateIcon`: absolute, https only); the server.json schema (`Icon.src`: "Must be an
    HTTPS URL").
    """
    data = manifest(collection)
    if data is None:
        return
    places = [(ROOT / "websiteUrl", data.get("websiteUrl"), "websiteUrl")] if "websiteUrl" in data else []
    places += [(ptr / "src", icon.get("src"), f"icon {ptr[-1]}'s src") for ptr, icon in items(data, "icons")]
    for ptr, url, what in places:
        problem = _not_https(url)
        if problem is not None:
            yield ctx.finding(ptr, f"{what} {problem}")
