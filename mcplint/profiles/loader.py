"""Loading profiles: the built-in ones (``profiles/*.yaml``, shipped in the wheel as
``mcplint._profiles``) by name, a user's own file by path.

Every file is validated against ``mcplint/data/profile.schema.json`` with
file:line:column errors, ``extends`` is resolved (a child's entries replace or remove
its parent's), and the result is a :class:`~.model.Profile`, cached per file.
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ..model import Pointer
from .model import ALIASES, DEFAULT_ALIAS, Fallback, Limit, Profile, Rule, Source, ToolName

BUILTIN_PACKAGE = "mcplint._profiles"


_SCHEMA_FILE = Path(__file__).resolve().parents[1] / "data" / "profile.schema.json"


def _builtin_dir() -> Path | None:
    try:  # find_spec, not importlib.resources: the same directory without importing zipfile and tempfile
        from importlib.util import find_spec

        spec = find_spec(BUILTIN_PACKAGE)
        for loc in (spec.submodule_search_locations or ()) if spec is not None else ():
            p = Path(loc)
            if p.is_dir():
                return p
    except (ModuleNotFoundError, TypeError, ValueError):
        pass
    here = Path(__file__).resolve().parents[2] / "profiles"  # a source checkout, not installed
    return here if here.is_dir() else None


def builtin_names() -> list[str]:
    d = _builtin_dir()
    return sorted(p.stem for p in d.glob("*.yaml")) if d else []


@lru_cache(maxsize=1)
def _profile_validator():
    from importlib.resources import files

    import jsonschema

    schema = json.loads(files("mcplint").joinpath("data/profile.schema.json").read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def profile_schema() -> dict:
    return _profile_validator().schema


def _read(path: Path) -> tuple[dict, Any]:
    """Parse and validate one profile file: (data, document), or a located ConfigError."""
    from ..errors import InputError
    from ..load import load_text

    origin = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise ConfigError(f"cannot read profile: {e.strerror or e}", origin=origin) from None
    except UnicodeDecodeError as e:
        from ..errors import undecodable_at

        line, col = undecodable_at(e)
        raise ConfigError("not a profile: the file is not UTF-8 text", origin=origin, line=line, col=col,
                          expected=_EXPECTED) from None
    try:
        doc = load_text(text, origin, "yaml")
    except InputError as e:
        raise ConfigError(e.message, origin=origin, line=e.line, col=e.col) from None
    _is_a_profile(doc, origin)
    if doc.duplicate_keys:
        ptr, _first = doc.duplicate_keys[0]
        span = doc.locate(ptr)
        raise ConfigError(f"key {ptr[-1]!r} appears twice in the same mapping", origin=origin,
                          line=span.line if span else None, col=span.col if span else None)
    errors = sorted(_profile_validator().iter_errors(doc.data),
                    key=lambda e: (doc.locate(Pointer(e.absolute_path)) or (0, 0), len(e.absolute_path)))
    if errors:
        err = _deepest(errors[0])
        ptr = Pointer(err.absolute_path) + _offending_key(err)
        span = doc.locate(ptr)
        where = str(ptr) or "/"
        more = f" (and {len(errors) - 1} more problem{'s' * (len(errors) > 2)})" if len(errors) > 1 else ""
        raise ConfigError(f"invalid profile at {where}: {_explain(err)}{more}", origin=origin,
                          line=span.line if span else None, col=span.col if span else None,
                          expected=_EXPECTED)
    for section in ("keywords",):
        for kw, rule in (doc.data.get(section) or {}).items():
            if isinstance(rule, dict) and rule.get("regex") and kw != "pattern":
                span = doc.locate(Pointer((section, kw, "regex")))
                raise ConfigError("'regex' features apply only to the 'pattern' keyword", origin=origin,
                                  line=span.line if span else None, col=span.col if span else None)
    return doc.data, doc


_EXPECTED = "a profile as described by mcplint/data/profile.schema.json"
_NEEDED = ("id", "title", "kind", "source")


def _is_a_profile(doc, origin: str) -> None:
    """A file that is not a profile at all (a list, some text, a mapping without one key a
    profile needs) is said to be one, without quoting it: the path may name any file."""
    data = doc.data
    if isinstance(data, dict) and any(k in data for k in _NEEDED):
        return
    if isinstance(data, dict):
        what = "a mapping without any of the keys a profile needs (" + ", ".join(_NEEDED) + ")"
    else:
        what = "nothing" if data is None else f"{_KIND.get(type(data), 'a value')} at its top level, not a mapping"
    raise ConfigError(f"not a profile: the file holds {what}", origin=origin, line=1, col=1, expected=_EXPECTED)


_KIND = {str: "text", list: "a list", int: "a number", float: "a number", bool: "a boolean", type(None): "nothing"}


def _offending_key(err) -> tuple:
    """Point at the key itself for errors about keys (unknown key, bad key name)."""
    if "propertyNames" in err.absolute_schema_path and isinstance(err.instance, str):
        return (err.instance,)
    if err.validator == "dependentRequired" and isinstance(err.instance, dict):
        needs = [k for k, deps in (err.validator_value or {}).items()
                 if k in err.instance and any(d not in err.instance for d in deps)]
        return (needs[0],) if needs else ()
    if err.validator == "additionalProperties" and isinstance(err.instance, dict):
        known = set((err.schema or {}).get("properties", {}))
        extra = [k for k in err.instance if k not in known]
        return (extra[0],) if extra else ()
    return ()


def _deepest(err):
    """For oneOf/anyOf failures, the most specific sub-error."""
    while err.context:
        err = max(err.context, key=lambda e: len(e.absolute_path))
    return err


def _explain(err) -> str:
    """The schema's complaint, quoting at most a short piece of the value it is about."""
    if err.validator == "additionalProperties":
        msg = err.message.replace("Additional properties are not allowed", "unknown key")
    elif err.validator == "type":
        want = err.validator_value if isinstance(err.validator_value, str) else " or ".join(err.validator_value)
        return f"expected {want}, found {_KIND.get(type(err.instance), 'a mapping')}"
    else:
        msg = err.message
    return msg if len(msg) <= 200 else msg[:197] + "..."


