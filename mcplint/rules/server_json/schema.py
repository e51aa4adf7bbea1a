"""REG001-REG002: a server.json against the registry's published schema its ``$schema`` names
(each dated version is bundled), and whether that is the current one."""

from __future__ import annotations

from ...errors import unlink_validation_errors
from ...model import ROOT, Severity
from ...registry import rule
from .common import (CURRENT, CURRENT_URL, LAST_BREAKING, SCHEMA_DATES, clip, kind, manifest, pointer_of,
                     schema_date, validator)

def _covered(path: tuple, error) -> bool:
    """Is this schema error one a dedicated REG rule reports (with its own words and fix)?"""
    n, keyword = len(path), error.validator
    if n == 1 and path[0] == "name" and keyword in ("pattern", "maxLength", "minLength"):
        return True  # REG003
    if n == 1 and path[0] == "description" and keyword in ("maxLength", "minLength"):
        return True  # REG004
    if n == 1 and path[0] == "$schema":
        return True  # REG002
    if n == 3 and path[0] == "packages" and path[2] == "version" and keyword in ("not", "minLength"):
        return True  # REG005
    if path[:1] == ("packages",) and (n == 3 and path[2] == "transport" or n == 2 and keyword == "required"
                                      and error.validator_value and "'transport'" in error.message):
        return True  # REG006
    return n == 2 and path[0] == "remotes" and keyword == "anyOf"  # REG006


def _words(error) -> str:
    """What a schema error says, in words that quote the schema, not the value (clipped if quoted)."""
    keyword, expected, value = error.validator, error.validator_value, error.instance
    if keyword == "required":
        return error.message.replace("property", "member")
    if keyword == "type":
        return f"must be {' or '.join(expected) if isinstance(expected, list) else expected}, found {kind(value)}"
    if keyword == "enum":
        return f"must be one of {', '.join(map(repr, expected))}" + (
            f", found {clip(value)}" if isinstance(value, str) else f", found {kind(value)}")
    if keyword in ("maxLength", "minLength") and isinstance(value, str):
        most = "at most" if keyword == "maxLength" else "at least"
        return f"is {len(value)} characters long; the schema allows {most} {expected}"
    if keyword == "pattern":
        return f"does not match the schema's pattern {expected!r}"
    if keyword in ("anyOf", "oneOf"):
        forms = [c.message for c in (error.context or []) if not c.path][:1]
        return "matches none of the forms the schema allows here" + (f" (e.g. {forms[0]})" if forms else "")
    if keyword == "additionalProperties" and isinstance(value, dict):
        known = error.schema.get("properties", {}) if isinstance(error.schema, dict) else {}
        extra = [k for k in value if k not in known][:3]
        return (f"has {'a member' if len(extra) == 1 else 'members'} the schema does not define: {', '.join(map(clip, extra))}"
                if extra else "has members the schema does not allow")
    return f"fails the schema's {keyword!r}"


@rule("REG001", "server-json-schema", severity=Severity.ERROR, scope="document", requires="server-json",
      fix="Change the member to the form the server.json schema defines")
def server_json_schema(collection, ctx):
    """A server.json does not validate against the server.json schema it names.

    ## What it does
    Validates an MCP Registry `server.json` against the published schema its `$schema` names
    (every dated version, 2025-07-09 ... 2025-12-11, is bundled with mcplint and never
    fetched; a manifest naming none, or an unknown one, is validated against the current
    one) and reports each member that does not fit, where it is: a missing
    required member (`name`, `description`, `version`; a package's `registryType`,
    `identifier`), a wrong type, a value outside an enum, a string over its `maxLength` (a
    `title` over 100 characters, a `version` over 255, an icon `src` over 255). What the other
    REG rules report with their own words (the name, the description's length, versions,
    transports, `$schema`) is left to them. A manifest on an older schema is checked as that
    schema defines it (a 2025-07-09 manifest spells its members in snake_case), and REG002
    tells it to move to the current one.

    ## Why is this bad?
    The registry validates every published `server.json` against this schema and rejects one
    that fails; clients and sub-registries read the same format.

    ## Example
    ```json
    {"$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
     "name": "io.github.example/weather", "description": "Weather forecasts", "version": "1.0.0",
     "title": 42}
    ```

    ## Use instead
    ```json
    {"$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
     "name": "io.github.example/weather", "description": "Weather forecasts", "version": "1.0.0",
     "title": "Weather"}
    ```

    ## References
    The registry's server.json schemas, https://static.modelcontextprotocol.io/schemas/<date>/server.schema.json
    (published from modelcontextprotocol/static: schemas/<date>/server.schema.json; the
    current one is modelcontextprotocol/registry: docs/reference/server-json/server.schema.json,
    described in docs/reference/server-json/generic-server-json.md and CHANGELOG.md); the
    registry validates a manifest on publish (internal/validators/schema.go).
    """
    data = manifest(collection)
    if data is None:
        return
    uri = data.get("$schema")
    date = schema_date(uri) if isinstance(uri, str) else None
    if date not in SCHEMA_DATES:
        date = CURRENT  # none or an unknown one (REG002's error): checked as the current schema defines it
    errors = sorted(validator(date).iter_errors(data), key=lambda e: (list(map(str, e.absolute_path)), e.validator))
    found = []
    for error in errors:
        path = tuple(error.absolute_path)
        if not _covered(path, error):
            found.append((path, _words(error)))
    unlink_validation_errors(errors)
    for path, words in found:
        yield ctx.finding(pointer_of(path), f"{'/'.join(map(str, path)) or 'the manifest'} {words} "
                                            f"(server.json schema {date})")


