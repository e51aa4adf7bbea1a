"""The rule registry: one place that knows every rule's ID, name, severity and docs.

A rule is a generator function decorated with :func:`rule`. Its docstring is its
documentation, in fixed sections::

    ## What it does
    ## Why is this bad?
    ## Example          (a ```json block: a Tool, or a whole document, that fires)
    ## Use instead      (a ```json block that does not fire)
    ## References       (the public source it enforces: spec, SEP, draft, guide)

An Example may carry the settings it needs (e.g. a profile) in an HTML comment:
``<!-- settings: {"profiles": ["openai-strict"]} -->`` (config-file keys).

A rule whose findings carry an RFC 6902 patch declares whether ``--fix`` may apply it:
``fix_safety="safe"`` when the patch keeps what the schema accepts and what the tool means
(it fixes the form: a string where a boolean is meant, a boolean schema written as the
equivalent object, a misspelt dialect URI), ``"unsafe"`` when it changes what the schema
accepts or removes data someone may read (only ``--unsafe-fixes`` applies it), or
``"varies"`` when the rule's patches differ: then each ``ctx.finding(..., patch=...,
safe=...)`` says which. ``fix_note`` says why, for ``mcplint rule`` and the docs.

The CLI (``mcplint rule``), SARIF ``driver.rules`` and the docs all read the same
:class:`RuleMeta`. A rule never computes a line or column: it yields
``ctx.finding(pointer, message)`` and the engine stamps ID, severity and location.
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, NamedTuple

from .memo import Memo
from .model import Fix, Pointer, Severity
from .schemawalk import SharedWalks, Sub
from .versions import ALL

SCOPES = ("document", "tool", "slot")
# Preconditions a rule may declare (``requires=``), checked once per target by the engine, so that
# a rule that could only return at once is not called at all: the target's scope, and how the
# engine tells whether it holds.
REQUIREMENTS = {
    "examples": ("tool", "examples"),  # the tool carries example results (MCP Description documents)
    "mcpdesc": ("tool", "mcpdesc"),  # the tool is declared in an MCP Description document
    "jstruct": ("slot", "jstruct"),  # the slot's $schema names a JSON Structure meta-schema (binding §3.1)
    # the slot might hold the word anywhere (as a key or a value: a superset of where rules look)
    "x-mcp-header": ("slot", "word"),
    "pattern": ("slot", "word"),  # pattern or patternProperties
    "ref": ("slot", "word"),  # $ref, $dynamicRef, $recursiveRef, $id, $anchor or $dynamicAnchor
    # the document is an MCP Registry server.json manifest (REG rules); it gets no other rules but DOC's,
    # and their findings name no protocol version (a manifest is not served under one)
    "server-json": ("document", "server-json"),
    # the document is an MCP client's configuration (CFG rules): the same, for the same reasons
    "client-config": ("document", "client-config"),
}
# Kinds of file that hold no tools, each checked only by the rules that require it (and DOC's).
FILE_KINDS = ("server-json", "client-config")
# What a decoder/client does with a construct, worst first (profile rules say which applies):
# fail-list, the client cannot read the server's tools/list and loses every tool of it.
CONSEQUENCES = ("fail-list", "drop", "reject", "weaken", "rewrite", "annotation")
SECTIONS = ("What it does", "Why is this bad?", "Example", "Use instead", "References")
ID_RE = re.compile(r"^[A-Z]{3}\d{3}$")
FIX_SAFETY = ("safe", "unsafe", "varies")  # what a rule with patches declares (``fix_safety=``)
DOCS_URL = "docs/rules.md"  # the generated rule reference in this repository (relative)


@dataclass(frozen=True)
class RuleMeta:
    id: str
    name: str
    severity: Severity
    scope: str
    versions: frozenset
    per_version: bool
    fix: str
    family: str
    func: Callable = field(compare=False, repr=False)
    summary: str = ""
    sections: dict = field(default_factory=dict, compare=False, repr=False)
    profiled: bool = False  # run once per active decoder profile
    default: bool = True  # selected unless the user deselects it
    requires: str | None = None  # a precondition on the target (REQUIREMENTS): unmet, the rule is not called
    fix_safety: str | None = None  # one of FIX_SAFETY for a rule whose fixes carry a patch; None: words only
    fix_note: str = ""  # why the patch is (or is not) safe
    # a pass shared with other rules of the same scope (see :func:`rule`): the engine calls it once per target

    def applies(self, met: frozenset) -> bool:
        """Is the rule called for a target that meets the requirements ``met``? A server.json
        manifest, or a client's configuration (:data:`FILE_KINDS`), gets only the rules written
        for one, and those about the file itself (DOC)."""
        kind = met.intersection(FILE_KINDS)
        if kind:
            return self.requires in kind or (self.requires is None and self.family == "document")
        return self.requires is None or self.requires in met

    @property
    def url(self) -> str:
        return f"{DOCS_URL}#{self.id.lower()}"

    @property
    def explanation(self) -> str:
        return "\n\n".join(f"## {k}\n\n{v}" for k, v in self.sections.items())

    def example_settings(self) -> dict:
        m = re.search(r"<!--\s*settings:\s*(\{.*?\})\s*-->", self.sections.get("Example", ""), re.S)
        import json

        return json.loads(m.group(1)) if m else {}

    def example(self, section: str) -> str | None:
        """The ```json block of a section, if any."""
        m = re.search(r"```(?:json|yaml)\n(.*?)```", self.sections.get(section, ""), re.S)
        return m.group(1) if m else None

    def as_dict(self) -> dict:
        return {
            "id": self.id, "name": self.name, "family": self.family, "severity": self.severity.label,
            "scope": self.scope, "versions": sorted(self.versions), "summary": self.summary,
            "fix": self.fix, "fix_safety": self.fix_safety or "display-only", "fix_note": self.fix_note,
            "explanation": self.explanation, "url": self.url,
        }


class RawFinding(NamedTuple):
    """What a rule yields; the engine turns it into a :class:`~mcplint.model.Finding`. (A named
    tuple: a decoder profile's rules yield 100,000 of them over a big run.)"""

    pointer: Pointer
    message: Any  # the text, or a tuple whose first item writes the text from it (profiles.describe.message)
    fix: Fix | None = None
    severity: Severity | None = None  # a rule may lower or raise its own default
    consequence: str | None = None  # profile rules: one of CONSEQUENCES


class Context:
    """What a rule may know besides its target."""

    __slots__ = ("meta", "_versions", "config", "profile", "_collection", "looked", "looked_collection", "memo")

    def __init__(self, meta: RuleMeta, versions: tuple, config: Any, profile: Any = None, collection: Any = None,
                 memo: Memo | None = None):
        self.meta = meta
        self._versions = versions
        self.config = config
        self.profile = profile
        self._collection = collection
        # What the rules of the collection share (mcplint.memo): the engine gives every context
        # of a collection the same one; a context made alone gets its own.
        self.memo = memo if memo is not None else Memo()
        # Set when a rule reads its versions or its collection: a call that read neither found
        # what it would find for the same target under any other version it applies to (the
        # engine then lints a tool that several captures of a probe list alike once).
        self.looked = False
        self.looked_collection = False  # set when it reads its collection (mcplint.repeats)

    @property
    def versions(self) -> tuple:
        self.looked = True
        return self._versions

    @property
    def collection(self) -> Any:
        self.looked = self.looked_collection = True
        return self._collection

    @property
    def server_name(self) -> str | None:
        """The server's name in the client's configuration, when the document is a probe's capture
        that records it (the same for each of its collections: reading it is no look at one)."""
        return None if self._collection is None else self._collection.server_name

    @property
    def origin(self) -> str | None:
        """Where the document linted came from (the same for each of its collections)."""
        return None if self._collection is None else self._collection.doc.source.origin

    @property
    def version(self) -> str:
        """The single version of a ``per_version`` rule's call (the newest otherwise)."""
        return self.versions[-1]

    @property
    def bounds(self):
        return self.config.bounds

    @property
    def walks(self) -> SharedWalks:
        """The schema walks the rules of the collection share (:mod:`mcplint.schemawalk`): a rule
        walks a schema with ``ctx.walks.subschemas(schema)`` (or :meth:`subschemas`), and hands
        ``ctx.walks`` to the helpers it calls that walk."""
        return self.memo.walks

    def subschemas(self, schema: Any) -> Iterator[Sub]:
        """Every schema node under ``schema``, pre-order (:func:`mcplint.schemawalk.subschemas`),
        walked once for every rule of the collection that asks."""
        return self.memo.walks.subschemas(schema)

    def finding(self, pointer: Pointer, message: str, fix: str | None = None, patch: tuple | list = (),
                severity: Severity | None = None, consequence: str | None = None,
                safe: bool | None = None) -> RawFinding:
        """``safe``: whether ``--fix`` may apply ``patch``, for a rule declared ``fix_safety="varies"``
        (and only there: other rules' patches are as safe as the rule declares)."""
        title = fix if fix is not None else self.meta.fix
        if consequence is not None and consequence not in CONSEQUENCES:
            raise ValueError(f"consequence {consequence!r} not in {CONSEQUENCES}")
        if not title:
            fixed = None
        elif patch:
            declared = self.meta.fix_safety
            if (safe is None) == (declared == "varies"):
                raise ValueError(f"{self.meta.id}: safe= is for a patch of a rule declared fix_safety='varies' "
                                 f"(this one: {declared!r})")
            fixed = Fix(title, tuple(patch), safe if safe is not None else declared == "safe")
        else:
            fixed = fix_in_words(title)
        return RawFinding(pointer if type(pointer) is Pointer else Pointer(pointer), message, fixed, severity,
                          consequence)


_WORDS_ONLY: dict = {}  # fix title -> Fix(title): shared by the findings of a run (and their pickles)


def fix_in_words(title: str) -> Fix:
    """``Fix(title)``: a fix in words only is the same value for every finding that has it, so one object."""
    fixed = _WORDS_ONLY.get(title)
    if fixed is None:
        fixed = Fix(title)
        if len(_WORDS_ONLY) < 4096:
            _WORDS_ONLY[title] = fixed
    return fixed


REGISTRY: dict[str, RuleMeta] = {}
BY_NAME: dict[str, str] = {}


def parse_sections(doc: str) -> tuple[str, dict]:
    text = inspect.cleandoc(doc or "")
    parts = re.split(r"^## +(.+?)\s*$", text, flags=re.M)
    summary = parts[0].strip()
    sections = {parts[i].strip(): parts[i + 1].strip() for i in range(1, len(parts), 2)}
    return summary, sections


def _family(module: str) -> str:
    """A rule's family: the package (or module) under ``mcplint.rules`` that defines it
    (``mcplint.rules.schema_safety.bounds`` -> ``schema_safety``), else the module's own name. A
    family split into a package of small modules keeps one name for users (``mcplint rules``,
    SARIF, the docs)."""
    parts = module.split(".")
    if parts[:2] == [__package__, "rules"] and len(parts) > 2:
        return parts[2]
    return parts[-1]


def rule(id: str, name: str, *, severity: Severity, scope: str, fix: str, versions=ALL,
         per_version: bool = False, profiled: bool = False, default: bool = True, requires: str | None = None,
         fix_safety: str | None = None, fix_note: str = ""):
    """Register a rule. See the module docstring for the contract (and for ``fix_safety``,
    ``fix_note``: whether ``--fix`` may apply the rule's patches, and why). ``requires``: one of
    :data:`REQUIREMENTS`; the rule is called only for targets that meet it (and must itself
    find nothing for targets that do not: a test calls every rule on those too)."""

    def deco(func: Callable[..., Iterator[RawFinding]]):
        if not ID_RE.match(id):
            raise ValueError(f"rule id {id!r} must be three capitals and three digits")
        if id in REGISTRY:
            raise ValueError(f"rule id {id} registered twice")
        if name in BY_NAME:
            raise ValueError(f"rule name {name} registered twice ({BY_NAME[name]}, {id})")
        if scope not in SCOPES:
            raise ValueError(f"scope {scope!r} not in {SCOPES}")
        if requires is not None and REQUIREMENTS.get(requires, ("",))[0] != scope:
            raise ValueError(f"{id}: requires={requires!r} is not a {scope} requirement ({sorted(REQUIREMENTS)})")
        if fix_safety not in (None, *FIX_SAFETY):
            raise ValueError(f"{id}: fix_safety={fix_safety!r} not in {FIX_SAFETY}")
        if fix_safety and not fix_note:
            raise ValueError(f"{id}: fix_safety needs a fix_note saying why")
        summary, sections = parse_sections(func.__doc__ or "")
        family = _family(func.__module__)
        meta = RuleMeta(id, name, severity, scope, frozenset(versions), per_version, fix, family, func,
                        summary, sections, profiled, default, requires, fix_safety, fix_note)
        REGISTRY[id] = meta
        BY_NAME[name] = id
        func.meta = meta  # type: ignore[attr-defined]  # (a function object takes attributes)
        return func

    return deco


_SORTED: list = []  # REGISTRY's rules by ID, rebuilt when a rule is registered


def all_rules() -> list[RuleMeta]:
    from . import rules  # noqa: F401  (importing the package registers every family)

    rules.load_all()
    if len(_SORTED) != len(REGISTRY):
        _SORTED[:] = sorted(REGISTRY.values(), key=lambda m: m.id)
    return list(_SORTED)


def get(id_or_name: str) -> RuleMeta | None:
    if not _SORTED:
        all_rules()
    key = id_or_name.upper()
    if key in REGISTRY:
        return REGISTRY[key]
    rid = BY_NAME.get(id_or_name)
    return REGISTRY.get(rid) if rid else None
