#!/usr/bin/env bash
# Build llama-schema-check from the llama.cpp sources vendored in the llama-cpp-python sdist:
# only the JSON-Schema-to-grammar converter, the schema reader, the grammar parser and matcher
# (7 files, about a minute on 2 cores), not the model runtime.
#   scripts/llama-schema-check/build.sh [OUTDIR]      (default: build/llama-schema-check)
# Then: MCPLINT_LLAMA_SCHEMA_CHECK=OUTDIR/llama-schema-check mcplint verify --decoder llama-cpp
# LLAMA_CPP_PYTHON_VERSION=0.3.35 builds the converter of an older sdist (llama.cpp 4df29be4f), to see what
# older llama-server builds did (docs/profiles.md: "llama.cpp builds").
set -euo pipefail
VERSION="${LLAMA_CPP_PYTHON_VERSION:-0.3.36}"
HERE="$(cd "$(dirname "$0")" && pwd)"
OUT="$(mkdir -p "${1:-build/llama-schema-check}" && cd "${1:-build/llama-schema-check}" && pwd)"
PY="${PYTHON:-python3}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
"$PY" -m pip download --quiet --no-deps --no-binary :all: "llama-cpp-python==$VERSION" -d "$WORK"
tar xzf "$WORK"/llama_cpp_python-"$VERSION".tar.gz -C "$WORK" \
  "llama_cpp_python-$VERSION/vendor/llama.cpp/common" "llama_cpp_python-$VERSION/vendor/llama.cpp/src" \
  "llama_cpp_python-$VERSION/vendor/llama.cpp/include" "llama_cpp_python-$VERSION/vendor/llama.cpp/ggml/include" \
  "llama_cpp_python-$VERSION/vendor/llama.cpp/vendor"
L="$WORK/llama_cpp_python-$VERSION/vendor/llama.cpp"
INC=(-I"$L/common" -I"$L/src" -I"$L/include" -I"$L/ggml/include" -I"$L/vendor")
FLAGS=(-std=c++17 -O1 -ffunction-sections -fdata-sections -DLLAMA_SCHEMA_CHECK_VERSION="\"llama-cpp-python $VERSION\"")
SOURCES=("$L/common/json-schema-to-grammar.cpp" "$L/common/json-schema.cpp" "$L/common/json.cpp" "$L/common/trie.cpp"
         "$L/common/unicode.cpp")
if [ ! -f "$L/common/json-schema.cpp" ]; then
  # llama-cpp-python 0.3.35 and older (llama.cpp before 0c1e5709): the converter is one file on nlohmann's json
  SOURCES=("$L/common/json-schema-to-grammar.cpp")
fi
pids=()
for f in "${SOURCES[@]}" "$L/src/llama-grammar.cpp" "$HERE/main.cpp" "$HERE/stubs.cpp"; do
  "${CXX:-g++}" "${FLAGS[@]}" "${INC[@]}" -c "$f" -o "$WORK/$(basename "$f" .cpp).o" & pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
"${CXX:-g++}" -Wl,--gc-sections "$WORK"/*.o -o "$OUT/llama-schema-check"
echo "$OUT/llama-schema-check"
