"""Core value types shared by every stage of the pipeline.

load  -> Document (source text, parsed data, a lazy source map)
collect -> Tool and Slot (where the schemas are, which protocol versions apply)
rules -> Finding (what is wrong, where, and how to fix it)
report -> text, JSON, SARIF, GitHub annotations

Everything here is a plain, immutable value, cheap to build and easy to test.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, fields
from operator import itemgetter
from typing import Any, Callable, Iterator, NamedTuple, Protocol, Union

Key = Union[str, int]
_STEPS = tuple("/%s" * n for n in range(32))  # the format of a pointer of n steps (Pointer.__str__)


class Pointer(tuple):
    """An RFC 6901 JSON Pointer held as a tuple of keys (str) and indices (int).

    ``str(Pointer(("a/b", 0)))`` is ``/a~1b/0``; ``ptr / "key"`` appends one step.
    """

    __slots__ = ()  # built by tuple's own constructor: Pointer(("a", 0)), Pointer() for the root

    def __truediv__(self, key: Key) -> "Pointer":
        return Pointer((*self, key))

    def __add__(self, other: tuple) -> "Pointer":
        return Pointer((*self, *other))

    def __str__(self) -> str:
        n = len(self)
        # one "/%s" per step, formatted in C with the pointer as the arguments tuple (about a
        # third faster than a join over str() of each step; a run with profiles writes 100,000)
        text = (_STEPS[n] if n < len(_STEPS) else "/%s" * n) % self
        if "~" in text or text.count("/") > n:  # some key needs escaping
            return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in self)
        return text

    def __repr__(self) -> str:
        return f"Pointer({str(self)!r})"

    @property
    def parent(self) -> "Pointer":
        return Pointer(self[:-1])

    @classmethod
    def parse(cls, text: str) -> "Pointer":
        """Parse an RFC 6901 string. Array indices stay strings; see :meth:`resolve_in`."""
        if text in ("", "#"):
            return cls()
        if text.startswith("#"):
            text = text[1:]
            if "%" in text:  # a URI fragment: percent-decode it
                from urllib.parse import unquote

                text = unquote(text)
        if not text.startswith("/"):
            raise ValueError(f"JSON Pointer must start with '/': {text!r}")
        return cls(tuple(p.replace("~1", "/").replace("~0", "~") for p in text[1:].split("/")))

    def resolve_in(self, data: Any) -> Any:
        """Follow this pointer through ``data``; raises KeyError/IndexError/TypeError."""
        node = data
        for part in self:
            if isinstance(node, list):
                if isinstance(part, str) and not part.isdigit():
                    raise KeyError(part)
                node = node[int(part)]
            elif isinstance(node, dict):
                node = node[part]
            else:
                raise TypeError(f"cannot descend into {type(node).__name__}")
        return node

    def normalized(self, data: Any) -> "Pointer":
        """Turn string array indices into ints, following ``data``."""
        out: list[Key] = []
        node = data
        for part in self:
            if isinstance(node, list) and isinstance(part, str) and part.isdigit():
                part = int(part)
            out.append(part)
            try:
                node = node[part] if isinstance(node, (dict, list)) else None
            except (KeyError, IndexError, TypeError):
                node = None
        return Pointer(out)


ROOT = Pointer()


class Severity(enum.IntEnum):
    INFO = 1
    WARNING = 2
    ERROR = 3

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> "Severity":
        aliases = {"warn": "warning", "information": "info", "note": "info"}
        t = aliases.get(text.lower(), text.lower())
        for s in cls:
            if s.label == t:
                return s
        raise ValueError(f"unknown severity {text!r} (expected error, warning or info)")


class Span(NamedTuple):
    """A 1-based, inclusive-start / exclusive-end region of the source text. (A named tuple:
    one is made per place a finding points at, and rebuilt by a worker's parent.)"""

    line: int
    col: int
    end_line: int
    end_col: int


@dataclass(frozen=True)
class CodeLocation:
    """A place in the code that generated a schema (a Python server's function, argument or
    model field): 1-based line and column. ``what`` names it ("argument limit");
    ``best_effort`` marks a place found by searching for a name rather than known."""

    file: str
    line: int
    column: int
    what: str = ""
    best_effort: bool = False


@dataclass(frozen=True)
class Source:
    """Where text came from: a path, ``<stdin>``, or a probe's captured result."""

    origin: str
    text: str
    fmt: str  # "json" or "yaml"


class SourceMapper(Protocol):
    """What the loader gives a :class:`Document` to map its text to lines and columns when a
    finding needs it. A mapper is sent to other processes with its document (pickled), so it
    keeps no closures; the model knows only this interface, the loader the implementation."""

    def full(self, text: str) -> dict:
        """The map of every pointer in ``text``: {pointer: (key span or None, value span)}."""

    def partial(self, text: str, wanted: set) -> dict:
        """A map holding at least ``wanted`` and their ancestors."""

    def parse(self, text: str) -> Any:
        """``text`` parsed again (a copy that left its data behind)."""


@dataclass(frozen=True)
class CodeMap:
    """A document's sidecar when it was generated from code (a Python server's tools/list, made
    by importing the server): where each part comes from, and what the import found. A probed
    server's capture may get one too, with a best-effort place for each tool's name."""

    # where each part of the schema comes from ({pointer tuple: CodeLocation}), the classes
    # object schemas were generated from ({pointer tuple: CodeLocation, what = "Name kind"}), and
    # the code's text ({file: text}) for code frames
    locations: dict = field(default_factory=dict)
    models: dict = field(default_factory=dict)
    texts: dict = field(default_factory=dict)
    # the protocol versions the server's SDK serves (those mcplint knows, oldest first), when the
    # SDK says; with no version chosen the server is checked as the newest of them
    sdk_versions: tuple = ()
    # a module with several servers, whose tools share one array: the server (its variable) of
    # each tool, by index. Each server has a tools/list of its own (MCP120 reads it).
    tool_servers: tuple = ()
    # a module whose every server object is only imported into it (a package's __init__.py
    # re-exporting one): the files that assign them, absolute. Scanned beside them, the module
    # adds nothing of its own (the engine passes over it).
    server_homes: tuple = ()
    # (the interpreter that imported it, what chose it, that in words); see mcplint.pysource.interpreter
    interpreter: tuple = ()


@dataclass(frozen=True)
class ProbeCapture:
    """A document's sidecar when it is what a probed server listed (``mcplint probe``, or a
    capture file it saved)."""

    transcripts: dict | None = None  # what the live server did besides this text ({version: transcript})


class _LeftBehind:
    """The ``data`` of a :class:`Document` copy that left its parsed tree behind (a class: it
    stays itself through a pickle)."""


@dataclass(frozen=True)
class Document:
    """A parsed file: its source, the data, the source map (``spans``, computed lazily: only files
    with findings pay for it) and the duplicate keys. What a feature knows beyond the text rides
    on a sidecar: ``code`` (:class:`CodeMap`) and ``capture`` (:class:`ProbeCapture`).

    Not slotted: a test holds that no rule keeps a linted document alive, through a weak
    reference, which a slotted dataclass allows only from Python 3.11."""

    source: Source
    _data: Any  # what parsing the text gave (read it as ``data``)
    _spans: dict | None = field(default=None, repr=False)
    # Set by the loader: what builds this text's source map (all of it, or only some pointers)
    # and parses it again; see :class:`SourceMapper`.
    _mapper: SourceMapper | None = field(default=None, repr=False)
    # Set by the loader: pointers of object members whose key occurs more than once.
    duplicate_keys: list = field(default_factory=list)
    _wanted: set | None = field(default=None, repr=False)  # pointers a partial map was built for
    # Set for what a probed server listed: its ProbeCapture.
    capture: ProbeCapture | None = None
    # Set by the loader when ``data`` is exactly what parsing ``source.text`` as JSON gives: a copy
    # sent to another process then carries the text only, and parses it again if ever asked (``data``).
    _reparse: bool = field(default=False, repr=False)
    # Set for a document generated from code (a Python server): its CodeMap.
    code: CodeMap | None = field(default=None, repr=False)
    # What generated the schemas ("pydantic", "zod"), for fixes in the author's terms.
    generator: str | None = None
    # Set by a loader: warnings about what it left out of this document (the servers a Python
    # module imports besides its own); the engine adds them to the run's notes.
    notes: tuple = ()

    def _keep(self, name: str, value: Any) -> Any:
        """Keep ``value`` in the private slot ``name`` (``_data``, ``_spans`` or ``_wanted``): what
        the document computes from its own text the first time it is asked (as
        ``functools.cached_property`` would), never a change of what it holds; the only write to
        a document after it is made."""
        object.__setattr__(self, name, value)
        return value

    @property
    def spans(self) -> dict:
        spans = self._spans
        if spans is None:
            spans = self._keep("_spans", self._mapper.full(self.source.text) if self._mapper else {})
        return spans

    @property
    def data(self) -> Any:
        """The parsed data. A copy sent to another process when the text says it all (``_reparse``)
        leaves it behind, and parses the text again the first time it is asked for it."""
        data = self._data
        if data is _LeftBehind:
            assert self._mapper is not None  # (only a loader's document with a mapper is left so)
            data = self._keep("_data", self._mapper.parse(self.source.text))
        return data

    def __getstate__(self) -> dict:
        state = {f.name: getattr(self, f.name) for f in fields(self)}
        if self._reparse and self._mapper is not None:  # the text says it all: leave the tree and the map behind
            state["_data"] = _LeftBehind
            state["_spans"] = state["_wanted"] = None
        return state

    def __setstate__(self, state: dict) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)

    def prepare(self, pointers) -> None:
        """Map only ``pointers`` (and their ancestors) when no full map exists yet:
        a file with a handful of findings need not pay for mapping all of it (a big
        file is scanned once, skipping every container nothing is wanted in)."""
        if self._mapper is None or (self._spans is not None and self._wanted is None):
            return
        # (a Pointer is a tuple, equal to and hashed as one: kept as it is, not copied)
        wanted = {p if isinstance(p, tuple) else tuple(p) for p in pointers} | (self._wanted or set())
        if not wanted:  # nothing to locate (a clean file): no scan at all
            return
        if self._wanted is None or not wanted <= self._wanted:
            self._keep("_wanted", wanted)
            warm = getattr(self._keep("_spans", self._mapper.partial(self.source.text, wanted)), "warm", None)
            if warm is not None:
                warm(wanted)

    def locate(self, ptr: Pointer) -> Span | None:
        """The span of ``ptr``; for a missing path, the span of its nearest existing ancestor."""
        if not isinstance(ptr, tuple):
            ptr = tuple(ptr)
        if self._wanted is not None and ptr not in self._wanted:
            self.prepare([ptr])  # a partial map that lacks this pointer: extend it
        spans = self.spans
        region = getattr(spans, "region", None)  # (a JSON text's map gives the span at once)
        p: tuple = ptr
        while True:
            if region is not None:
                found = region(p)
                if found is not None:
                    return found
            else:
                entry = spans.get(p)
                if entry is not None:
                    key_span, value_span = entry
                    start = key_span or value_span
                    return Span(start.line, start.col, value_span.end_line, value_span.end_col)
            if not p:
                return None
            p = p[:-1]

    def locate_code(self, ptr: Pointer) -> CodeLocation | None:
        """Where in the code ``ptr`` (or its nearest ancestor with a known place) comes from."""
        if self.code is None or not self.code.locations:
            return None
        locations = self.code.locations
        p = tuple(ptr)
        while True:
            found = locations.get(p)
            if found is not None or not p:
                return found
            p = p[:-1]

    def line_text(self, line: int) -> str:
        lines = self.source.text.splitlines()
        return lines[line - 1] if 0 < line <= len(lines) else ""


