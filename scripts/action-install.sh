#!/usr/bin/env bash
# Step 1 of action.yml: install mcplint from the action's own checkout (so the version is
# the ref the workflow pinned in `uses: ...@REF`) into a private virtual environment, and
# hand its interpreter to the next step through $GITHUB_ENV. The workflow's own Python
# and packages are left alone (a probed server may need them).
set -euo pipefail
: "${MCPLINT_ACTION_PATH:?}"
PY=${MCPLINT_PYTHON:-python3}
TEMP=${RUNNER_TEMP:-$(mktemp -d)}
VENV="$TEMP/mcplint-venv"
"$PY" -c 'import sys; sys.exit(sys.version_info < (3, 10))' \
  || { echo "::error title=mcplint::$PY is older than Python 3.10; set the action's python input"; exit 2; }
"$PY" -m venv "$VENV"
if [ -x "$VENV/bin/python" ]; then BIN="$VENV/bin/python"; else BIN="$VENV/Scripts/python.exe"; fi
"$BIN" -m pip install --quiet --disable-pip-version-check --cache-dir "$TEMP/mcplint-pip-cache" "$MCPLINT_ACTION_PATH"
"$BIN" -m mcplint --version
echo "MCPLINT_BIN_PYTHON=$BIN" >> "${GITHUB_ENV:-/dev/null}"
