"""A release a user can install: one source of the version; `python -m build` makes an sdist
and a wheel that `twine check` passes; the wheel, installed in a fresh virtual environment,
runs from outside the checkout; the README's snippets pin a commit that exists; SARIF points
at the project's README.

The build needs `build`, `twine`, `wheel` and setuptools 68 or newer (the `test` extra) and
no network (no build isolation). Without them the slow test is skipped on a developer's
machine, never in CI (CI=true), where they must be there.
The wheel is installed without its dependencies, which the fresh environment borrows from
this one (a `.pth` line), so the test needs no network for them."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest

import mcplint

ROOT = Path(__file__).resolve().parent.parent


def test_one_source_of_the_version():
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in pyproject["project"], "the version is written in mcplint/__init__.py only"
    assert pyproject["project"]["dynamic"] == ["version"]
    assert pyproject["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "mcplint.__version__"}
    from click.testing import CliRunner

    from mcplint.cli import main

    assert CliRunner().invoke(main, ["--version"]).stdout.strip() == f"mcplint, version {mcplint.__version__}"
    assert re.search(rf"^## {re.escape(mcplint.__version__)}\b", (ROOT / "CHANGELOG.md").read_text(), re.M)


def _driver(monkeypatch=None, metadata=None):
    import json

    from click.testing import CliRunner

    from mcplint.cli import main

    out = CliRunner().invoke(main, ["scan", "--no-config", "--format", "sarif", "-"],
                             input='{"name": "a", "inputSchema": {"type": "object"}}').stdout
    return json.loads(out)["runs"][0]["tool"]["driver"], out


def test_sarif_information_uri_only_where_the_project_declares_one():
    driver, out = _driver()
    # No public address is declared ([project.urls] is empty): claim none (informationUri is optional
    # in SARIF 2.1.0), and point at no package index entry that does not exist.
    assert "informationUri" not in driver
    assert "pypi.org" not in out and "OWNER" not in out
    assert "Homepage" not in (ROOT / "pyproject.toml").read_text()


def _metadata(version, *urls, home_page=None):
    from email.message import Message

    m = Message()
    m["Name"], m["Version"] = "mcplint", version
    for u in urls:
        m["Project-URL"] = u
    if home_page:
        m["Home-page"] = home_page
    return m


def test_homepage_is_read_from_the_distribution_metadata():
    from mcplint.about import homepage

    v = mcplint.__version__
    assert homepage(_metadata(v, "Source, https://git.example.org/mcplint",
                              "Home-Page, https://mcplint.example.org/")) == "https://mcplint.example.org/"
    assert homepage(_metadata(v, "Bug Tracker, https://x.example/issues",
                              "Documentation, https://docs.example.org")) == "https://docs.example.org"
    assert homepage(_metadata(v, "Homepage, javascript:alert(1)", "Repository, https://r.example/m")) == "https://r.example/m"
    assert homepage(_metadata(v, home_page="https://legacy.example.org")) == "https://legacy.example.org"
    assert homepage(_metadata(v, "Tracker, https://x.example/issues")) is None  # no page about the tool
    assert homepage(_metadata("0.0.0-other", "Homepage, https://a.example")) is None  # another copy's metadata
    assert homepage(_metadata(v)) is None


def test_sarif_uses_a_declared_homepage(monkeypatch):
    import json

    import jsonschema

    monkeypatch.setattr("mcplint.about.homepage", lambda metadata=None: "https://mcplint.example.org/")
    driver, out = _driver()
    assert driver["informationUri"] == "https://mcplint.example.org/"
    schema = json.loads((ROOT / "tests" / "data" / "schemas" / "sarif-2.1.0.json").read_text())
    assert not list(jsonschema.Draft7Validator(schema).iter_errors(json.loads(out)))


def test_readme_snippets_pin_a_commit_that_exists_and_show_the_tag_form():
    readme = (ROOT / "README.md").read_text()
    pins = re.findall(r"uses: OWNER/mcplint@(\S+)", readme) + re.findall(r"^\s+rev: (\S+)", readme, re.M)
    assert pins and all(re.fullmatch(r"[0-9a-f]{40}", p) for p in pins), pins
    assert "# rev: v" in readme and "tag form" in readme
    assert "pipx run" in readme and "uvx" in readme
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: cannot check that the pinned commit exists")
    for sha in set(pins):
        done = subprocess.run(["git", "-C", str(ROOT), "cat-file", "-e", f"{sha}^{{commit}}"], capture_output=True)
        assert done.returncode == 0, f"README pins {sha}, which is not a commit of this repository"
        has_hooks = subprocess.run(["git", "-C", str(ROOT), "cat-file", "-e", f"{sha}:.pre-commit-hooks.yaml"],
                                   capture_output=True)
        has_action = subprocess.run(["git", "-C", str(ROOT), "cat-file", "-e", f"{sha}:action.yml"],
                                    capture_output=True)
        assert has_hooks.returncode == 0 and has_action.returncode == 0  # the pinned commit has both


def _tools_or_skip():
    missing = [m for m in ("build", "twine", "wheel") if importlib.util.find_spec(m) is None]
    import setuptools

    if int(setuptools.__version__.split(".")[0]) < 68:
        missing.append("setuptools>=68")
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"{', '.join(missing)} missing in CI: install the test extra")
        pytest.skip(f"{', '.join(missing)} not installed (the test extra has them)")


@pytest.mark.slow
def test_build_check_and_run_the_wheel_in_a_fresh_venv(tmp_path):
    _tools_or_skip()
    dist = tmp_path / "dist"
    # no build isolation: the build uses this environment's setuptools and wheel, so no network
    built = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(dist), str(ROOT)],
                           capture_output=True, text=True, timeout=900)
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    wheels = list(dist.glob("*.whl"))
    sdists = list(dist.glob("*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1
    assert wheels[0].name.startswith(f"mcplint-{mcplint.__version__}-")
    checked = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", *map(str, wheels + sdists)],
                             capture_output=True, text=True, timeout=300)
    assert checked.returncode == 0 and checked.stdout.count("PASSED") == 2, checked.stdout + checked.stderr

    names = zipfile.ZipFile(wheels[0]).namelist()
    assert "mcplint/_profiles/openai-strict.yaml" in names and "mcplint/data/profile.schema.json" in names
    assert "mcplint/autofix/yamledit.py" in names
    with tarfile.open(sdists[0]) as tar:
        members = {m.name.split("/", 1)[1] for m in tar.getmembers() if "/" in m.name}
    assert {"README.md", "CHANGELOG.md", "profiles/openai-strict.yaml", "setup.py"} <= members

    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MCPLINT_DEBUG")}  # nothing of the checkout
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300, env=env)
    bindir = venv / ("Scripts" if os.name == "nt" else "bin")
    py = bindir / "python"
    installed = subprocess.run([str(py), "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
                                "--disable-pip-version-check", str(wheels[0])], capture_output=True, text=True,
                               timeout=600, env=env)
    assert installed.returncode == 0, installed.stderr[-2000:]
    # mcplint's dependencies come from this environment, after the fresh one's own site-packages
    purelib = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    Path(purelib, "_deps_from_test_env.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = subprocess.run([str(py), "-c", "import mcplint; print(mcplint.__file__)"], cwd=elsewhere,
                           capture_output=True, text=True, env=env, timeout=120)
    assert where.stdout.startswith(purelib) and str(ROOT) not in where.stdout, where.stdout + where.stderr
    version = subprocess.run([str(bindir / "mcplint"), "--version"], cwd=elsewhere, capture_output=True, text=True,
                             env=env, timeout=120)
    assert version.stdout.strip() == f"mcplint, version {mcplint.__version__}"
    example = elsewhere / "tools.json"
    example.write_text((ROOT / "examples" / "weather-server.tools.json").read_text())
    scan = subprocess.run([str(bindir / "mcplint"), "scan", "tools.json", "--profile", "strict",
                           "--output-format", "concise"], cwd=elsewhere, capture_output=True, text=True, env=env,
                          timeout=300)
    assert scan.returncode == 1 and re.search(r"^tools\.json:\d+:\d+: DEC001 ", scan.stdout, re.M), scan.stderr
    fixed = subprocess.run([str(bindir / "mcplint"), "scan", "tools.json", "--fix", "-q"], cwd=elsewhere,
                           capture_output=True, text=True, env=env, timeout=300)
    assert fixed.returncode in (0, 1) and "Traceback" not in fixed.stderr
    rule = subprocess.run([str(bindir / "mcplint"), "rule", "DEC001"], cwd=elsewhere, capture_output=True,
                          text=True, env=env, timeout=120)
    assert rule.returncode == 0 and "What it does" in rule.stdout and "<!--" not in rule.stdout