SLOT_KINDS = ("inputSchema", "outputSchema")


@dataclass(frozen=True)
class Tool:
    """One tool declaration and the protocol versions it is checked against."""

    doc: Document
    pointer: Pointer
    data: Any  # the Tool object as written (may be malformed: rules check it)
    versions: tuple[str, ...]
    index: int = 0
    # Example results attached to the declaration (MCP Description documents): (pointer, value).
    examples: tuple = ()
    # "mcp" for a native Tool; "mcpdesc" for a declaration in an MCP Description document,
    # which may also carry description-only members (protocolVersions, examples, x-...).
    context: str = "mcp"

    @property
    def name(self) -> str | None:
        if isinstance(self.data, dict) and isinstance(self.data.get("name"), str):
            return self.data["name"]
        return None

    @property
    def label(self) -> str:
        return self.name if self.name is not None else f"<tool #{self.index}>"

    def slots(self) -> Iterator["Slot"]:
        if not isinstance(self.data, dict):
            return
        for kind in SLOT_KINDS:
            if kind in self.data:
                slot = self.resolve_component(Slot(self, kind, self.pointer / kind, self.data[kind]))
                if slot is not None:
                    yield slot

    def resolve_component(self, slot: "Slot") -> "Slot | None":
        """In an MCP Description document a slot may be a Reference Object
        (``{"$componentRef": "#/components/schemas/<name>"}``), resolved before any rule
        applies (MCP Description §9.2): rules then see the component, at its own pointer.
        None for a reference that does not resolve: there is no schema to check (rule
        MCP130 reports it)."""
        s = slot.schema
        if self.context != "mcpdesc" or not isinstance(s, dict) or "$componentRef" not in s:
            return slot
        ref = s["$componentRef"]
        if not (isinstance(ref, str) and ref.startswith("#/components/schemas/")):
            return None
        try:
            ptr = Pointer.parse(ref).normalized(self.doc.data)
            return Slot(self, slot.kind, ptr, ptr.resolve_in(self.doc.data))
        except (KeyError, IndexError, TypeError, ValueError):
            return None


