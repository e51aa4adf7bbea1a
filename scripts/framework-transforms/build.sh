#!/usr/bin/env bash
# Build the virtual environment convert.py runs in: the pinned frameworks of requirements.txt, and
# litellm without its declared dependencies (only what its Gemini conversion imports).
# Usage: build.sh DIR   (then DIR/bin/python convert.py)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:?usage: build.sh DIR}
PY=${PYTHON:-python3}
if [ ! -x "$dir/bin/python" ]; then
  "$PY" -m venv "$dir"
fi
"$dir/bin/python" -m pip install --quiet -r "$here/requirements.txt"
"$dir/bin/python" -m pip install --quiet --no-deps "litellm==1.110.2"
# the check: every conversion imports, offline
echo '{"schemas": [{"type": "object", "properties": {}}]}' | "$dir/bin/python" "$here/convert.py" >/dev/null
