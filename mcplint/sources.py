"""Source kinds: how a path given to a scan becomes a :class:`~mcplint.model.Document`, what
the document is (:meth:`SourceKind.claims_document`) and so which collections it gives, and what
its kind does with the findings once the document is linted.

Two kinds load files:

* :class:`DataFile`: a JSON, YAML or TOML file, read as text (:func:`mcplint.load.parse_file`);
  unless a kind below claims its content, it holds tool definitions (:func:`mcplint.collect.collect`).
* :class:`PythonServer`: a Python MCP server file (``server.py``, ``server.py:name``), imported
  in a child interpreter (:mod:`mcplint.pysource`); its findings are kept to what its code can
  act on, and a server that other files of the run define is passed over there.

Three kinds are told by the content of a loaded file (they claim no path):

* :class:`ProbeCaptureFile`: a probe's saved capture (``mcplint probe --save``), one collection
  per capture, linted as the probe that wrote it linted them;
* :class:`ServerManifest`: an MCP Registry server.json (the REG rules);
* :class:`ClientConfiguration`: an MCP client's configuration (the CFG rules).

The engine asks :func:`kind_of` for a path's kind and :func:`kind_of_document` for a document's,
and knows no kind by name; a new kind is a class with the methods of :class:`SourceKind`, put
in :data:`KINDS` before the catch-all.

What generated a document's schemas, whichever kind loaded it, is known here too: a fix is said
in its author's terms (:func:`in_generators_words`): pydantic's for a Python server's models,
zod's or a Python SDK's for a tools/list (a file, a probe's capture) that such code wrote
(:mod:`mcplint.pysource.fixes`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from .load import parse_file, py_target

if TYPE_CHECKING:
    from .collect import Collection
    from .config import Config
    from .model import Document


class SourceKind(Protocol):
    name: str
    captures: bool  # its collections are a probe's captures (linted together, as the probe lints them)

    def claims(self, path: str) -> bool:
        """Whether ``path`` (as given to the scan) is of this kind."""
        ...

    def load(self, path: str, config: Config) -> Document:
        """The document of ``path`` (an InputError when it cannot be read or understood)."""
        ...

    def claims_document(self, doc: Document) -> bool:
        """Whether the loaded ``doc`` is of this kind (by its content)."""
        ...

    def collections(self, doc: Document, config: Config) -> list[Collection]:
        """What ``doc`` holds to lint: one collection, or (:attr:`captures`) one per capture."""
        ...

    def after_lint(self, doc: Document, findings: list) -> list:
        """The findings of ``doc`` as the kind reports them."""
        ...

    def held(self, doc: Document, files: list[str]) -> bool:
        """Whether ``doc`` waits until every file of the run (``files``) is linted before it is
        reported or passed over (:meth:`passed_over`)."""
        ...

    def passed_over(self, doc: Document, files: list[str], documents: list) -> str | None:
        """For a held document: the note saying why it is not reported, or None to report it
        (``documents``: those reported)."""
        ...


class _Loaded:
    """What every kind does unless it says otherwise: it claims no path and no document, and
    reports its findings as they are."""

    name = ""
    captures = False

    def claims(self, path: str) -> bool:
        return False

    def load(self, path: str, config: Config) -> Document:
        raise NotImplementedError(f"a {self.name} is told by its content: a data file loads it")

    def claims_document(self, doc: Document) -> bool:
        return False

    def collections(self, doc: Document, config: Config) -> list[Collection]:
        return [tool_definitions(doc, config)]

    def after_lint(self, doc: Document, findings: list) -> list:
        return findings

    def held(self, doc: Document, files: list[str]) -> bool:
        return False

    def passed_over(self, doc: Document, files: list[str], documents: list) -> str | None:
        return None


def tool_definitions(doc: Document, config: Config) -> Collection:
    """The tools ``doc`` declares (:func:`mcplint.collect.collect`), checked for the versions
    chosen; with none chosen, a Python server for its SDK's newest, and a document that names
    none (nor was probed) for those its content is consistent with (:func:`~mcplint.collect.assume_versions`)."""
    from .collect import assume_versions, collect
    from .registry import FILE_KINDS

    served = doc.code.sdk_versions if doc.code is not None else ()
    from_sdk = bool(served) and not config.versions_chosen  # a Python server: its SDK's newest
    coll = collect(doc, served[-1:] if from_sdk else config.protocol_versions)
    # a manifest or a client's configuration names no protocol version, and is not served under one
    unversioned = not from_sdk and coll.shape not in ("mcpdesc", *FILE_KINDS)  # it names none itself
    if unversioned and not config.versions_chosen and doc.capture is None:  # nor chosen, nor probed:
        assume_versions(coll)  # checked for what its content can be for
    return coll


class ProbeCaptureFile(_Loaded):
    name = "capture"
    captures = True

    def claims_document(self, doc: Document) -> bool:
        from .capture import is_capture

        return is_capture(doc.data)

    def collections(self, doc: Document, config: Config) -> list[Collection]:
        # every capture, for every version it records (narrowed by ``server-versions``;
        # ``protocol-versions`` is for files that do not say)
        from .capture import capture_collections

        return capture_collections(doc, config.server_versions)


class ServerManifest(_Loaded):
    name = "server.json"

    def claims_document(self, doc: Document) -> bool:
        from .collect import is_jsonrpc_response, is_server_json

        return not is_jsonrpc_response(doc.data) and is_server_json(doc, doc.data)

    def collections(self, doc: Document, config: Config) -> list[Collection]:
        from .collect import manifest_collection

        return [manifest_collection(doc, config.protocol_versions)]


class ClientConfiguration(_Loaded):
    name = "client configuration"

    def claims_document(self, doc: Document) -> bool:
        from .collect import client_of, may_be_client_config

        return may_be_client_config(doc.data) and client_of(doc) is not None

    def collections(self, doc: Document, config: Config) -> list[Collection]:
        from .collect import client_collection, client_of

        client = client_of(doc)
        assert client is not None  # (claimed)
        return [client_collection(doc, client, config.protocol_versions)]


class DataFile(_Loaded):
    name = "data"

    def claims(self, path: str) -> bool:
        return True

    def load(self, path: str, config: Config) -> Document:
        return parse_file(path, config.bounds.max_file_bytes)

    def claims_document(self, doc: Document) -> bool:
        return True  # (what no other kind claims: tool definitions)



class PythonServer(_Loaded):
    name = "python"

    def claims(self, path: str) -> bool:
        return py_target(path) is not None

    def load(self, path: str, config: Config) -> Document:
        from .pysource import load_python

        return load_python(path, config.python, config.import_timeout, config.factory)

    def after_lint(self, doc: Document, findings: list) -> list:
        if doc.code is not None and doc.code.locations:  # what its code can act on, and once where one change fixes all
            from .pysource.fixes import actionable_in_code, fold_server_wide

            findings = fold_server_wide(actionable_in_code(findings))
        return findings

    def held(self, doc: Document, files: list[str]) -> bool:
        if doc.code is None or not doc.code.server_homes:  # (it imports no server another file defines)
            return False
        from .pysource import homes_given

        return homes_given(doc, files)

    def passed_over(self, doc: Document, files: list[str], documents: list) -> str | None:
        from .pysource import reexported

        return reexported(doc, files, documents)


KINDS: tuple[SourceKind, ...] = (PythonServer(), ProbeCaptureFile(), ServerManifest(), ClientConfiguration(),
                                 DataFile())


def kind_of(path: str) -> SourceKind:
    """The kind of the file ``path`` names: the first of :data:`KINDS` that claims it."""
    return next(k for k in KINDS if k.claims(path))


def kind_of_document(doc: Document) -> SourceKind:
    """What the loaded ``doc`` is: the first of :data:`KINDS` that claims its content (a Python
    server's document, as a data file's that no other kind claims, holds tool definitions)."""
    return next(k for k in KINDS if k.claims_document(doc))


def held_by(doc: Document, files: list[str]) -> SourceKind | None:
    """The kind that holds ``doc`` back until every file is in (:meth:`SourceKind.held`), if any."""
    return next((k for k in KINDS if k.held(doc, files)), None)


def in_generators_words(doc: Document, findings: list) -> list:
    """The findings of ``doc``, each fix restated in the terms of what generated its schemas
    (pydantic, zod, a Python SDK), when something it knows did; else as they are."""
    from .pysource.fixes import restate_all

    return restate_all(findings, doc)