@rule("REG002", "server-json-schema-version", severity=Severity.WARNING, scope="document", requires="server-json",
      fix=f"Set \"$schema\" to {CURRENT_URL}", fix_safety="varies",
      fix_note=f"Safe from a schema of {LAST_BREAKING} or later (what it declares means the same under the current "
               "one); from an older one the members were renamed too, so only --unsafe-fixes changes the URI")
def server_json_schema_version(collection, ctx):
    """A server.json names no `$schema`, or one that is not the current server.json schema.

    ## What it does
    Reads the manifest's `$schema`: missing or not a published server.json schema URI is an
    error; an older dated schema (2025-07-09 ... 2025-10-17) is a warning naming the current
    one. The fix sets `$schema` to the current URI; it is applied by `--fix` when the file's
    schema is 2025-09-29 or later (no member was renamed or removed since), by
    `--unsafe-fixes` otherwise (2025-09-16 renamed every member to camelCase and 2025-09-29
    removed `status`: the file needs those changes too).

    ## Why is this bad?
    The registry's validator requires `$schema` (an empty one is always an error) and reports
    a schema that is not the current version; the older formats differ (snake_case members
    before 2025-09-16, `status` until 2025-09-29, a package `version` required until
    2025-10-11), and clients and sub-registries read the current one. mcplint checks the file
    against the schema it names (REG001) and this rule says where to move.

    ## Example
    ```json
    {"$schema": "https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json",
     "name": "io.github.example/weather", "description": "Weather forecasts", "version": "1.0.0"}
    ```

    ## Use instead
    ```json
    {"$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
     "name": "io.github.example/weather", "description": "Weather forecasts", "version": "1.0.0"}
    ```

    ## References
    modelcontextprotocol/registry: docs/reference/server-json/CHANGELOG.md (every dated schema
    and what changed), internal/validators/schema.go and validation_types.go (the `$schema`
    version check: empty is an error, non-current is reported).
    """
    data = manifest(collection)
    if data is None:
        return
    uri = data.get("$schema")
    if uri is None:
        yield ctx.finding(ROOT, "the manifest has no \"$schema\"; the registry requires one (current: "
                                f"{CURRENT_URL})", severity=Severity.ERROR,
                          patch=[{"op": "add", "path": "/$schema", "value": CURRENT_URL}], safe=False)
        return
    date = schema_date(uri) if isinstance(uri, str) else None
    if date == CURRENT:
        return
    patch = [{"op": "replace", "path": "/$schema", "value": CURRENT_URL}]
    if date is None or date not in SCHEMA_DATES:
        shown = clip(uri) if isinstance(uri, str) else kind(uri)
        yield ctx.finding(ROOT / "$schema", f"\"$schema\" {shown} is not a published server.json schema; the current "
                                            f"one is {CURRENT_URL}", severity=Severity.ERROR, patch=patch, safe=False)
        return
    renamed = " (its members were renamed since: see the registry's CHANGELOG)" if date < LAST_BREAKING else ""
    yield ctx.finding(ROOT / "$schema", f"\"$schema\" names the server.json schema of {date}, which is deprecated; the "
                                        f"current one is {CURRENT_URL}{renamed}", patch=patch,
                      safe=date >= LAST_BREAKING)
