"""Fixes in the author's terms: a finding in a schema that pydantic (or zod) generated says
what to change in the model, not in JSON the author never wrote.

:func:`restate` rewrites a finding's fix title when the finding's place and subject are ones
the generator controls (an object's extra keys, a property's optionality, a constraint a
target does not enforce, a free-form map); the schema-terms fix follows in brackets, and a
JSON patch stays as it was. Anything else is left alone: a fix is never made up.
"""

from __future__ import annotations

import ast
import functools
import inspect
import json
import re
from dataclasses import replace

from ..model import Finding, Fix, Severity
from .places import NOTHING_TO_CHANGE, OPTIONAL_WORDS, OUTSIDE_THE_CODE, closing, is_arguments, node_at, property_at, subject_of
from .zod import looks_zod, tools_of, zod_fix

# JSON Schema keyword -> the pydantic ``Field()`` argument that writes it
PYDANTIC_FIELD = {
    "maxLength": "max_length", "minLength": "min_length", "pattern": "pattern",
    "maximum": "le", "minimum": "ge", "exclusiveMaximum": "lt", "exclusiveMinimum": "gt",
    "multipleOf": "multiple_of", "maxItems": "max_length", "minItems": "min_length",
}


def _optional_branch(f: Finding, doc) -> tuple | None:
    """(object pointer, property, keyword) for a keyword in the non-null branch of an ``Optional``
    property (``.../properties/p/anyOf/0/maxItems``): pydantic writes a ``Field``'s constraints of
    ``Optional[X]`` there. None for any other pointer (a ``$ref`` there has words of its own)."""
    p = tuple(f.pointer)
    if not (len(p) >= 5 and p[-3] == "anyOf" and p[-5] == "properties" and isinstance(p[-4], str)
            and (p[-1] in PYDANTIC_FIELD or p[-1] == "format")):
        return None
    branches = node_at(doc, f.pointer.parent.parent)
    if not (isinstance(branches, list) and len(branches) == 2 and {"type": "null"} in branches):
        return None
    return p[:-5], p[-4], p[-1]


def _model(doc, obj_pointer) -> tuple:
    """(class name, kind: pydantic | dataclass | typeddict) of the model an object schema was
    generated from, or (None, None): the function's own arguments, or not known."""
    loc = doc.code.models.get(tuple(obj_pointer)) if obj_pointer is not None and doc.code is not None else None
    return tuple(loc.what.split()[:2]) if loc and len(loc.what.split()) >= 2 else (None, None)


def _owner(doc, obj_pointer) -> str | None:
    return _model(doc, obj_pointer)[0]


def _python_name(doc, obj, prop: str) -> str:
    """The name the code gives property ``prop`` of the object at ``obj``: the parameter or attribute
    its own place in the code names, which differs from the schema's name under a pydantic alias
    (``Field(alias="maxResults")`` on ``max_results``); else ``prop``."""
    loc = doc.code.locations.get(tuple(obj) + ("properties", prop)) if doc.code is not None else None
    kind, _, name = (loc.what if loc is not None else "").partition(" ")
    if kind == "argument" and name:
        return name
    if kind == "field" and "." in name:
        return name.rsplit(".", 1)[1]
    return prop


def _who(doc, obj, prop: str) -> str:
    """How a fix names property ``prop`` of the object at ``obj``: a model's field, the
    function's argument, or the bare name."""
    if _owner(doc, obj):
        return f"field `{_owner(doc, obj)}.{prop}`"
    return f"argument `{prop}`" if is_arguments(obj) else f"`{prop}`"