class Slot:
    """A schema slot of a tool: ``inputSchema`` or ``outputSchema``, at ``pointer``.

    Reading ``tool`` is noted (``tool_read``): a slot rule that reads neither its slot's tool nor
    its collection finds, on a slot holding the same schema, what it found here
    (:mod:`mcplint.repeats`). ``doc``, the document, is the same for every slot of a collection:
    reading it is no look at the tool."""

    __slots__ = ("_tool", "kind", "pointer", "schema", "tool_read")

    def __init__(self, tool: Tool, kind: str, pointer: Pointer, schema: Any):
        self._tool = tool
        self.kind = kind
        self.pointer = pointer
        self.schema = schema
        self.tool_read = False

    @property
    def tool(self) -> Tool:
        self.tool_read = True
        return self._tool

    @property
    def doc(self) -> Document:
        return self._tool.doc

    def _fields(self) -> tuple:
        return self._tool, self.kind, self.pointer, self.schema

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Slot) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return f"Slot(kind={self.kind!r}, pointer={str(self.pointer)!r})"


@dataclass(frozen=True)
class Fix:
    """A suggested fix in words, and as RFC 6902 operations where it is mechanical."""

    title: str
    patch: tuple = ()  # of dicts: {"op": ..., "path": ..., "value"?: ...}
    safe: bool = False  # --fix may apply the patch (else only --unsafe-fixes); the rule declares it

    @property
    def applicability(self) -> str:
        """safe (``--fix`` applies it), unsafe (only ``--unsafe-fixes``), or display-only (no patch)."""
        return "display-only" if not self.patch else "safe" if self.safe else "unsafe"


