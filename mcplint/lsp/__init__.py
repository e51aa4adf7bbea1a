"""``mcplint server``: the Language Server Protocol front end.

A thin layer over the pipeline the command line runs: a buffer's text is parsed and linted by
:func:`mcplint.engine.lint_document` (a Python server file by :func:`mcplint.engine.lint_paths`,
on save only: it is imported), the workspace's configuration applies, fixes are the text edits
``--fix`` makes (:mod:`mcplint.autofix`) and hover text is ``mcplint rule ID``'s Markdown.
:mod:`.analysis` holds what does not depend on the LSP library; :mod:`.server` is the wiring
(pygls and lsprotocol, the optional ``mcplint[lsp]`` extra). Nothing outside this package
imports it.
"""
