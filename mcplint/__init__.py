"""mcplint: lint MCP tool definitions against the MCP spec, JSON Schema, safety
bounds, the JSON Structure binding, and what each constrained decoder can enforce."""

__version__ = "0.1.0"  # the one place the version is written (pyproject.toml reads it)
# Where users read about mcplint is declared once, in pyproject.toml's [project.urls] (none yet):
# see mcplint.about.

# The validation gateway and the projection, loaded on first use so that `import mcplint` stays cheap.
_LAZY = {"validate_arguments": "validate", "validate_result": "validate", "Problem": "validate",
         "project_schema": "project"}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
