#!/usr/bin/env bash
# Wall time of the mcplint pre-commit hook on a one-file commit, next to check-jsonschema's.
# Builds its own venv under bench/out/ (check-jsonschema is installed there only, never as a
# dependency of mcplint), makes a throwaway git repo with one staged tools file, and times
# `pre-commit run` (hooks installed beforehand, so only the hook's own run is measured) and
# the bare commands. Prints the best of N interleaved runs. Usage: bash bench/hook-time.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
N=${1:-10}
OUT=$ROOT/bench/out
mkdir -p "$OUT"
if [ ! -x "$OUT/venv/bin/python" ]; then
  python3 -m venv "$OUT/venv"
fi
"$OUT/venv/bin/python" -m pip install --quiet check-jsonschema pre-commit
"$OUT/venv/bin/python" -m pip install --quiet --force-reinstall --no-deps "$ROOT"
"$OUT/venv/bin/python" -m pip install --quiet "$ROOT"
REPO=$(mktemp -d)
trap 'rm -rf "$REPO"' EXIT
cp "$ROOT/tests/data/corpus/filesystem.tools.json" "$REPO/tools.json"
# A structural schema for a tools/list result, so check-jsonschema has work comparable to a lint.
cat > "$REPO/tools.schema.json" <<'JSON'
{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "required": ["tools"],
 "properties": {"tools": {"type": "array", "items": {"type": "object", "required": ["name", "inputSchema"],
   "properties": {"name": {"type": "string"}, "description": {"type": "string"},
                  "inputSchema": {"type": "object", "required": ["type"], "properties": {"type": {"const": "object"}}},
                  "outputSchema": {"type": "object"}}}}}}
JSON
cat > "$REPO/.pre-commit-config.yaml" <<YAML
repos:
  - repo: local
    hooks:
      - {id: mcplint, name: mcplint, entry: $OUT/venv/bin/mcplint scan, language: system, types_or: [json, yaml],
         files: '(^|/)(([^/]*[._-])?tools|[^/]*\.mcpdesc)\.(json|ya?ml)$'}
      - {id: check-jsonschema, name: check-jsonschema, entry: $OUT/venv/bin/check-jsonschema --schemafile tools.schema.json,
         language: system, files: '^tools\.json$'}
YAML
cd "$REPO"
git init -q && git add -A
"$OUT/venv/bin/python" - "$N" "$OUT/venv/bin" <<'PY'
import subprocess, sys, time
n, bin_ = int(sys.argv[1]), sys.argv[2]
rows = [
    ("pre-commit run mcplint (1 staged file)", [f"{bin_}/pre-commit", "run", "mcplint"]),
    ("pre-commit run check-jsonschema (1 staged file)", [f"{bin_}/pre-commit", "run", "check-jsonschema"]),
    ("mcplint scan tools.json", [f"{bin_}/mcplint", "scan", "tools.json"]),
    ("check-jsonschema --schemafile ... tools.json", [f"{bin_}/check-jsonschema", "--schemafile", "tools.schema.json", "tools.json"]),
    ("python -c pass (interpreter floor)", [f"{bin_}/python", "-c", "pass"]),
]
best = {label: float("inf") for label, _ in rows}
for _ in range(n):  # interleaved, so a burst of load on the machine hits every command alike
    for label, cmd in rows:
        t = time.perf_counter()
        p = subprocess.run(cmd, capture_output=True, text=True)
        best[label] = min(best[label], time.perf_counter() - t)
        if p.returncode:
            sys.exit(f"{cmd} failed ({p.returncode}): {p.stdout}{p.stderr}")
for label, _ in rows:
    print(f"{label:<50} {best[label] * 1000:7.0f} ms")
PY