_MERGED = ("keywords", "constructs", "limits")


def _resolve(path: Path, stack: tuple = ()) -> tuple[dict, tuple, dict]:
    """(merged raw data with per-entry sources filled in, chain of parent ids, raw child data)."""
    kept = _kept_file(path)  # a shipped profile: from the compiled store (see .store), not its YAML
    if kept is not None:
        return kept
    data, doc = _read(path)
    src = data["source"]
    # fill in the file's default source on every entry of this file, before merging with a parent
    local: dict = {k: dict(v) if isinstance(v, dict) else v for k, v in data.items()}
    for section in _MERGED:
        if section in local:
            local[section] = {k: ({"source": src, **v} if isinstance(v, dict) else v)
                              for k, v in (local[section] or {}).items()}
    for single in ("default_action", "unknown_keywords", "tool_name"):
        if isinstance(local.get(single), dict):
            local[single] = {"source": src, **local[single]}
    for i, fb in enumerate(local.get("fallback") or ()):  # a route to a profile that is not there is a located error
        target = _locate(fb["to"], relative_to=path.parent)
        if target is None or target.resolve() == path.resolve():
            span = doc.locate(Pointer(("fallback", i, "to")))
            raise ConfigError(f"fallback to {fb['to']!r}: " + ("no such profile" if target is None else "itself"),
                              origin=str(path), line=span.line if span else None, col=span.col if span else None,
                              expected="one of " + ", ".join(builtin_names()) + ", or a path to another profile file")
        if target.parent.resolve() != (_builtin_dir() or path.parent).resolve():
            local["fallback"] = [dict(f) for f in local["fallback"]]
            local["fallback"][i]["to"] = str(target.resolve())
    parent_name = data.get("extends")
    if not parent_name:
        return local, (), data
    ppath = _locate(parent_name, relative_to=path.parent)
    if ppath is None or str(ppath.resolve()) in stack:
        span = doc.locate(Pointer(("extends",)))
        why = "extends itself (a cycle)" if ppath is not None else f"no profile {parent_name!r} to extend"
        raise ConfigError(why, origin=str(path), line=span.line if span else None,
                          col=span.col if span else None, expected="one of " + ", ".join(builtin_names()))
    parent, chain, _ = _resolve(ppath, stack + (str(path.resolve()),))
    if data.get("inherit"):
        parent = _inherit_only(parent, data["inherit"], doc, path)
    merged = dict(parent)
    for k, v in local.items():
        if k in _MERGED:
            section = dict(parent.get(k) or {})
            for name, entry in (v or {}).items():
                if entry is None:
                    section.pop(name, None)  # `name: null` removes an inherited entry
                else:
                    section[name] = entry
            merged[k] = section
        else:
            merged[k] = v
    for identity in ("display", "summary", "applies_to", "notes", "default_set", "strict_set", "verified_with",
                     "inherit"):  # describe the parent only
        if identity not in local:
            merged.pop(identity, None)
    return merged, (parent["id"],) + chain, data


