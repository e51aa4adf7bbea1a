"""``mcplint server``: the language server (the optional ``mcplint[lsp]`` extra)."""

from __future__ import annotations

import click


@click.command("server")
@click.option("--stdio", is_flag=True, help="Talk LSP over stdin and stdout (the default and only transport; "
                                            "accepted because editors' clients often pass it).")
def server(stdio: bool = False) -> None:
    """Serve mcplint's diagnostics, quick fixes and rule docs to an editor (Language Server
    Protocol over stdio). Tools files (JSON, YAML) are linted as they are typed; Python server
    files when saved (they are imported, with the import timeout). See docs/editor.md."""
    try:
        from ..lsp.server import main
    except ModuleNotFoundError as e:
        if e.name and e.name.split(".")[0] in ("pygls", "lsprotocol", "cattrs"):
            from ..errors import InputError

            raise InputError(f"`mcplint server` needs the {e.name.split('.')[0]} package: "
                             'install mcplint with the lsp extra (pip install "mcplint[lsp]")') from None
        raise
    main()
