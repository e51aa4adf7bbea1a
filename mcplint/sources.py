"""Source kinds: how a path given to a scan becomes a :class:`~mcplint.model.Document`, and
what its kind does with the findings once the document is linted.

Two kinds load files today:

* :class:`DataFile`: a JSON, YAML or TOML file, read as text (:func:`mcplint.load.parse_file`).
  Which document it is (tool definitions, a probe's saved capture, an MCP client configuration,
  an MCP Registry server.json) is told by its content when it is collected
  (:func:`mcplint.collect.collect`), so each is linted with the rules for it.
* :class:`PythonServer`: a Python MCP server file (``server.py``, ``server.py:name``), imported
  in a child interpreter (:mod:`mcplint.pysource`); its findings are kept to what its code can
  act on, and a server that other files of the run define is passed over there.

The engine asks :func:`kind_of` for a path's kind and knows no kind by name; a new kind is a
class with the methods of :class:`SourceKind`, put in :data:`KINDS` before the catch-all."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from .load import parse_file, py_target

if TYPE_CHECKING:
    from .config import Config
    from .model import Document


class SourceKind(Protocol):
    name: str

    def claims(self, path: str) -> bool:
        """Whether ``path`` (as given to the scan) is of this kind."""
        ...

    def load(self, path: str, config: Config) -> Document:
        """The document of ``path`` (an InputError when it cannot be read or understood)."""
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


class DataFile:
    name = "data"

    def claims(self, path: str) -> bool:
        return True

    def load(self, path: str, config: Config) -> Document:
        return parse_file(path, config.bounds.max_file_bytes)

    def after_lint(self, doc: Document, findings: list) -> list:
        return findings

    def held(self, doc: Document, files: list[str]) -> bool:
        return False

    def passed_over(self, doc: Document, files: list[str], documents: list) -> str | None:
        return None


class PythonServer:
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


KINDS: tuple[SourceKind, ...] = (PythonServer(), DataFile())


def kind_of(path: str) -> SourceKind:
    """The kind of the file ``path`` names: the first of :data:`KINDS` that claims it."""
    return next(k for k in KINDS if k.claims(path))


def held_by(doc: Document, files: list[str]) -> SourceKind | None:
    """The kind that holds ``doc`` back until every file is in (:meth:`SourceKind.held`), if any."""
    return next((k for k in KINDS if k.held(doc, files)), None)
