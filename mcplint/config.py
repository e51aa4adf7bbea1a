"""Configuration: defaults -> ``.mcplint.yaml`` or ``[tool.mcplint]`` -> command-line flags.

The file is found by searching upward from the working directory for ``.mcplint.yaml``,
``.mcplint.yml`` or a ``pyproject.toml`` with a ``[tool.mcplint]`` table (the first
directory holding any of them wins; ``--config`` names one explicitly). Keys are
kebab-case; an unknown key, rule or value is a located :class:`ConfigError`.

Example ``.mcplint.yaml``::

    select: [MCP, SCH, SEC]        # IDs or prefixes; default: every rule
    extend-select: [DEC]
    ignore: [SCH105]
    severity: {MCP106: error}      # override a rule's default severity
    protocol-versions: [2025-11-25, 2026-07-28]
    server-versions: [2025-06-18, 2025-11-25]   # what `mcplint probe` asks a server for (default: every version)
    profiles: [openai-strict]
    fail-on: warning
    bounds: {max-depth: 32, max-enum: 500}
    per-file-ignores: {"legacy/*.json": [MCP101]}
    exclude: ["fixtures/*", "openapi.json"]   # skipped when a directory is walked
    python: .venv/bin/python       # imports a Python server file (relative to this file; --python wins)
    factory: build_server          # called in a server file with no module-level server (--factory wins)
    server-name: github            # what users name the server in their clients (tool names shown as mcp_github_...)
    suppress:                      # one rule at one JSON Pointer (JSON has no comments)
      - {rule: SEC103, pointer: /tools/3/inputSchema/properties/pattern, file: "tools.json"}
"""

from __future__ import annotations

import fnmatch
import os
import re
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from .errors import ConfigError
from .model import Severity
from .versions import LATEST, VERSIONS


@dataclass(frozen=True)
class Bounds:
    """Resource bounds for schema processing (SEP-2106; JSON Structure binding §10)."""

    max_file_bytes: int = 10 * 1024 * 1024  # a larger input is refused with a clear error
    max_schema_bytes: int = 256 * 1024  # serialized size of one schema slot
    max_depth: int = 64  # nesting depth of subschemas in one slot
    max_subschemas: int = 2_000  # subschemas in one slot
    max_enum: int = 1_000  # values in one enum
    max_ref_expansions: int = 10_000  # $ref targets visited when expanding one slot
    max_pattern_length: int = 1_000  # characters in one regular expression


BOUND_KEYS = {f.name.replace("_", "-"): f.name for f in fields(Bounds)}


@dataclass(frozen=True)
class Config:
    select: tuple[str, ...] = ("ALL",)
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    severity: dict = field(default_factory=dict)  # rule id -> Severity
    protocol_versions: tuple[str, ...] = (LATEST,)
    versions_chosen: bool = False  # protocol_versions set by --protocol-version or the configuration
    server_versions: tuple[str, ...] = ()  # the versions the server supports: probe only these (``server-versions``)
    profiles: tuple[str, ...] = ()
    fail_on: Severity = Severity.ERROR
    bounds: Bounds = Bounds()
    per_file_ignores: dict = field(default_factory=dict)  # glob -> tuple of selectors
    suppress: tuple = ()  # of dicts {rule, pointer, file?}
    exclude: tuple[str, ...] = ()  # globs skipped when a directory is walked (besides load.DEFAULT_EXCLUDE)
    origin: str | None = None  # the config file read, if any
    python: str | None = None  # interpreter that imports a Python server file (default: the running one)
    import_timeout: float | None = None  # seconds a Python server file may take to import and list its tools
    factory: str | None = None  # function called in a Python server file that has no module-level server
    server_name: str | None = None  # what clients' configurations call the server (they name tools mcp_<it>_...)
    allow_env: tuple[str, ...] = ()  # environment variables `probe --from` may expand though their names look secret

    def __post_init__(self) -> None:
        if not self.versions_chosen and self.protocol_versions != (LATEST,):  # (Config(protocol_versions=...))
            object.__setattr__(self, "versions_chosen", True)  # versions other than the default were chosen

    def with_overrides(self, **changes: Any) -> "Config":
        return replace(self, **{k: v for k, v in changes.items() if v is not None})