class KeptMessage(tuple):
    """A finding's message kept as what it says, written out only when read (most findings of a
    decoder profile are never shown: the text report folds them). Equal kept messages are equal
    messages; the text is ``render(kept)``.

    Made as ``KeptMessage(render, plan, node, detail, values)`` and read by those names, but held
    as one flat tuple ``(render, plan, node, detail, *values)``: a run with profiles keeps one
    per finding (about 100,000 over the benchmark's corpus) in the process that reports them, and
    a tuple of values of its own beside each cost that process 5 MB of its peak memory."""

    __slots__ = ()

    def __new__(cls, render: Callable[["KeptMessage"], str], plan: Any, node: Any, detail: str | None,
                values: tuple) -> "KeptMessage":
        return tuple.__new__(cls, (render, plan, node, detail, *values))

    def __getnewargs__(self) -> tuple:  # (a pickle makes it again through __new__, by its fields)
        return (self[0], self[1], self[2], self[3], self[4:])

    render = property(itemgetter(0), doc="Writes the text from this message.")
    plan = property(itemgetter(1), doc="The words, as the describer planned them for one rule of one profile.")
    node = property(itemgetter(2), doc="The node the message is about (its context and path are written from it).")
    detail = property(itemgetter(3), doc="A regex's words for when the template says nothing (None: the plan's).")
    values = property(itemgetter(slice(4, None)), doc="The values the words read, in the plan's order.")

    def text(self) -> str:
        return self.render(self)

    def __repr__(self) -> str:
        return (f"KeptMessage(render={self.render!r}, plan={self.plan!r}, node={self.node!r}, "
                f"detail={self.detail!r}, values={self.values!r})")


_FIELDS = ("rule", "name", "severity", "message", "origin", "pointer", "span", "tool", "slot", "versions",
           "profile", "fix", "consequence", "source", "servers")