_SINGLE = ("default_action", "unknown_keywords", "tool_name")


def _inherit_only(parent: dict, keep: dict, doc, path: Path) -> dict:
    """The parent reduced to what ``inherit:`` names; a name the parent does not have is a located error."""
    out = {k: v for k, v in parent.items() if k not in _MERGED and k not in _SINGLE}
    for section in _MERGED:
        have = parent.get(section) or {}
        for i, name in enumerate(keep.get(section) or ()):
            if name not in have:
                span = doc.locate(Pointer(("inherit", section, i)))
                raise ConfigError(f"inherit: {parent['id']!r} has no {section[:-1]} {name!r}", origin=str(path),
                                  line=span.line if span else None, col=span.col if span else None,
                                  expected=f"one of the parent's {section}: " + (", ".join(sorted(have)) or "(none)"))
        out[section] = {name: have[name] for name in keep.get(section) or ()}
    for single in _SINGLE:
        if keep.get(single):
            if parent.get(single) is None:
                span = doc.locate(Pointer(("inherit", single)))
                raise ConfigError(f"inherit: {parent['id']!r} has no {single}", origin=str(path),
                                  line=span.line if span else None, col=span.col if span else None)
            out[single] = parent[single]
    return out


def _locate(name_or_path: str, relative_to: Path | None = None) -> Path | None:
    looks_like_path = any(c in name_or_path for c in "/\\") or name_or_path.endswith((".yaml", ".yml"))
    if looks_like_path:
        p = Path(name_or_path)
        if not p.is_absolute() and relative_to is not None and not p.exists():
            p = relative_to / p
        return p if p.is_file() else None
    d = _builtin_dir()
    if d is not None and (d / f"{name_or_path}.yaml").is_file():
        return d / f"{name_or_path}.yaml"
    return None


def _build(data: dict, chain: tuple, origin: str) -> Profile:
    src = Source.from_dict(data["source"])
    return Profile(
        name=data["id"], title=data["title"], display=data.get("display") or data["title"], kind=data["kind"],
        summary=data.get("summary", ""), applies_to=data.get("applies_to", ""),
        slots=tuple(data.get("slots") or ("inputSchema",)), on_reject=data.get("on_reject", "fail-request"),
        source=src,
        keywords={k: Rule.from_dict(v, src) for k, v in (data.get("keywords") or {}).items() if v is not None},
        constructs={k: Rule.from_dict(v, src) for k, v in (data.get("constructs") or {}).items() if v is not None},
        limits={k: Limit.from_dict(k, v, src) for k, v in (data.get("limits") or {}).items() if v is not None},
        tool_name=ToolName.from_dict(data["tool_name"], src) if data.get("tool_name") else None,
        default_action=Rule.from_dict(data["default_action"], src) if data.get("default_action") else None,
        unknown_keywords=Rule.from_dict(data["unknown_keywords"], src) if data.get("unknown_keywords") else None,
        origin=origin, chain=chain, default_set=bool(data.get("default_set")),
        strict_set=bool(data.get("strict_set")), notes=tuple(data.get("notes") or ()),
        verified_with=data.get("verified_with"),
        fallback=tuple(Fallback.from_dict(f) for f in data.get("fallback") or ()),
        root_defaults=tuple(data["root_defaults"].items()) if data.get("root_defaults") else None,
    )


_CACHE: dict = {}
_TABLE: dict = {}  # built-in directory -> (stat signature of its files, {name: (data, chain, None) or None})


def _kept_file(path: Path):
    """:func:`_kept` for a file of the built-in directory, else None."""
    d = _builtin_dir()
    if d is None or path.suffix != ".yaml" or path.parent.resolve() != d.resolve():
        return None
    return _kept(path.stem)