KEYS = {
    "select", "extend-select", "ignore", "severity", "protocol-versions", "profiles", "fail-on",
    "bounds", "per-file-ignores", "suppress", "exclude", "server-versions", "python", "factory",
    "server-name", "allow-env",
}


ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def did_you_mean(word: str, choices) -> str:
    """``"; did you mean `select`?"`` for the closest valid choice (an underscore or case slip
    counts as close), or nothing when none is close."""
    import difflib

    norm = {c.lower().replace("_", "-"): c for c in choices}
    if str(word).lower().replace("_", "-") in norm:
        return f"; did you mean `{norm[str(word).lower().replace('_', '-')]}`?"
    close = difflib.get_close_matches(str(word).lower(), list(norm), n=1, cutoff=0.6)
    return f"; did you mean `{norm[close[0]]}`?" if close else ""


def _matches(selector: str, rule_id: str) -> bool:
    s = selector.upper()
    return s == "ALL" or rule_id.startswith(s)


def _specificity(selector: str) -> int:
    return 0 if selector.upper() == "ALL" else len(selector)


def is_selected(rule_id: str, default: bool, config: Config, origin: str | None = None) -> bool:
    """Ruff-style selection: the most specific matching selector decides; ignore wins ties."""
    best, chosen = -1, False
    for sel in (*config.select, *config.extend_select):
        if _matches(sel, rule_id) and _specificity(sel) >= best:
            if sel.upper() == "ALL" and not default:
                continue  # opt-in rules need naming
            best, chosen = _specificity(sel), True
    ignores = list(config.ignore)
    if origin:
        for pattern, sels in config.per_file_ignores.items():
            if glob_match(origin, pattern):
                ignores += list(sels)
    for sel in ignores:
        if _matches(sel, rule_id) and _specificity(sel) >= best:
            best, chosen = _specificity(sel), False
    return chosen


def glob_match(origin: str, pattern: str) -> bool:
    """Whether the file ``origin`` matches a ``per-file-ignores`` or ``suppress`` glob: the whole path,
    any tail of it, or its name."""
    o = origin.replace(os.sep, "/")
    return fnmatch.fnmatch(o, pattern) or fnmatch.fnmatch(o, "*/" + pattern) or fnmatch.fnmatch(Path(o).name, pattern)


def suppressed_by(config: Config, rule_id: str, origin: str, pointer: str) -> int | None:
    """The index of the first ``suppress`` entry that silences this finding, or None."""
    for i, s in enumerate(config.suppress):
        if s["rule"].upper() == rule_id and s["pointer"] == pointer and (
                "file" not in s or glob_match(origin, s["file"])):
            return i
    return None


def unused_suppressions(config: Config, used: set, origins: list[str]) -> list[str]:
    """Warnings for ``suppress`` entries that silenced nothing in a run over ``origins``
    (an entry naming a file that was not scanned is not judged)."""
    out = []
    for i, s in enumerate(config.suppress):
        if i in used or ("file" in s and not any(glob_match(o, s["file"]) for o in origins)):
            continue
        where = f" in {s['file']}" if "file" in s else ""
        out.append(f"suppress entry {i + 1} ({s['rule']} at {s['pointer'] or '/'}{where}) matched no finding: "
                   "remove it, or fix its rule, pointer or file")
    return out


# ---------------------------------------------------------------- reading files

