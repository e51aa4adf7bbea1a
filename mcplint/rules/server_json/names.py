"""REG003, REG004, REG009: a server.json's name, the namespace it implies, and its description."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from ...model import ROOT, Severity
from ...registry import rule
from .common import clip, manifest

# The registry's name grammar (internal/validators/validators.go): a namespace and a name, each
# starting and ending with a letter or digit; dots and hyphens inside a namespace, dots,
# underscores and hyphens inside a name.
_NAMESPACE = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?")
_NAME_PART = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?")
NAME_MAX = 200  # the schema's maxLength of `name`
DESCRIPTION_MAX = 100  # the schema's maxLength of `description`
# Top-level domains seen last in a domain written forwards ("example.com/server" for "com.example/server").
_TLDS = frozenset("com org net io dev ai app co me info biz cloud tech xyz sh so us uk de fr eu".split())


def _name(collection):
    data = manifest(collection)
    name = data.get("name") if data is not None else None
    return name if isinstance(name, str) else None


def name_problem(name: str) -> str | None:
    """Why the registry refuses this server name, else None."""
    if "/" not in name:
        return "has no namespace: the registry's names are \"namespace/name\" (e.g. io.github.user/weather)"
    if name.count("/") > 1:
        return "has more than one \"/\": the registry's names have exactly one, between namespace and name"
    namespace, part = name.split("/")
    if not namespace or not part:
        return "has an empty namespace or name around its \"/\""
    if not _NAMESPACE.fullmatch(namespace):
        return (f"has the namespace {clip(namespace)}, which must start and end with a letter or digit and hold "
                "only letters, digits, dots and hyphens")
    if not _NAME_PART.fullmatch(part):
        return (f"has the name part {clip(part)}, which must start and end with a letter or digit and hold only "
                "letters, digits, dots, underscores and hyphens")
    if len(name) > NAME_MAX:
        return f"is {len(name)} characters long; the registry allows at most {NAME_MAX}"
    return None


@rule("REG003", "server-name-format", severity=Severity.ERROR, scope="document", requires="server-json",
      fix="Name the server \"namespace/name\" with a reverse-DNS namespace, e.g. io.github.user/weather")
def server_name_format(collection, ctx):
    """A server.json `name` is not the reverse-DNS `namespace/name` the registry requires.

    ## What it does
    Checks the manifest's `name` against the registry's grammar: exactly one `/` between a
    namespace and a name, each starting and ending with a letter or digit (dots and hyphens
    inside the namespace; dots, underscores and hyphens inside the name), at most 200
    characters. A name without a `/` has no namespace at all.

    ## Why is this bad?
    The registry refuses to publish such a name (`invalid-server-name`), and the namespace is
    what the registry authenticates: a name without one cannot be published by anyone.

    ## Example
    ```json
    {"$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
     "name": "weather", "description": "Weather forecasts", "version": "1.0.0",
     "remotes": [{"type": "streamable-http", "url": "https://weather.example.com/mcp"}]}
    ```

    ## Use instead
    ```json
    {"$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
     "name": "com.example/weather", "description": "Weather forecasts", "version": "1.0.0",
     "remotes": [{"type": "streamable-http", "url": "https://weather.example.com/mcp"}]}
    ```

    ## References
    modelcontextprotocol/registry: internal/validators/validators.go (`parseServerName`: the
    namespace and name patterns, one slash), the server.json schema (`name`: pattern,
    maxLength 200), docs/reference/server-json/generic-server-json.md.
    """
    name = _name(collection)
    if name is None:
        return
    problem = name_problem(name)
    if problem is not None:
        yield ctx.finding(ROOT / "name", f"server name {clip(name)} {problem}")


@rule("REG004", "server-description-length", severity=Severity.ERROR, scope="document", requires="server-json",
      fix="Shorten the description to 100 characters or fewer (the README can say the rest)")
def server_description_length(collection, ctx):
    """A server.json `description` is longer than 100 characters, or empty.

    ## What it does
    Counts the characters of the manifest's `description`: more than 100, or none but
    whitespace, is a finding with the length.

    ## Why is this bad?
    The registry's schema caps `description` at 100 characters (`maxLength: 100`,
    `minLength: 1`) and the registry rejects a manifest over it; registry listings and client
    pickers show this one line.

    ## Example
    ```json
    {"$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
     "name": "io.github.example/weather", "version": "1.0.0",
     "description": "An MCP server that gives your assistant current weather conditions, hourly and daily forecasts, and alerts"}
    ```

    ## Use instead
    ```json
    {"$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
     "name": "io.github.example/weather", "version": "1.0.0",
     "description": "Current weather, hourly and daily forecasts, and alerts"}
    ```

    ## References
    The registry's server.json schema (`description`: minLength 1, maxLength 100);
    modelcontextprotocol/registry docs/reference/server-json/examples/invalid/description-too-long.json.
    """
    data = manifest(collection)
    text = data.get("description") if data is not None else None
    if not isinstance(text, str):
        return
    if len(text) > DESCRIPTION_MAX:
        yield ctx.finding(ROOT / "description", f"the description is {len(text)} characters long; the registry allows "
                                                f"at most {DESCRIPTION_MAX}")
    elif not text.strip():
        yield ctx.finding(ROOT / "description", "the description is empty; the registry requires one")


def _github_owner(url) -> str | None:
    if not isinstance(url, str):
        return None
    parts = urlsplit(url.strip())
    if parts.hostname not in ("github.com", "www.github.com"):
        return None
    segments = [s for s in parts.path.split("/") if s]
    return segments[0] if segments else None


@rule("REG009", "server-namespace-ownership", severity=Severity.WARNING, scope="document", requires="server-json",
      fix="Use io.github.<your GitHub user or organisation>/NAME, or the reverse of a domain you own (com.example/NAME)")
def server_namespace_ownership(collection, ctx):
    """A server.json's namespace is one its publisher is unlikely to be able to prove.

    ## What it does
    Reads the namespace (before the `/`) as the registry's authentication does: an
    `io.github.<owner>` namespace is granted to that GitHub user or organisation, any other to
    whoever proves the domain it reverses (`com.example` for `example.com`). It reports a
    namespace that is no domain at all (no dot), a domain written forwards (`example.com/...`
    for `com.example/...`), and an `io.github.<owner>` namespace whose `repository.url` is on
    GitHub under another owner.

    ## Why is this bad?
    Publishing under a namespace needs a login as that GitHub owner, or a DNS or HTTP proof
    for that domain; a namespace that reverses no domain, or names someone else, fails at
    `mcp-publisher login`/`publish` rather than in review.

    ## Example
    ```json
    {"$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
     "name": "example.com/weather", "description": "Weather forecasts", "version": "1.0.0",
     "remotes": [{"type": "streamable-http", "url": "https://weather.example.com/mcp"}]}
    ```

    ## Use instead
    ```json
    {"$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
     "name": "com.example/weather", "description": "Weather forecasts", "version": "1.0.0",
     "remotes": [{"type": "streamable-http", "url": "https://weather.example.com/mcp"}]}
    ```

    ## References
    modelcontextprotocol/registry: docs/reference/server-json/official-registry-requirements.md
    ("Namespace Authentication": to publish `com.example/server` the publisher must prove they
    own `example.com`), the publishing guide (GitHub login grants `io.github.<user>`; DNS and
    HTTP verification grant a domain's namespace).
    """
    name = _name(collection)
    if name is None or name.count("/") != 1 or name_problem(name) is not None:
        return  # (REG003's)
    namespace = name.split("/")[0]
    labels = namespace.lower().split(".")
    ptr = ROOT / "name"
    if len(labels) < 2:
        yield ctx.finding(ptr, f"the namespace {clip(namespace)} reverses no domain: the registry grants only "
                               "io.github.<owner> (a GitHub login) or a reversed domain you prove (DNS or HTTP)")
    elif labels[-1] in _TLDS and labels[0] not in _TLDS:
        yield ctx.finding(ptr, f"the namespace {clip(namespace)} looks like a domain written forwards; the "
                               f"registry's namespaces reverse it ({'.'.join(reversed(labels))})")
    elif labels[:2] == ["io", "github"] and len(labels) == 3:
        data = manifest(collection)
        repo = data.get("repository") if isinstance(data.get("repository"), dict) else {}
        owner = _github_owner(repo.get("url"))
        if owner is not None and owner.lower() != labels[2]:
            yield ctx.finding(ptr, f"the namespace {clip(namespace)} is GitHub owner {clip(labels[2])}'s, but "
                                   f"repository.url is under {clip(owner)}: publishing needs a login as "
                                   f"{clip(labels[2])}")
