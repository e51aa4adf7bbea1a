"""Adapters for real constrained decoders, run offline on CPU.

Each adapter compiles a JSON Schema and tells whether a JSON text is accepted by the
compiled grammar, using a byte-level vocabulary so no tokenizer or model is needed.
Import is lazy: an adapter whose package is missing reports itself unavailable.
"""

from __future__ import annotations

import json
import sys
import types
from importlib import metadata


class CompileError(Exception):
    """The decoder refused the schema (the request would fail)."""


class Unavailable(Exception):
    pass


def _dist_version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        raise Unavailable(f"{name} is not installed (pip install {name})") from None


def dumps(instance) -> str:
    return json.dumps(instance, separators=(",", ":"), ensure_ascii=True)


class Llguidance:
    name = "llguidance"

    def __init__(self):
        self.version = _dist_version("llguidance")
        import llguidance

        class _Bytes:
            tokens = [bytes([i]) for i in range(256)] + [b"<eos>"]
            eos_token_id = 256
            bos_token_id = None
            special_token_ids = [256]

            def __call__(self, s):
                return list(s.encode() if isinstance(s, str) else s)

        self._ll = llguidance
        self._tok = llguidance.LLTokenizer(llguidance.TokenizerWrapper(_Bytes()))

    def compile(self, schema):
        grammar = self._ll.LLMatcher.grammar_from_json_schema(schema)
        is_error, messages = self._ll.LLMatcher.validate_grammar_with_warnings(grammar, self._tok)
        if is_error:
            raise CompileError("; ".join(messages) or "grammar error")
        return grammar

    def accepts(self, grammar, text: str) -> bool:
        m = self._ll.LLMatcher(self._tok, grammar)
        return bool(m.consume_tokens(list(text.encode())) and m.is_accepting())


class Outlines:
    name = "outlines"

    def __init__(self):
        self.version = _dist_version("outlines_core")
        import outlines_core

        self._oc = outlines_core
        self._eos = 0
        self._vocab = outlines_core.Vocabulary(self._eos, {chr(i): [i] for i in range(32, 127)})

    def compile(self, schema):
        from outlines_core.json_schema import build_regex_from_schema

        try:
            regex = build_regex_from_schema(json.dumps(schema))
            return self._oc.Index(regex, self._vocab)
        except Exception as e:  # outlines raises ValueError/TypeError with Rust messages
            raise CompileError(str(e).splitlines()[0][:300]) from None

    def accepts(self, index, text: str) -> bool:
        state = index.get_initial_state()
        for ch in text:
            nxt = index.get_next_state(state, ord(ch)) if 32 <= ord(ch) < 127 else None
            if nxt is None:
                return False
            state = nxt
        return index.is_final_state(state)


def _stub_attribute(attr: str):
    """Any class name a stub module is asked for; dunder look-ups (``__file__``, which tools
    that scan sys.modules read) are not there, as on a real module without them."""
    if attr.startswith("__") and attr.endswith("__"):
        raise AttributeError(attr)
    return type(attr, (), {"__init__": lambda self, *a, **k: None})


class Xgrammar:
    """xgrammar imports torch at module level; stub modules stand in (import tvm_ffi first)."""

    name = "xgrammar"

    def __init__(self):
        self.version = _dist_version("xgrammar")
        _dist_version("apache-tvm-ffi")
        import tvm_ffi  # noqa: F401  (must come before the stubs)

        for mod in ("torch", "transformers", "triton"):
            if mod not in sys.modules:
                stub = types.ModuleType(mod)
                stub.__getattr__ = _stub_attribute
                stub.__path__ = []
                sys.modules[mod] = stub
        import xgrammar
        from xgrammar.testing import _is_grammar_accept_string

        self._xgr = xgrammar
        self._accept = _is_grammar_accept_string

    def compile(self, schema):
        try:
            return self._xgr.Grammar.from_json_schema(json.dumps(schema))
        except Exception as e:
            msg = str(e).splitlines()[0]
            raise CompileError(msg.split(": ", 1)[-1][:300] if "cc:" in msg else msg[:300]) from None

    def accepts(self, grammar, text: str) -> bool:
        return bool(self._accept(grammar, text))


class LlamaCpp:
    """llama.cpp's C++ JSON-Schema-to-grammar converter and grammar parser/matcher, built from the
    sources vendored in the llama-cpp-python sdist into one small program
    (``scripts/llama-schema-check/build.sh``). Found through ``MCPLINT_LLAMA_SCHEMA_CHECK`` or on
    PATH as ``llama-schema-check``. A schema the converter fails on, or whose grammar does not
    parse, is refused (the request fails); a pattern it cannot translate is replaced by any
    string with a warning on stderr, which the probes see as dropped."""

    name = "llama-cpp"
    ENV = "MCPLINT_LLAMA_SCHEMA_CHECK"

    def __init__(self):
        import os
        import shutil
        import subprocess

        exe = os.environ.get(self.ENV) or shutil.which("llama-schema-check")
        if not exe or not os.path.isfile(exe):
            raise Unavailable("llama-schema-check is not built (scripts/llama-schema-check/build.sh, then set "
                              f"{self.ENV} to its path)")
        self._exe, self._run = exe, subprocess.run
        out = self._call(["--version"], None).strip()
        self.version = out.rsplit(" ", 1)[-1] if out else "unknown"

    def _call(self, args, request):
        proc = self._run([self._exe, *args], input=None if request is None else json.dumps(request),
                         capture_output=True, text=True, timeout=60)
        if proc.returncode != 0:
            raise CompileError(f"llama-schema-check exited with {proc.returncode}: {proc.stderr.strip()[:300]}")
        return proc.stdout

    def _ask(self, schema, instances):
        got = json.loads(self._call([], {"schema": schema, "instances": instances}))
        if not got.get("ok"):
            raise CompileError(str(got.get("error", "conversion failed")).replace("\n", " ")[:300])
        return got

    def compile(self, schema):
        self._ask(schema, [])
        return schema

    def accepts(self, schema, text: str) -> bool:
        return bool(self._ask(schema, [text])["accepts"][0])


DECODERS = {"llguidance": Llguidance, "outlines": Outlines, "xgrammar": Xgrammar, "llama-cpp": LlamaCpp}


def get(name: str):
    if name not in DECODERS:
        raise Unavailable(f"unknown decoder {name!r}; one of {', '.join(DECODERS)}")
    return DECODERS[name]()