class Where:
    """Locates a config key for error messages (YAML has exact spans; TOML a best line)."""

    def __init__(self, origin: str, doc=None, text: str | None = None, table: str | None = None):
        self.origin, self.doc, self.text, self.table = origin, doc, text, table

    def error(self, path: tuple, message: str, expected: str | None = None) -> ConfigError:
        line = col = None
        if self.doc is not None:
            span = self.doc.locate(path)
            if span:
                line, col = span.line, span.col
        elif self.text is not None and path:
            line = _toml_line(self.text, self.table, str(path[0]))
            col = 1 if line else None
        return ConfigError(message, origin=self.origin, line=line, col=col, expected=expected)


def _toml_line(text: str, table: str | None, key: str) -> int | None:
    in_table = table is None
    for i, raw in enumerate(text.splitlines(), 1):
        s = raw.strip()
        if s.startswith("["):
            in_table = s.strip("[] ").startswith(table or "")
            continue
        if in_table and (s.startswith(key + " ") or s.startswith(key + "=") or s.startswith(f'"{key}"')):
            return i
    return None


def _str_list(value, path, where: Where) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise where.error(path, "must be a list of strings")
    return tuple(value)


def rule_selectors(value, path, where: Where) -> tuple[str, ...]:
    """``value`` (a string or a list of strings at ``path``) as rule selectors, each a rule ID,
    a prefix of one or ``ALL``; anything else is a :class:`ConfigError` located by ``where``."""
    from .registry import all_rules

    items = _str_list(value, path, where)
    ids = [m.id for m in all_rules()]
    for i, sel in enumerate(items):
        if sel.upper() != "ALL" and not any(rid.startswith(sel.upper()) for rid in ids):
            raise where.error((*path, i), f"unknown rule or prefix {sel!r}",
                              expected="a rule ID such as SEC101, a prefix such as SEC, or ALL")
    return tuple(s.upper() for s in items)


def parse_settings(data: Any, where: Where, base: Config | None = None) -> Config:
    """``base`` (the defaults when None) with the settings of ``data``, a configuration's mapping
    (``where`` says where it comes from, for located errors)."""
    base = base or Config()
    if not isinstance(data, dict):
        raise where.error((), "configuration must be a mapping")
    changes: dict[str, Any] = {}
    for key, value in data.items():
        path = (key,)
        if key not in KEYS:
            raise where.error(path, f"unknown configuration key {key!r}{did_you_mean(key, KEYS)}",
                              expected="one of " + ", ".join(sorted(KEYS)))
        parse = _SETTING.get(key)
        if parse is not None:
            changes.update(parse(key, value, path, where, base))
    return replace(base, **changes)


def _rule_selection(key: str, value, path, where: Where, base: Config) -> dict:
    """select, extend-select, ignore: rule IDs and prefixes."""
    chosen = rule_selectors(value, path, where)
    if key == "select" and not chosen:  # (it would select nothing and pass)
        raise where.error(path, "must list at least one rule ID or prefix",
                          expected="a rule ID such as SEC101, a prefix such as SEC, or ALL")
    return {key.replace("-", "_"): chosen}


def _severities(key: str, value, path, where: Where, base: Config) -> dict:
    """severity: rule IDs to error, warning or info."""
    if not isinstance(value, dict):
        raise where.error(path, "must map rule IDs to error, warning or info")
    sev = {}
    from .registry import get

    for rid, level in value.items():
        meta = get(str(rid))
        if meta is None:
            raise where.error((*path, rid), f"unknown rule {rid!r}")
        try:
            sev[meta.id] = Severity.parse(str(level))
        except ValueError as e:
            raise where.error((*path, rid), str(e)) from None
    return {"severity": sev}


def _versions(key: str, value, path, where: Where, base: Config) -> dict:
    """protocol-versions, server-versions: at least one known protocol version."""
    vs = _str_list(value, path, where)
    for i, v in enumerate(vs):
        if v not in VERSIONS:
            raise where.error((*path, i), f"unknown protocol version {v!r}", expected=", ".join(VERSIONS))
    if not vs:  # (an empty protocol-versions would check nothing and pass)
        raise where.error(path, "must list at least one protocol version", expected=", ".join(VERSIONS))
    changes: dict[str, Any] = {key.replace("-", "_"): tuple(v for v in VERSIONS if v in vs)}
    if key == "protocol-versions":
        changes["versions_chosen"] = True
    return changes


