"""Start-up stays lean for the pre-commit hook: a scan imports rich, the YAML parser,
jsonschema and the decoder profiles only when the run needs them."""

from __future__ import annotations

import re
import subprocess
import sys



def imported(tmp_path, *args, suffix=".json", text='{"name": "a", "inputSchema": {"type": "object"}}'):
    f = tmp_path / ("t" + suffix)
    f.write_text(text)
    p = subprocess.run([sys.executable, "-X", "importtime", "-m", "mcplint", "scan", "--no-config", *args, str(f)],
                       capture_output=True, text=True, cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    return {m.group(1) for m in re.finditer(r"\|\s+(\S+)\s*$", p.stderr, re.M)}


def test_plain_json_scan_skips_heavy_modules(tmp_path):
    mods = imported(tmp_path)
    for heavy in ("rich", "yaml", "mcplint.report.sarif", "pre_commit", "pygls", "lsprotocol", "mcplint.lsp"):
        assert heavy not in mods, heavy


def test_plain_json_scan_skips_profiles(tmp_path):
    assert "mcplint.profiles" not in imported(tmp_path)


def test_selected_rules_only_import_what_they_need(tmp_path):
    assert "jsonschema" not in imported(tmp_path, "--select", "DOC001")


def test_yaml_is_imported_for_yaml_input(tmp_path):
    mods = imported(tmp_path, suffix=".yaml", text="name: a\ninputSchema: {type: object}\n")
    assert "yaml" in mods and "rich" not in mods
