"""MCP protocol versions mcplint knows, oldest first."""

from __future__ import annotations

VERSIONS: tuple[str, ...] = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28")
LATEST = VERSIONS[-1]
ALL = frozenset(VERSIONS)


def since(version: str) -> frozenset[str]:
    """Every known version from ``version`` on (inclusive)."""
    return frozenset(v for v in VERSIONS if v >= version)


def before(version: str) -> frozenset[str]:
    """Every known version older than ``version``."""
    return frozenset(v for v in VERSIONS if v < version)


_ORDERED: dict = {}


def ordered(versions) -> tuple[str, ...]:
    key = versions if isinstance(versions, frozenset) else frozenset(versions)
    hit = _ORDERED.get(key)
    if hit is None:
        hit = tuple(v for v in VERSIONS if v in key)
        if len(_ORDERED) < 4096:  # subsets of a handful of versions: few distinct keys in practice
            _ORDERED[key] = hit
    return hit


def is_known(version: str) -> bool:
    return version in ALL


# Tool members and the versions that define them (schema.ts of each version; the MCP Description
# validation guide's field table). A member defined by only some versions tells which a file can be for.
TOOL_MEMBERS: dict[str, frozenset] = {
    "name": ALL,
    "description": ALL,
    "inputSchema": ALL,
    "annotations": since("2025-03-26"),
    "title": since("2025-06-18"),
    "outputSchema": since("2025-06-18"),
    "_meta": since("2025-06-18"),
    "icons": since("2025-11-25"),
    "execution": frozenset({"2025-11-25"}),
}


def spelled(versions) -> str:
    """``versions`` in words: "2025-11-25", "2025-06-18, 2025-11-25", or a run of three or more
    consecutive known versions as "2024-11-05 to 2026-07-28"."""
    vs = ordered(versions)
    if len(vs) >= 3 and VERSIONS.index(vs[-1]) - VERSIONS.index(vs[0]) == len(vs) - 1:
        return f"{vs[0]} to {vs[-1]}"
    return ", ".join(vs)