def _profiles(key: str, value, path, where: Where, base: Config) -> dict:
    """profiles: names of decoder profiles, or paths to profile files."""
    names = _str_list(value, path, where)
    from .profiles import check_names

    bad = check_names(names)
    if bad is not None:
        raise where.error((*path, bad[0]) if isinstance(value, list) else path, bad[1])
    return {"profiles": names}


def _fail_on(key: str, value, path, where: Where, base: Config) -> dict:
    try:
        return {"fail_on": Severity.parse(str(value))}
    except ValueError as e:
        raise where.error(path, str(e)) from None


def _bounds(key: str, value, path, where: Where, base: Config) -> dict:
    """bounds: bound names to positive integers, over the base's bounds."""
    if not isinstance(value, dict):
        raise where.error(path, "must be a mapping of bound names to integers")
    b = {}
    for bk, bv in value.items():
        if bk not in BOUND_KEYS:
            raise where.error((*path, bk), f"unknown bound {bk!r}{did_you_mean(str(bk), BOUND_KEYS)}",
                              expected=", ".join(BOUND_KEYS))
        if not isinstance(bv, int) or isinstance(bv, bool) or bv < 1:
            raise where.error((*path, bk), "must be a positive integer")
        b[BOUND_KEYS[bk]] = bv
    return {"bounds": replace(base.bounds, **b)}


def _per_file_ignores(key: str, value, path, where: Where, base: Config) -> dict:
    if not isinstance(value, dict):
        raise where.error(path, "must map file globs to lists of rule IDs or prefixes")
    return {"per_file_ignores": {str(g): rule_selectors(v, (*path, g), where) for g, v in value.items()}}


def _exclude(key: str, value, path, where: Where, base: Config) -> dict:
    return {"exclude": _str_list(value, path, where)}


def _python(key: str, value, path, where: Where, base: Config) -> dict:
    """python: an interpreter, a path relative to the configuration file or a command on PATH."""
    if not isinstance(value, str) or not value.strip():
        raise where.error(path, "must be the path of a Python interpreter",
                          expected="a path such as .venv/bin/python (relative to the config file) or a "
                                   "command on PATH such as python3")
    # a path is the config file's; a bare command name (python3) is looked up on PATH
    rel = ("/" in value or os.sep in value) and not os.path.isabs(os.path.expanduser(value))
    return {"python": os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(where.origin)), value))
            if rel else os.path.expanduser(value)}


def _factory(key: str, value, path, where: Where, base: Config) -> dict:
    if not isinstance(value, str) or not all(part.isidentifier() for part in value.split(".")):
        raise where.error(path, "`factory` must be the name of a function in the server's module",
                          expected="a name such as build_server")
    return {"factory": value}


def _server_name(key: str, value, path, where: Where, base: Config) -> dict:
    if not isinstance(value, str) or not value.strip():
        raise where.error(path, "`server-name` must be the name clients' configurations give the server",
                          expected="a name such as github")
    return {"server_name": value}


def _allow_env(key: str, value, path, where: Where, base: Config) -> dict:
    names = _str_list(value, path, where)
    bad = next((i for i, n in enumerate(names) if not ENV_NAME.fullmatch(n)), None)
    if bad is not None:
        raise where.error((*path, bad), "must be the name of an environment variable",
                          expected="a name such as GITHUB_TOKEN")
    return {"allow_env": names}


