"""REG005-REG007: a server.json's versions, the transport of each package and remote, and
each package's registryType, identifier and version."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from ...model import ROOT, Severity
from ...registry import rule
from .common import BASE_URLS, NEEDS_VERSION, REGISTRY_TYPES, clip, items, kind, manifest

_NUM = r"v?\d+(?:\.\d+){0,3}(?:-[0-9A-Za-z.-]+)?"
# The version forms the registry rejects as ranges (internal/validators/validators.go,
# looksLikeVersionRange): a comparator (^1.2.3, ~1.2, >=1.0), a hyphen range (1.2.3 - 2.0.0),
# alternatives (1.2 || 1.3) and a dotted version with a wildcard (1.x, 1.2.*).
_RANGES = (
    re.compile(rf"(?:\^|~|>=|<=|>|<|=)\s*{_NUM}"),
    re.compile(rf"{_NUM}\s-\s*{_NUM}"),
    re.compile(rf"{_NUM}\s*(?:\|\|\s*{_NUM}\s*)+"),
)
_DOTTED = re.compile(r"(?:v?\d+|[xX*])(?:\.(?:\d+|[xX*])){1,2}(?:-[0-9A-Za-z.-]+)?")
_URL = re.compile(r"https?://\S+")
_TEMPLATE = re.compile(r"\{([^{}]+)\}")


def version_problem(version: str) -> str | None:
    """Why the registry refuses this version string, else None."""
    if version == "latest":
        return "is \"latest\", which the registry reserves"
    text = version.strip()
    if not text:
        return None
    if any(r.fullmatch(text) for r in _RANGES) or (_DOTTED.fullmatch(text) and any(c in text for c in "xX*")):
        return "is a range, not one exact version"
    return None


@rule("REG005", "server-version-not-exact", severity=Severity.ERROR, scope="document", requires="server-json",
      fix="Give the exact version being published, e.g. \"1.4.2\"")
def server_version_not_exact(collection, ctx):
    """A server.json `version` (the server's or a package's) is `latest` or a range.

    ## What it does
    Reports the manifest's `version` and each package's `version` that is `latest`, empty (a
    package's), or a version range: a comparator (`^1.2.3`, `~1.2`, `>=1.0.0`), a hyphen range
    (`1.2.3 - 2.0.0`), alternatives (`1.2 || 1.3`) or a wildcard (`1.x`, `1.2.*`).

    ## Why is this bad?
    The registry stores one entry per published version and refuses `latest` (reserved) and
    ranges; a client installing the package needs the exact version the entry describes.

    ## Example
    ```json
    {"$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
     "name": "io.github.example/weather", "description": "Weather forecasts", "version": "latest",
     "packages": [{"registryType": "npm", "identifier": "@example/weather-mcp", "version": "^1.0.0",
                   "transport": {"type": "stdio"}}]}
    ```

    ## Use instead
    ```json
    {"$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
     "name": "io.github.example/weather", "description": "Weather forecasts", "version": "1.0.0",
     "packages": [{"registryType": "npm", "identifier": "@example/weather-mcp", "version": "1.0.0",
                   "transport": {"type": "stdio"}}]}
    ```

    ## References
    modelcontextprotocol/registry: internal/validators/validators.go (`validateVersion`:
    `reserved-version-string`, `version-looks-like-range`), the server.json schema (`version`
    descriptions; a package's `version`: minLength 1, not "latest"),
    docs/reference/server-json/examples/invalid/package-version-latest.json.
    """
    data = manifest(collection)
    if data is None:
        return
    places = [(ROOT / "version", data.get("version"), "the server's version")]
    places += [(ptr / "version", pkg.get("version"), f"package {i}'s version") for ptr, pkg in items(data, "packages")
               for i in [ptr[-1]] if "version" in pkg]
    for ptr, version, what in places:
        if not isinstance(version, str):
            continue
        problem = version_problem(version) if version.strip() or ptr[0] == "version" else "is empty"
        if problem is not None:
            shown = "" if version in ("", "latest") else f" {clip(version)}"
            yield ctx.finding(ptr, f"{what}{shown} {problem}")


def _variables_of_package(pkg: dict) -> set:
    """The names a package transport's URL may use in {braces}: its environment variables' and
    arguments' names and value hints (validators.go, collectAvailableVariables)."""
    names = set()
    for key in ("environmentVariables", "runtimeArguments", "packageArguments"):
        for entry in pkg.get(key) or ():
            if isinstance(entry, dict):
                names.update(v for k in ("name", "valueHint") if isinstance(v := entry.get(k), str) and v)
    return names


def transport_problems(ptr, transport, allowed: tuple, variables: set):
    """(pointer, message) for each problem of one transport object."""
    if not isinstance(transport, dict):
        yield ptr, f"the transport must be an object, found {kind(transport)}"
        return
    ttype = transport.get("type")
    if ttype is None:
        yield ptr, f"the transport has no \"type\" ({', '.join(allowed)})"
        return
    if ttype not in allowed:
        shown = clip(ttype) if isinstance(ttype, str) else kind(ttype)
        yield ptr / "type", f"transport type {shown} is not one of {', '.join(allowed)}"
        return
    url = transport.get("url")
    if ttype == "stdio":
        if url not in (None, ""):
            yield ptr / "url", "a stdio transport has no url (the client starts the package and talks over stdio)"
        return
    if not isinstance(url, str) or not url:
        yield ptr, f"a {ttype} transport needs a \"url\""
        return
    if not _URL.fullmatch(url):
        yield ptr / "url", f"the url {clip(url)} is not an http:// or https:// URL without spaces"
    undefined = sorted(set(_TEMPLATE.findall(url)) - variables)
    if undefined:
        where = ("the remote's variables" if ptr[0] == "remotes" else
                 "the package's arguments and environment variables")
        yield ptr / "url", (f"the url uses {', '.join('{' + v + '}' for v in undefined)}, which {where} do not "
                            "define")


@rule("REG006", "server-transport", severity=Severity.ERROR, scope="document", requires="server-json",
      fix="Give each package a transport {\"type\": \"stdio\"} (or streamable-http/sse with a url), and each remote "
          "a type streamable-http or sse with an http(s) url")
def server_transport(collection, ctx):
    """A server.json package or remote has no usable transport.

    ## What it does
    Checks the `transport` of each package and each entry of `remotes`: a package without a
    transport, a transport without a `type` or with one the registry does not know (a package:
    `stdio`, `streamable-http`, `sse`; a remote: `streamable-http` or `sse` only), a stdio
    transport with a `url`, an HTTP transport without an `http(s)://` url, and a url whose
    `{placeholders}` nothing defines (a package's arguments and environment variables, a
    remote's `variables`).

    ## Why is this bad?
    A client reads the transport to know how to talk to the server; the registry refuses a
    package or remote without one (`transport` is required) and each of the forms above.

    ## Example
    ```json
    {"$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
     "name": "io.github.example/weather", "description": "Weather forecasts", "version": "1.0.0",
     "packages": [{"registryType": "npm", "identifier": "@example/weather-mcp", "version": "1.0.0"}],
     "remotes": [{"type": "stdio", "url": "https://weather.example.com/mcp"}]}
    ```

    ## Use instead
    ```json
    {"$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
     "name": "io.github.example/weather", "description": "Weather forecasts", "version": "1.0.0",
     "packages": [{"registryType": "npm", "identifier": "@example/weather-mcp", "version": "1.0.0",
                   "transport": {"type": "stdio"}}],
     "remotes": [{"type": "streamable-http", "url": "https://weather.example.com/mcp"}]}
    ```

    ## References
    The registry's server.json schema (`Package.transport` required; `LocalTransport`,
    `RemoteTransport`, `StdioTransport`, `StreamableHttpTransport`, `SseTransport`);
    modelcontextprotocol/registry internal/validators/validators.go (`validatePackageTransport`,
    `validateRemoteTransport`: `stdio-transport-url-not-empty`, `unsupported-remote-transport-type`,
    `invalid-templated-url`).
    """
    data = manifest(collection)
    if data is None:
        return
    for ptr, pkg in items(data, "packages"):
        if "transport" not in pkg:
            yield ctx.finding(ptr, f"package {ptr[-1]} has no \"transport\" (e.g. {{\"type\": \"stdio\"}})")
            continue
        for where, message in transport_problems(ptr / "transport", pkg["transport"],
                                                 ("stdio", "streamable-http", "sse"), _variables_of_package(pkg)):
            yield ctx.finding(where, f"package {ptr[-1]}: {message}")
    for ptr, remote in items(data, "remotes"):
        names = set(remote["variables"]) if isinstance(remote.get("variables"), dict) else set()
        for where, message in transport_problems(ptr, remote, ("streamable-http", "sse"), names):
            yield ctx.finding(where, f"remote {ptr[-1]}: {message}")


def package_problems(ptr, pkg: dict):
    """(pointer, message, severity or None) for each registryType/identifier/version mismatch."""
    rtype, ident = pkg.get("registryType"), pkg.get("identifier")
    if not isinstance(rtype, str) or not isinstance(ident, str):
        return  # (missing or of the wrong type: REG001's)
    if rtype not in REGISTRY_TYPES:
        yield ptr / "registryType", (f"registryType {clip(rtype)} is not one the official registry accepts "
                                     f"({', '.join(REGISTRY_TYPES)})"), None
        return
    if any(c.isspace() for c in ident):
        yield ptr / "identifier", f"the {rtype} identifier {clip(ident)} contains whitespace", None
    is_url = "://" in ident
    if rtype in NEEDS_VERSION:
        if is_url:
            yield ptr / "identifier", f"a {rtype} identifier is a package name, not a URL ({clip(ident)})", None
        if "version" not in pkg:
            yield ptr, f"this {rtype} package has no \"version\": {rtype} packages name the exact version", None
        base = pkg.get("registryBaseUrl")
        if isinstance(base, str) and base.rstrip("/") not in BASE_URLS[rtype]:
            yield ptr / "registryBaseUrl", (f"registryBaseUrl {clip(base)} is not the {rtype} registry the official "
                                            f"registry accepts ({BASE_URLS[rtype][0]})"), None
    elif rtype == "mcpb":
        host = urlsplit(ident).hostname if is_url else None
        if not ident.startswith("https://") or host not in ("github.com", "gitlab.com"):
            yield ptr / "identifier", ("an mcpb identifier is the https:// download URL of a GitHub or GitLab release "
                                       f"asset, found {clip(ident)}"), None
        if "fileSha256" not in pkg:
            yield ptr, "this mcpb package has no \"fileSha256\", which the registry requires for mcpb", None
    elif rtype == "oci":
        if is_url:
            yield ptr / "identifier", f"an oci identifier is an image reference, not a URL ({clip(ident)})", None
        elif "@sha256:" not in ident and ":" not in ident.rsplit("/", 1)[-1]:
            yield ptr / "identifier", (f"the oci identifier {clip(ident)} names no tag or digest: the image it "
                                       "installs changes under the entry"), Severity.WARNING


@rule("REG007", "server-package-consistency", severity=Severity.ERROR, scope="document", requires="server-json",
      fix="Make registryType, identifier and version agree: npm/pypi/nuget name a package and its version, "
          "oci an image reference with its tag, mcpb a release download URL with its fileSha256")
def server_package_consistency(collection, ctx):
    """A server.json package's `registryType`, `identifier` and `version` do not agree.

    ## What it does
    For each package: a `registryType` the official registry does not accept (npm, pypi,
    nuget, oci, mcpb); an npm, pypi or nuget package without a `version`, with a URL for an
    identifier, or with a `registryBaseUrl` other than that registry's; an mcpb package whose
    identifier is not an `https://` GitHub or GitLab release URL or that has no `fileSha256`;
    an oci identifier that is a URL, or (a warning) names no tag or digest; an identifier with
    whitespace.

    ## Why is this bad?
    The registry looks each package up by these three members to verify its owner, and a
    client installs what they name; a mismatch is refused at publish time or installs
    something else than the entry describes.

    ## Example
    ```json
    {"$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
     "name": "io.github.example/weather", "description": "Weather forecasts", "version": "1.0.0",
     "packages": [{"registryType": "pypi", "identifier": "weather-mcp", "transport": {"type": "stdio"}},
                  {"registryType": "mcpb", "identifier": "https://example.com/weather.mcpb",
                   "transport": {"type": "stdio"}}]}
    ```

    ## Use instead
    ```json
    {"$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
     "name": "io.github.example/weather", "description": "Weather forecasts", "version": "1.0.0",
     "packages": [{"registryType": "pypi", "identifier": "weather-mcp", "version": "1.0.0",
                   "transport": {"type": "stdio"}},
                  {"registryType": "mcpb", "identifier": "https://github.com/example/weather/releases/download/v1.0.0/weather.mcpb",
                   "fileSha256": "fe333e598595000ae021bd27117db32ec69af6987f507ba7a63c90638ff633ce",
                   "transport": {"type": "stdio"}}]}
    ```

    ## References
    modelcontextprotocol/registry: docs/reference/server-json/official-registry-requirements.md
    ("Restricted Registry Base URLs"), docs/reference/server-json/CHANGELOG.md (2025-10-11:
    which members each registryType uses; fileSha256 required for mcpb),
    internal/validators/validators.go (`package-name-has-spaces`), internal/validators/package.go.
    """
    data = manifest(collection)
    if data is None:
        return
    for ptr, pkg in items(data, "packages"):
        for where, message, severity in package_problems(ptr, pkg):
            yield ctx.finding(where, f"package {ptr[-1]}: {message}", severity=severity)
