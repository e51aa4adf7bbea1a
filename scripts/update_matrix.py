"""Regenerate the keyword x target matrix of docs/targets.md from the profiles
(`mcplint verify --report`), between its two markers; run from anywhere:
``python scripts/update_matrix.py``. tests/verify/test_report_matrix.py fails when it is stale."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

TARGETS = Path(__file__).resolve().parent.parent / "docs" / "targets.md"
BEGIN, END = "<!-- BEGIN verify --report -->\n", "<!-- END verify --report -->"


def main() -> int:
    text = TARGETS.read_text(encoding="utf-8")
    head, rest = text.split(BEGIN, 1)
    tail = rest.split(END, 1)[1]
    report = subprocess.run([sys.executable, "-m", "mcplint", "verify", "--report"], capture_output=True,
                            text=True, check=True, cwd=TARGETS.parent.parent).stdout
    TARGETS.write_text(head + BEGIN + report + END + tail, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