def _suppress(key: str, value, path, where: Where, base: Config) -> dict:
    """suppress: {rule, pointer, file?} entries."""
    if not isinstance(value, list):
        raise where.error(path, "must be a list of {rule, pointer, file?} entries")
    out = []
    for i, item in enumerate(value):
        if not isinstance(item, dict) or not {"rule", "pointer"} <= set(item) or \
                set(item) - {"rule", "pointer", "file"}:
            raise where.error((*path, i), "each entry needs exactly rule and pointer (and optionally file)")
        rule_selectors([item["rule"]], (*path, i, "rule"), where)
        if not (item["pointer"] == "" or str(item["pointer"]).startswith("/")):
            raise where.error((*path, i, "pointer"), "must be a JSON Pointer starting with '/'")
        out.append({k: str(v) for k, v in item.items()})
    return {"suppress": tuple(out)}


# Each configuration key's parser: (key, value, its path, where, the base) -> the Config fields it sets.
_SETTING = {
    "select": _rule_selection, "extend-select": _rule_selection, "ignore": _rule_selection,
    "severity": _severities, "protocol-versions": _versions, "server-versions": _versions,
    "profiles": _profiles, "fail-on": _fail_on, "bounds": _bounds, "per-file-ignores": _per_file_ignores,
    "exclude": _exclude, "python": _python, "factory": _factory, "server-name": _server_name,
    "allow-env": _allow_env, "suppress": _suppress,
}


def _tool_table(data: dict, text: str, origin: str):
    """pyproject.toml's ``[tool.mcplint]``, which must be a table (as must ``tool``)."""
    tool = data.get("tool", {})
    section = tool.get("mcplint", {}) if isinstance(tool, dict) else None
    if isinstance(section, dict):
        return section
    import re

    what = "tool" if section is None else "tool.mcplint"
    key = re.compile(r"\s*(\[\[\s*tool\.mcplint\s*\]\]|tool\s*=|tool\.mcplint\s*=|mcplint\s*=)" if section is not None
                     else r"\s*(\[\[\s*tool\s*\]\]|tool\s*=)")
    line = next((i for i, ln in enumerate(text.splitlines(), 1) if key.match(ln)), None)
    raise ConfigError(f"`{what}` must be a table", origin=origin, line=line, col=1 if line else None,
                      expected="a [tool.mcplint] table of settings")


def find_config_file(start: Path) -> Path | None:
    for d in (start, *start.parents):
        for name in (".mcplint.yaml", ".mcplint.yml"):
            if (d / name).is_file():
                return d / name
        pp = d / "pyproject.toml"
        if pp.is_file() and "[tool.mcplint" in pp.read_text(encoding="utf-8", errors="replace"):
            return pp
    return None


def load_config(path: str | None = None, start: Path | None = None) -> Config:
    file = Path(path) if path else find_config_file(start or Path.cwd())
    if file is None:
        return Config()
    origin = str(file)
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as e:
        raise ConfigError(f"cannot read config file: {e.strerror or e}", origin=origin) from None
    except UnicodeDecodeError as e:  # located at the first byte that is not UTF-8, which is not quoted
        from .errors import undecodable_at

        line, col = undecodable_at(e)
        raise ConfigError("the config file is not UTF-8 text", origin=origin, line=line, col=col) from None
    if file.name == "pyproject.toml" or file.suffix == ".toml":
        try:
            import tomllib  # type: ignore[import-not-found]
        except ModuleNotFoundError:  # Python 3.10
            import tomli as tomllib  # type: ignore[no-redef]
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise ConfigError(f"invalid TOML: {e}", origin=origin) from None
        section = _tool_table(data, text, origin) if file.name == "pyproject.toml" else data
        cfg = parse_settings(section, Where(origin, text=text, table="tool.mcplint"))
    else:
        from .errors import InputError
        from .load import load_text

        if not any(ln.strip() not in ("", "---") and not ln.lstrip().startswith("#") for ln in text.splitlines()):
            return replace(Config(), origin=origin)  # an empty (or comments-only) file means the defaults
        try:
            doc = load_text(text, origin, "yaml")
        except InputError as e:
            raise ConfigError(e.message, origin=origin, line=e.line, col=e.col) from None
        cfg = parse_settings(doc.data, Where(origin, doc=doc))
    return replace(cfg, origin=origin)