@functools.lru_cache(maxsize=8)
def _annotated(text: str) -> dict:
    """{(line, column): (annotation, default)} of every argument and annotated assignment in a
    module's text, parsed once however many findings ask."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return {}
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.AnnAssign):
            out[node.lineno, node.col_offset + 1] = (node.annotation, node.value)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = node.args
            positional = [*args.posonlyargs, *args.args]
            defaults = dict(zip(positional[len(positional) - len(args.defaults):], args.defaults))
            defaults.update(zip(args.kwonlyargs, args.kw_defaults))
            for arg in (*positional, *args.kwonlyargs):
                out[arg.lineno, arg.col_offset + 1] = (arg.annotation, defaults.get(arg))
    return out


def _named(node) -> str | None:
    return getattr(node, "id", getattr(node, "attr", None))


def _written(doc, loc) -> tuple:
    """(the annotation's source text without ``Annotated[...]``'s metadata, the names of every
    call and keyword argument in the annotation and the default) of the argument or annotated
    field at ``loc``; ("", None) when the code there is not one (the names are None: not known)."""
    text = doc.code.texts.get(loc.file) if loc and doc.code is not None else None
    found = _annotated(text).get((loc.line, loc.column)) if text else None
    if not found or found[0] is None:
        return "", None
    annotation, default = found
    inner, metadata = annotation, []
    if isinstance(inner, ast.Subscript) and _named(inner.value) == "Annotated" \
            and isinstance(inner.slice, ast.Tuple) and inner.slice.elts:
        inner, metadata = inner.slice.elts[0], inner.slice.elts[1:]
    if isinstance(inner, ast.Subscript) and _named(inner.value) == "Optional":
        inner = inner.slice  # Optional[X]: X, in the non-null branch
    elif isinstance(inner, ast.BinOp) and isinstance(inner.op, ast.BitOr):
        others = [side for side in (inner.left, inner.right) if not (isinstance(side, ast.Constant) and side.value is None)]
        inner = others[0] if len(others) == 1 else inner  # X | None
    names: set = set()
    for part in (*metadata, default):
        if part is None or isinstance(part, ast.Constant):
            continue
        if not isinstance(part, ast.Call) or any(kw.arg is None for kw in part.keywords):
            return ast.get_source_segment(text, inner) or "", None  # a name bound elsewhere, **kwargs: not seen
        for node in ast.walk(part):
            if isinstance(node, ast.Call):
                names |= {kw.arg for kw in node.keywords if kw.arg}
                names.add(_named(node.func))
    return ast.get_source_segment(text, inner) or "", names


# annotated_types' classes that write each keyword (Annotated[int, Ge(0)])
_ANNOTATED_TYPES = {"maxLength": "MaxLen", "minLength": "MinLen", "maximum": "Le", "minimum": "Ge",
                    "exclusiveMaximum": "Lt", "exclusiveMinimum": "Gt", "multipleOf": "MultipleOf",
                    "maxItems": "MaxLen", "minItems": "MinLen"}


# Types pydantic writes keywords for by themselves (pydantic's networks, types and the standard
# library types it knows): AnyUrl writes "format": "uri" and "minLength": 1, PositiveInt
# "exclusiveMinimum": 0. A name outside this set may be an alias of the author's with a Field in it.
KEYWORD_TYPES = frozenset({
    "AnyUrl", "AnyHttpUrl", "HttpUrl", "FileUrl", "FtpUrl", "WebsocketUrl", "AnyWebsocketUrl", "EmailStr", "NameEmail",
    "UUID", "UUID1", "UUID3", "UUID4", "UUID5", "UUID6", "UUID7", "UUID8", "datetime", "date", "time", "timedelta",
    "AwareDatetime", "NaiveDatetime", "PastDate", "FutureDate", "PastDatetime", "FutureDatetime",
    "IPv4Address", "IPv6Address", "IPvAnyAddress", "IPv4Network", "IPv6Network", "IPvAnyNetwork",
    "IPv4Interface", "IPv6Interface", "IPvAnyInterface", "PositiveInt", "NegativeInt", "NonNegativeInt",
    "NonPositiveInt", "PositiveFloat", "NegativeFloat", "NonNegativeFloat", "NonPositiveFloat", "FilePath",
    "DirectoryPath", "NewPath", "SecretStr", "SecretBytes", "Base64Str", "Base64Bytes", "Base64UrlStr", "Json",
    "bytes"})  # bytes: "format": "binary"


def _by_type(f: Finding, doc, keyword: str, who: str) -> tuple:
    """(whether the code of the argument or field is seen not to write ``keyword`` itself, the
    words for a type that writes it): ``AnyUrl`` writes ``"minLength": 1`` and ``"format": "uri"``
    with no ``Field`` argument. Seen only when every ``Field`` of it is written there (``=
    LIMIT_FIELD``, a name bound elsewhere, may hold the keyword); the words only for a type in
    :data:`KEYWORD_TYPES` (any other name may be an alias of the author's that holds a ``Field``)."""
    typed, names = _written(doc, f.source)
    if names is None:
        return False, None
    if keyword in PYDANTIC_FIELD and (PYDANTIC_FIELD[keyword] in names or _ANNOTATED_TYPES[keyword] in names
                                      or "Len" in names):
        return False, None  # written in the code: Field(max_length=...), constr(...), MaxLen(...)
    if typed.rsplit(".", 1)[-1] not in KEYWORD_TYPES:
        return True, None
    value = node_at(doc, f.pointer)
    what = f'"{keyword}": {json.dumps(value)}'
    if f.profile is None:  # a finding on the schema itself (SCH110's unknown format), not on a target
        return True, (f"pydantic writes {what} for the type `{typed}` of {who} (no `Field` argument of yours does) "
                      f"and still checks the value when the tool is called; what reads only the schema does not: "
                      f"say what the value must be in the `description`")
    if f.consequence == "reject":
        return True, (f"pydantic writes {what} for the type `{typed}` of {who} (no `Field` argument of yours does), "
                      f"and this target rejects it: to send this tool strict, give it a type without it (`str`, "
                      f"checked in the tool's body, its form said in the `description`)")
    return True, (f"pydantic writes {what} for the type `{typed}` of {who} and still checks it when the tool is "
                  f"called; this target does not enforce it in what the model writes: say what the value must be "
                  f"in the `description`")


def _set_by_hand(f: Finding, doc) -> bool:
    """Whether the finding lies in an inputSchema the SDK did not write from the function's
    parameters: a root property that no parameter gives (a schema put in place by the server's own
    code, as server-everything sets ``parameters`` through the tool manager), so pydantic's words
    about arguments and models do not apply to it."""
    p = tuple(f.pointer)
    if len(p) < 2 or not isinstance(p[0], int) or p[1] != "inputSchema" or not isinstance(doc.data, list):
        return False
    schema = doc.data[p[0]].get("inputSchema") if isinstance(doc.data[p[0]], dict) else None
    props = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(props, dict) or not props:
        return False
    locs = doc.code.locations if doc.code is not None else {}
    return any(not getattr(locs.get((p[0], "inputSchema", "properties", k)), "what", "").startswith("argument ")
               for k in props)


def pydantic_fix(f: Finding, doc) -> str | None:
    built = f.source.what[len("library tool "):] if f.source and f.source.what.startswith("library tool ") else None
    if built:  # a tool the SDK itself adds: nothing in this server's code writes its schema
        return (f"this tool is built by the SDK ({built}), not by this server's code, so its schema cannot be "
                "changed here: send it non-strict to this target, or leave out what adds it")
    if _set_by_hand(f, doc):
        return None  # (the generated schema's own words stand)
    if f.source and tuple(f.pointer)[-1:] == ("description",) and len(f.pointer) == 2:
        return _description_fix(f, doc)
    if f.source and tuple(f.pointer)[-1:] == ("name",) and len(f.pointer) == 2:
        return _name_fix(f, doc)
    subject = subject_of(f)
    obj, prop, keyword = _optional_branch(f, doc) or property_at(f.pointer)
    if "additionalProperties" in subject and (closed := closing(f, doc)) is not None:
        at, node, free_map = closed
        if free_map:
            return ("a `dict[str, ...]` annotation generates this free-form map (any key); a strict target needs "
                    "named keys: declare a model with one field per key instead")
        cls, kind = _model(doc, at)
        if cls:
            how = (f'add `model_config = ConfigDict(extra="forbid")` to class `{cls}`' if kind == "pydantic" else
                   f'decorate the {kind} `{cls}` with `@with_config(ConfigDict(extra="forbid"))` (from pydantic)')
            return how + ' (pydantic then writes "additionalProperties": false)'
        if is_arguments(at):
            # The SDK builds the arguments' model itself: there is no class of the author's to configure.
            if f.consequence == "rewrite":  # a client closes it (openai-agents): nothing is lost
                return (NOTHING_TO_CHANGE + "the function takes only its named parameters (any other "
                        "argument has no parameter to reach), so a closed arguments object loses nothing")
            return ("the SDK writes this arguments object itself from the function's parameters (there is no "
                    "model class of yours to give `extra=\"forbid\"`): send the tool strict through a client "
                    "that closes every object (openai-agents does with `convert_schemas_to_strict=True`: "
                    "`--profile openai-agents`), or send it non-strict")
    if prop is not None:
        prop = _python_name(doc, obj, prop)
    if keyword == "description" and "$ref" in subject:
        return _description_beside_ref(f, doc, _who(doc, obj, prop))
    if tuple(f.pointer)[-1:] == ("$ref",) and "description beside the $ref" in subject:
        return _described_ref(f, doc, obj, prop)
    if prop is not None and keyword is None and "to required without making it nullable" in subject:
        who = _who(doc, obj, prop)
        return (f"type {who} as `Optional[...]` with the default `None` (pydantic then writes it nullable, so "
                f"the null the model sends stands for leaving it out) and apply the real default in the tool's body")
    if prop is not None and keyword is None and OPTIONAL_WORDS.search(subject):
        who = f"field `{prop}` of `{_owner(doc, obj)}`" if _owner(doc, obj) else (
            f"argument `{prop}`" if is_arguments(obj) else f"`{prop}`")
        return (f"pydantic lists a property in \"required\" only when it has no default: give {who} no default "
                f"and an `Optional[...]` type (required and nullable: callers send null to leave it out), "
                f"or keep it optional and do not send this tool strict")
    if prop is not None and keyword == "default":
        who = _who(doc, obj, prop)
        if f.consequence == "reject":
            return (f"the default of {who} (`= ...` or `Field(default=...)`) writes \"default\", which this target "
                    f"rejects: give it no default (`Optional[...]` if callers may send null) and apply the default "
                    f"in the tool's body, or do not send this tool strict")
        return (f"pydantic still fills in the default of {who} when the tool is called without it; this target "
                f"does not show it to the model: say it in the `description`")
    if prop is not None and (keyword in PYDANTIC_FIELD or keyword == "format"):
        seen, typed = _by_type(f, doc, keyword, _who(doc, obj, prop))
        if seen or keyword == "format":  # not a Field argument of the code's: the type's words, or none
            return typed
        arg = PYDANTIC_FIELD[keyword]
        who = f"`{_owner(doc, obj)}.{prop}`" if _owner(doc, obj) else f"`{prop}`"
        if f.consequence == "reject":
            return (f"`Field({arg}=...)` on {who} writes \"{keyword}\", which this target rejects: take it out of "
                    f"the `Field` and check the bound in the tool's body (say it in the `description`), or do not "
                    f"send this tool strict")
        return (f"`Field({arg}=...)` on {who} is still checked by pydantic when the tool is called, but this "
                f"target does not enforce it in what the model writes: keep it, and say the limit in the "
                f"field's `description` so the model sees it")
    return None


_SHORTEN = re.compile(r"^Shorten the description to (at most [\d,]+ characters)$")


def _name_fix(f: Finding, doc) -> str | None:
    """A tool name a target refuses or cuts, in the terms of where the code names the tool: the
    decorator's (or registering call's) ``name=``, or the function itself, after which the SDKs
    name a tool by default."""
    kind, _, fn = f.source.what.partition(" ")
    if kind == "name":
        return f"change the `name=` given for `{fn}`"
    if kind == "named":
        return f"change the name the tool decorator gives `{fn}`"
    if kind == "function" and node_at(doc, f.pointer) == fn:
        return (f"the SDK names the tool after the function `{fn}`: rename the function, or give the tool "
                "decorator a `name=` that fits (the function keeps its name)")
    return None


def _description_fix(f: Finding, doc) -> str | None:
    """A tool description that is too long, in the terms of where the code writes it: the function's
    docstring (which the SDK sends as the description) or the decorator's ``description=``."""
    limit = _SHORTEN.match(f.fix.title) if f.fix else None
    kind, _, fn = f.source.what.partition(" ")
    if limit is None or kind not in ("docstring", "description"):
        return None
    if kind == "description":
        return f"shorten the `description=` given for `{fn}` to {limit.group(1)}"
    text = node_at(doc, f.pointer)
    indent = len(text) - len(inspect.cleandoc(text)) if isinstance(text, str) else 0
    counted = (f" ({indent} of its {len(text)} characters are the docstring's indentation, which this SDK "
               "sends as written under Python 3.12 and earlier)") if indent > 0 else ""
    return (f"the SDK sends the docstring of `{fn}` as the tool's description{counted}: shorten it to "
            f"{limit.group(1)}, or give the tool decorator a shorter `description=` (the docstring then "
            "stays for readers of the code)")


def _description_beside_ref(f: Finding, doc, who: str) -> str | None:
    """A target that refuses any keyword beside a ``$ref``: the description pydantic writes there
    comes from the field's ``Field(description=...)``; the model's own docstring is written into
    its definition instead."""
    beside = node_at(doc, f.pointer.parent)
    ref = beside.get("$ref") if isinstance(beside, dict) else None
    if not (isinstance(ref, str) and ref.startswith("#/")):
        return None
    model = ref.rsplit("/", 1)[-1]
    return (f"the `description` of {who} (its `Field(description=...)`) is written beside the \"$ref\" to `{model}`, "
            f"which this target rejects: say it in the docstring of class `{model}` instead (pydantic writes that "
            f"into the definition), or send the tool through a client that inlines the model (openai-python's "
            f"`to_strict_json_schema`, openai-agents)")


def _described_ref(f: Finding, doc, obj, prop) -> str | None:
    """A target that inlines a ``$ref`` only when something stands beside it: the pydantic
    spelling of a description there. A field or argument of a model type takes
    ``Field(description=...)`` (an argument through ``Annotated``); the items of a list of
    models, or the model inside ``Optional[...]``, take ``Annotated[Model, Field(...)]`` in
    place of the model, as pydantic then writes the description beside that ``$ref``."""
    ref = node_at(doc, f.pointer)
    model = ref.rsplit("/", 1)[-1] if isinstance(ref, str) and ref.startswith("#/") else "Model"
    described = f"Annotated[{model}, Field(description=...)]"
    p = tuple(f.pointer)
    if prop is not None:  # .../properties/p/$ref
        if _owner(doc, obj):
            how = f"give field `{_owner(doc, obj)}.{prop}` a `Field(description=...)`"
        elif is_arguments(obj):
            how = f"annotate argument `{prop}` as `{described}`"
        else:
            how = f"give `{prop}` a `Field(description=...)`"
        return how + ': pydantic writes the description beside the "$ref", and this target then inlines the model'
    if len(p) >= 4 and p[-2] == "items" and p[-4] == "properties" and isinstance(p[-3], str):
        obj, prop, spelled = p[:-4], p[-3], f"list[{described}]"
    elif len(p) >= 5 and p[-3] == "anyOf" and p[-5] == "properties" and isinstance(p[-4], str):
        branches = node_at(doc, f.pointer.parent.parent)
        if not (isinstance(branches, list) and len(branches) == 2 and {"type": "null"} in branches):
            return None
        obj, prop, spelled = p[:-5], p[-4], f"Optional[{described}]"
    else:
        return None
    prop = _python_name(doc, obj, prop)
    who = _who(doc, obj, prop)
    return (f"write the type of {who} as `{spelled}`: pydantic writes the description beside the "
            f'"$ref", and this target then inlines the model')


def detect_generator(doc) -> str | None:
    """The generator whose words a document's fixes are said in: "zod" when every tool's
    inputSchema has zod's shape (:func:`mcplint.pysource.zod.looks_zod`), "python-sdk" when every
    tool is what a Python SDK writes from a function's type hints (:func:`looks_python_sdk`: a
    captured or saved tools/list of such a server). A Python server's fixes are pydantic's, set
    where its document is made."""
    if looks_zod(doc):
        return "zod"
    return "python-sdk" if looks_python_sdk(doc) else None


def captured_python_fix(f: Finding, doc) -> str | None:
    """In a Python SDK server's tools/list (no code to point at): only the arguments object the
    SDK writes from a function's parameters is said in the SDK's terms, since nothing in the
    server's code closes it; every other finding keeps the schema's own words."""
    if not f.fix or f.consequence != "reject" or '"additionalProperties": false' not in f.fix.title:
        return None
    closed = closing(f, doc)
    if closed is None or closed[2] or not is_arguments(closed[0]):
        return None
    return ("the SDK writes this arguments object itself from the function's parameters (a server cannot give "
            "it `extra=\"forbid\"`): send the tool strict through a client that closes every object (openai-agents "
            "does with `convert_schemas_to_strict=True`: `--profile openai-agents`), or send it non-strict")


GENERATORS = {"pydantic": pydantic_fix, "zod": zod_fix, "python-sdk": captured_python_fix}


def looks_python_sdk(doc) -> bool:
    """Every tool is what a Python SDK writes from a function's type hints (a tools/list result, or a
    probe's capture): the official SDK titles the inputSchema ``<function>Arguments`` (no
    ``$schema``); the standalone fastmcp marks the tool in ``_meta`` (``fastmcp``, ``_fastmcp`` in 2.x)."""
    tools = tools_of(doc.data)

    def python(t) -> bool:
        meta, root = t.get("_meta"), t.get("inputSchema")
        if isinstance(meta, dict) and ("fastmcp" in meta or "_fastmcp" in meta):
            return True
        return isinstance(root, dict) and "$schema" not in root and isinstance(root.get("title"), str) and \
            root["title"].endswith("Arguments")
    return bool(tools) and all(python(t) for t in tools)


def actionable_in_code(findings: list) -> list:
    """Leaves out what the server's code cannot change: MCP125 (a tool without parameters whose
    arguments object does not say ``additionalProperties: false``) on a function's own arguments.
    The SDK writes that object from the signature, no SDK option closes it, and an extra argument
    reaches no parameter; the spec allows the open form (``{"type": "object"}``) for such tools."""
    return [f for f in findings if not (f.rule == "MCP125" and f.source is not None
                                        and f.source.what.startswith("function "))]


def fold_server_wide(findings: list) -> list:
    """fastmcp 2.x writes ``_meta._fastmcp`` on every tool itself, so MCP126 fires once per tool,
    each placed on the line that creates the server, where one change fixes them all: they fold
    into the first one, which names the tools. The order of the others is kept."""
    groups: dict = {}
    for f in findings:
        if f.rule == "MCP126" and f.source is not None and tuple(f.pointer)[-2:] == ("_meta", "_fastmcp"):
            groups.setdefault((f.source.file, f.source.line, f.source.column, f.versions, f.profile), []).append(f)
    folded: dict = {}  # id of the first of a group -> the finding that stands for the group
    dropped: set = set()
    for same in groups.values():
        if len(same) < 2:
            continue
        tools = list(dict.fromkeys(f.tool for f in same if f.tool))
        names = ", ".join(tools[:5]) + (f", and {len(tools) - 5} more" if len(tools) > 5 else "")
        folded[id(same[0])] = replace(same[0], message=f"{same[0].message}; on all {len(tools)} tools ({names})")
        dropped |= {id(f) for f in same[1:]}
    if not folded:
        return findings
    return [folded.get(id(f), f) for f in findings if id(f) not in dropped]


def restater(doc):
    """The function that restates a fix in the terms of what generated ``doc`` (what its loader
    said, else detected from its schemas), or None when nothing generated it that
    :data:`GENERATORS` knows."""
    return GENERATORS.get(doc.generator or detect_generator(doc) or "")


def _as_note(f: Finding, fix: Fix) -> Finding:
    return replace(f, severity=Severity.INFO, fix=fix) if f.severity != Severity.INFO else f.with_fix(fix)


def _not_the_authors(f: Finding, fix: Fix) -> Finding:
    """A finding whose only remedy is outside the server's code (the SDK writes what the target
    refuses): not an error of the server's author. It stays a warning, and says whom it affects:
    what sends this tool to this target as it is (strict, unconverted), not every client."""
    if f.severity is not Severity.ERROR:
        return f.with_fix(fix)
    stop = "" if f.message.rstrip().endswith((".", '."', "!", "?")) else "."
    return replace(f, severity=Severity.WARNING, fix=fix, message=(
        f"{f.message.rstrip()}{stop} Only a client or application that sends this tool to this target as it is "
        "(strict, unconverted) meets this; nothing in the server's code changes it, so it is a warning."))


def _restated_finding(f: Finding, words: str, fix: Fix) -> Finding:
    if words.startswith(NOTHING_TO_CHANGE):
        return _as_note(f, fix)
    if words.startswith(OUTSIDE_THE_CODE[1]) or (
            words.startswith(OUTSIDE_THE_CODE[0]) and '"additionalProperties": false' in fix.title):
        return _not_the_authors(f, fix)  # (a target that refuses the object for another reason keeps its severity)
    return f.with_fix(fix)


def restate_all(findings: list, doc) -> list:
    """Every finding, its fix restated in the generator's terms where :func:`restate` would.
    The same as ``[restate(f, doc) for f in findings]`` for less: a zod-generated document's
    findings (10,000 over the benchmark corpus with three profiles) share a few hundred fixes,
    so each (words, fix) gets one restated ``Fix``, and a finding is copied with it directly,
    its message as kept (``dataclasses.replace`` passes every field by name and writes the
    message out on the way)."""
    how = restater(doc)
    if how is None:
        return findings
    fixes: dict = {}  # (words, id of the fix) -> the restated fix (the findings hold the fixes meanwhile)
    out = []
    for f in findings:
        words = how(f, doc) if f.fix else None
        if not words:
            out.append(f)
            continue
        key = (words, id(f.fix))
        fix = fixes.get(key)
        if fix is None:
            fix = fixes[key] = _restated(words, f.fix)
        out.append(_restated_finding(f, words, fix))
    return out


def restate(f: Finding, doc) -> Finding:
    how = restater(doc)
    words = how(f, doc) if how and f.fix else None
    if not words:
        return f
    return _restated_finding(f, words, _restated(words, f.fix))


def _restated(words: str, fix: Fix) -> Fix:
    return Fix(f"{words[0].upper()}{words[1:]} [in the generated schema: {fix.title}]", fix.patch, fix.safe)