@dataclass(init=False, repr=False, eq=False)  # (for dataclasses.fields and replace: the methods are below)
class Finding:
    """What a rule found: which rule, how bad, the message, where (the input's ``origin`` and
    ``pointer``, its ``span`` when located, the code that generated that part when known), the
    tool and slot, the protocol versions, the decoder profile and its ``consequence`` (profile
    findings: drop | reject | weaken | rewrite | annotation), and a fix. ``servers``: the servers
    of a ``probe --from`` it holds for, when it holds for several (one finding, at the first one's
    place: :func:`mcplint.capture.one_per_server`); empty otherwise.

    A value: made once, never changed (nothing assigns to a finding after it is made; equal
    fields make equal findings). ``message`` reads as text; what a rule gave is the text or a
    :class:`KeptMessage` (a decoder profile's), written out when read."""

    __slots__ = ("rule", "name", "severity", "_message", "origin", "pointer", "span", "tool", "slot",
                 "versions", "profile", "fix", "consequence", "source", "servers")
    rule: str
    name: str
    severity: Severity
    message: str  # (a dataclass field, for fields() and replace(): the property below reads it)
    origin: str
    pointer: Pointer
    span: Span | None
    tool: str | None
    slot: str | None
    versions: tuple[str, ...]
    profile: str | None
    fix: Fix | None
    consequence: str | None  # profile findings: drop | reject | weaken | rewrite | annotation
    source: CodeLocation | None  # the code that generated the schema part, when known
    servers: tuple[str, ...]  # probe --from: the servers it holds for, when several (else empty)

    # A plain class, not a frozen dataclass: a frozen one sets each of its 14 fields through
    # object.__setattr__, and a run with decoder profiles makes (and a worker's parent rebuilds)
    # over 100,000 findings.
    def __init__(self, rule: str, name: str, severity: Severity, message: str | KeptMessage, origin: str,
                 pointer: Pointer,
                 span: Span | None = None, tool: str | None = None, slot: str | None = None,
                 versions: tuple[str, ...] = (), profile: str | None = None, fix: Fix | None = None,
                 consequence: str | None = None, source: CodeLocation | None = None, servers: tuple[str, ...] = ()):
        self.rule = rule
        self.name = name
        self.severity = severity
        self._message = message
        self.origin = origin
        self.pointer = pointer
        self.span = span
        self.tool = tool
        self.slot = slot
        self.versions = versions
        self.profile = profile
        self.fix = fix
        self.consequence = consequence
        self.source = source
        self.servers = servers

    @property  # type: ignore[no-redef]
    def message(self) -> str:
        m = self._message
        return m if isinstance(m, str) else m.render(m)

    def with_fix(self, fix: Fix | None) -> "Finding":
        """This finding with another fix (``dataclasses.replace(f, fix=fix)``, but the message
        stays as it is kept, and no field goes by name)."""
        return Finding(self.rule, self.name, self.severity, self._message, self.origin, self.pointer, self.span,
                       self.tool, self.slot, self.versions, self.profile, fix, self.consequence, self.source,
                       self.servers)

    def _fields(self) -> tuple:
        return tuple(getattr(self, f) for f in _FIELDS)

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return "Finding(" + ", ".join(f"{f}={getattr(self, f)!r}" for f in _FIELDS) + ")"

    @property
    def protocol_version(self) -> str | None:
        return ",".join(self.versions) if self.versions else None

    @property
    def file(self) -> str:
        """Where to show the finding: the code that generated the schema when known, else the input."""
        return self.source.file if self.source else self.origin

    @property
    def line(self) -> int:
        if self.source:
            return self.source.line
        return self.span.line if self.span else 1

    @property
    def column(self) -> int:
        if self.source:
            return self.source.column
        return self.span.col if self.span else 1

    @property
    def region(self) -> Span | None:
        """The finding's extent in ``file``, when known (a place in code is a point)."""
        return None if self.source else self.span

    def sort_key(self) -> tuple:
        return (self.origin, self.file, self.line, self.column, -self.severity, self.rule, str(self.pointer), self.profile or "")

    def __reduce__(self):
        # Workers send every finding to the parent: the fields in order (a shared message, span,
        # pointer or fix is still sent once per file; a profile's message as its words and
        # values), rebuilt by one call.
        return _finding, (self.rule, self.name, int(self.severity), self._message, self.origin, self.pointer,
                          self.span, self.tool, self.slot, self.versions, self.profile, self.fix,
                          self.consequence, self.source, self.servers)


_SEVERITIES = {int(s): s for s in Severity}


def _finding(rule, name, severity, *rest) -> Finding:
    return Finding(rule, name, _SEVERITIES[severity], *rest)
