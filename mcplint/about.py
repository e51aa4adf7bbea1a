"""Where users read about mcplint (SARIF's ``informationUri``), only where an address is known.

The project declares its addresses in one place, ``[project.urls]`` in ``pyproject.toml``; an
installed mcplint reads them back from its distribution's metadata (``Project-URL``). None is
declared while the project has no public address, and then none is claimed: SARIF's
``informationUri`` is optional and stays out. The GitHub Action knows one more honest address,
the repository the runner fetched the action from (see :func:`mcplint.action.action_homepage`).
"""

from __future__ import annotations

from urllib.parse import urlsplit

# Project-URL labels, most specific to where a user reads about the tool first (labels are
# compared without case, spaces, dashes or underscores, as packaging's normalisation does)
LABELS = ("homepage", "documentation", "docs", "repository", "source", "sourcecode")


def is_web_address(uri: str) -> bool:
    parts = urlsplit(uri)
    return parts.scheme in ("https", "http") and bool(parts.netloc)


def homepage(metadata=None) -> str | None:
    """The Homepage (else Documentation, Repository, Source) Project-URL of the installed
    distribution, when it is this version of mcplint; None when nothing is declared."""
    from . import __version__

    if metadata is None:
        from importlib import metadata as importlib_metadata

        try:
            metadata = importlib_metadata.metadata("mcplint")
        except importlib_metadata.PackageNotFoundError:
            return None
    if metadata.get("Version") != __version__:  # another copy's metadata says nothing of this code
        return None
    urls: dict = {}
    for entry in metadata.get_all("Project-URL") or []:
        label, _, url = entry.partition(",")
        key = "".join(c for c in label.lower() if c not in " -_.")
        url = url.strip()
        if is_web_address(url):
            urls.setdefault(key, url)
    for label in LABELS:
        if label in urls:
            return urls[label]
    legacy = (metadata.get("Home-page") or "").strip()
    return legacy if is_web_address(legacy) else None
