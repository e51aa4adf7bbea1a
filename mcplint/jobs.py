"""How many worker processes ``mcplint scan`` spreads its files over."""

from __future__ import annotations

import os

from .load import py_target

PARALLEL_MIN_FILES = 4
PARALLEL_MIN_BYTES = 512 * 1024


def jobs_for(files: list[str], jobs: int | None) -> int:
    """``jobs`` as asked; None means: every core, when the run is big enough to repay the workers."""
    if jobs is not None:
        return max(1, min(jobs, len(files)))
    if "-" in files:
        return 1
    if sum(1 for f in files if py_target(f)) >= 2:  # each imports a server in an interpreter of its own
        return max(1, min(os.cpu_count() or 1, len(files)))
    if len(files) < PARALLEL_MIN_FILES:
        return 1
    try:
        size = sum(os.path.getsize(f) for f in files)
    except OSError:
        return 1
    return max(1, min(os.cpu_count() or 1, len(files))) if size >= PARALLEL_MIN_BYTES else 1