def _kept(name: str):
    """The built-in profile ``name`` as :func:`_resolve` gives it, read from the compiled store
    (:mod:`.store`: every built-in file parsed and validated once, then kept until one of them,
    the profile schema or this module changes); None when it is not a valid built-in profile
    (it is then read from its file, which gives the located error) or there is no store."""
    d = _builtin_dir()
    if d is None:
        return None
    try:
        sig = tuple((e.name, e.stat().st_mtime_ns, e.stat().st_size) for e in os.scandir(d) if e.name.endswith(".yaml"))
    except OSError:
        return None
    hit = _TABLE.get(str(d))
    if hit is None or hit[0] != sig:
        from . import store

        _TABLE[str(d)] = (sig, {})  # while the table is built, parents are read from their files
        table = None
        key = store.fingerprint(d, (__file__, _SCHEMA_FILE))
        if key is not None:
            table = store.read(key)
            if table is None:
                table = {}
                for n in sorted(p.stem for p in d.glob("*.yaml")):
                    try:
                        data, chain, _ = _resolve(d / f"{n}.yaml")
                        table[n] = [data, list(chain)]
                    except ConfigError:
                        table[n] = None
                store.write(key, table)
        hit = _TABLE[str(d)] = (sig, {n: (e[0], tuple(e[1]), None) if e else None for n, e in (table or {}).items()})
    return hit[1].get(name)


def load_profile(name_or_path: str) -> Profile:
    """A built-in profile by name (``openai-strict``) or a profile file by path."""
    path = _locate(name_or_path)
    if path is None:
        looks_like_path = any(c in name_or_path for c in "/\\") or name_or_path.endswith((".yaml", ".yml"))
        if looks_like_path:
            raise ConfigError("no such profile file", origin=name_or_path)
        raise ConfigError(f"unknown profile {name_or_path!r}", origin="--profile",
                          expected=f"{', '.join(ALIASES)}, one of " + ", ".join(builtin_names())
                          + ", or a path to a YAML file")
    key = str(path.resolve())
    try:
        mtime = path.stat().st_mtime_ns
    except OSError:
        mtime = 0
    hit = _CACHE.get(key)
    if hit and hit[0] == mtime:
        return hit[1]
    data, chain, _ = _resolve(path)
    prof = _build(data, chain, str(path))
    _CACHE[key] = (mtime, prof)
    return prof


_ALIAS_SETS: dict = {}


def alias_set(alias: str) -> list[str]:
    """The built-in profiles an alias stands for (:data:`~.model.ALIASES`): those whose file sets
    the alias's key (``default_set: true``, ``strict_set: true``), in name order."""
    key = (str(_builtin_dir()), alias)
    if key in _ALIAS_SETS:
        return list(_ALIAS_SETS[key])
    field = ALIASES[alias]
    out = []
    for n in builtin_names():
        kept = _kept(n)
        try:
            if kept[0].get(field) if kept is not None else getattr(load_profile(n), field):
                out.append(n)
        except ConfigError:
            continue
    _ALIAS_SETS[key] = tuple(out)
    return out


def default_set() -> list[str]:
    """The profiles ``--profile default`` stands for: the MCP clients people run (Claude Code,
    Cursor, VS Code, Gemini CLI, Codex, the OpenAI Agents SDK as it sends tools by default), each
    judged as it sends tools; the providers' strict modes are ``--profile strict``."""
    return alias_set(DEFAULT_ALIAS)


def strict_set() -> list[str]:
    """The profiles ``--profile strict`` stands for: the providers' strict modes."""
    return alias_set("strict")


def expand_names(names) -> list[str]:
    out: list[str] = []
    for n in names:
        for m in (alias_set(n) if n in ALIASES else [n]):
            if m not in out:
                out.append(m)
    return out


def check_names(names) -> tuple[int, str] | None:
    """(index, message) of the first name that is neither an alias (``default``, ``strict``), a
    built-in profile nor a file."""
    for i, n in enumerate(names):
        if n not in ALIASES and _locate(n) is None:
            return i, (f"unknown profile {n!r} (expected {', '.join(ALIASES)}, one of " + ", ".join(builtin_names())
                       + ", or a path to a YAML file)")
    return None


def load_profiles(names) -> list[Profile]:
    return [load_profile(n) for n in expand_names(names)]
