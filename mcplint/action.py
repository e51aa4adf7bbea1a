"""The GitHub Action's logic (``action.yml`` runs ``python -m mcplint.action``).

Inputs arrive as ``MCPLINT_*`` environment variables (set from ``inputs.*`` through
``env:``, never pasted into a shell line). One lint run feeds every output:

* workflow-command annotations on stdout (``--format github``), when ``annotations``;
* the Markdown report appended to ``$GITHUB_STEP_SUMMARY``, when ``summary``;
* a SARIF file for ``github/codeql-action/upload-sarif``, when ``sarif`` names one;
* ``$GITHUB_OUTPUT``: ``exit-code``, ``findings``, ``errors``, ``warnings``, ``infos``, ``sarif-file``.

With ``probe-command``, the server is first probed (``mcplint probe --save SNAPSHOT -- CMD``)
and the snapshot is linted with the other paths. With ``probe-from``, every server of a
client's configuration is (``mcplint probe --from CONFIG --save DIR``), and the captures are
linted with the client's profile unless ``profiles`` names some, as ``probe --from`` lints
them; a server that could not be probed is an input error of that lint. The exit code is
mcplint's: 0 clean, 1 findings at or above ``fail-on``, 2 unusable input or configuration.
"""

from __future__ import annotations

import os
import re
import shlex
import sys
from pathlib import Path

TRUE = {"true", "1", "yes", "on"}


def workflow_command(name: str, text: str, title: str | None = None) -> str:
    """``::name title=...::text``, the text (which may quote input: a path, a configuration's
    value, a server's stderr) made inert and escaped as GitHub requires, so it stays this one
    command (see :mod:`mcplint.textsafe`)."""
    from .textsafe import github_data, github_property, lines

    props = f" title={github_property(title)}" if title else ""
    return f"::{name}{props}::{github_data(lines(text))}"


def env(name: str, default: str = "") -> str:
    return os.environ.get(f"MCPLINT_{name}", default).strip()


def words(value: str) -> list[str]:
    """Split a list input: newlines, commas or spaces (quotes respected)."""
    return [w for w in shlex.split(value.replace(",", " ")) if w]


def workspace_relative(path: str) -> str:
    """Annotations and SARIF need paths relative to the workspace: make absolute ones inside it so."""
    p = Path(path)
    if p.is_absolute():
        try:
            return p.resolve().relative_to(Path.cwd().resolve()).as_posix() or "."
        except ValueError:
            return path
    return path


# where the runner puts an action fetched by `uses: owner/repo@ref`: <runner>/_actions/owner/repo/ref
_FETCHED = re.compile(r"[/\\]_actions[/\\]([A-Za-z0-9_.-]+)[/\\]([A-Za-z0-9_.-]+)[/\\]([A-Za-z0-9_.-]+)[/\\]?$")
_SERVER = re.compile(r"https://[A-Za-z0-9.-]+(:\d+)?(/[A-Za-z0-9._~-]+)*")


def action_homepage() -> str | None:
    """The README of the repository, at the ref, this action was fetched from (SARIF's
    ``informationUri``), read from ``github.action_path``: the runner keeps a fetched action in
    ``_actions/owner/repo/ref``. Not from ``github.action_repository``/``action_ref``: in a
    composite action's steps they are empty (actions/runner#2473), passed through ``env:`` they
    name the outermost action when one composite action uses another, and GitHub does not
    promise them for composite actions (github/docs#25336). None for a local action
    (``uses: ./``), whose path says nothing of where it came from."""
    path = env("ACTION_PATH") or os.environ.get("GITHUB_ACTION_PATH", "")
    server = (os.environ.get("GITHUB_SERVER_URL") or "https://github.com").rstrip("/")
    m = _FETCHED.search(path)
    if m is None or not _SERVER.fullmatch(server):
        return None
    owner, repo, ref = m.groups()
    return f"{server}/{owner}/{repo}/tree/{ref}#readme"


def set_outputs(values: dict) -> None:
    path = os.environ.get("GITHUB_OUTPUT")
    if not path:
        return
    with open(path, "a", encoding="utf-8") as fh:
        for k, v in values.items():
            fh.write(f"{k}={v}\n")


def append_summary(text: str) -> None:
    path = os.environ.get("GITHUB_STEP_SUMMARY")
    if path:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(text if text.endswith("\n") else text + "\n")


def probe(command: str, snapshot: str, versions: list[str] = (), config: str = "", obj: dict | None = None,
          extra: list[str] = ()) -> int:
    """Run ``mcplint probe --save SNAPSHOT [--protocol-version V]... -- CMD`` (or, when
    ``command`` is ``--from CONFIG``, every server of that configuration); its report is
    shown only on failure. ``protocol-versions`` narrows the probe as well as the lint: a
    server is then asked only under those versions, as ``mcplint probe --protocol-version``
    asks it, so the snapshot holds what the lint step checks."""
    from .cli import COMMANDS
    from .precommit import run_quietly

    if "probe" not in COMMANDS:
        print(workflow_command("error", "this mcplint has no `probe` command", "mcplint"))
        return 2
    opts = [a for v in versions for a in ("--protocol-version", v)] + (["--config", config] if config else [])
    opts += list(extra)
    if obj is None:  # one server
        target, where, what = ["--", *shlex.split(command)], f"-- {command}", f"the server `{command}`"
    else:  # --from CONFIG
        target, where, what = ["--from", command], f"--from {command}", f"the servers of `{command}`"
    print(workflow_command("group", f"mcplint probe --save {snapshot} {shlex.join(opts) + ' ' if opts else ''}{where}"))
    code, out, err = run_quietly(["probe", "--save", snapshot, *opts, *target], obj)
    print("::endgroup::")
    if code >= 2 and (obj is None or "probe_from" not in obj or code >= 3):
        from .textsafe import lines

        sys.stdout.write(out)  # (mcplint's report: its formats make the input inert)
        sys.stdout.write(lines(err))  # (its errors quote the server's stderr)
        print(workflow_command("error", f"could not probe {what} (exit {code})", "mcplint probe"))
    return code


def probe_from(config_file: str, snapshot: str, servers: list[str], profiles: list[str]):
    """``probe-from``: (exit code, saved captures, the rest of ``probe --from``'s result: servers
    it could not probe, findings of one that listed nothing; see :mod:`mcplint.precommit`)."""
    from .precommit import split_probe_from

    obj: dict = {}
    extra = [a for n in servers for a in ("--server", n)] + [a for p in profiles for a in ("--profile", p)]
    # the configuration may come from a pull request: expand only the variables the workflow names
    extra += ["--env-expansion", "allowed"] + [a for n in words(env("ALLOW_ENV")) for a in ("--allow-env", n)]
    code = probe(config_file, snapshot, words(env("PROTOCOL_VERSIONS")), env("CONFIG"), obj=obj, extra=extra)
    if "probe_from" not in obj or code >= 3:
        return max(code, 2), [], None, []
    saved, rest = split_probe_from(obj["probe_from"])
    return code, saved, rest, list(obj["probe_from"].profiles)


def check_inputs() -> None:
    """Inputs the command line would refuse (click choices) are refused here too, never dropped."""
    from .errors import ConfigError
    from .model import Severity
    from .versions import VERSIONS

    for v in words(env("PROTOCOL_VERSIONS")):
        if v not in VERSIONS:
            raise ConfigError(f"unknown protocol version {v!r}", origin="input protocol-versions",
                              expected=", ".join(VERSIONS))
    factory = env("SERVER_FACTORY")
    if factory and not all(part.isidentifier() for part in factory.split(".")):
        raise ConfigError(f"{factory!r} is not the name of a function", origin="input server-factory",
                          expected="a name such as build_server")
    if env("FAIL_ON"):
        try:
            Severity.parse(env("FAIL_ON"))
        except ValueError as e:
            raise ConfigError(str(e), origin="input fail-on") from None
    refuse_untrusted_code()


# events whose workflow runs with the base repository's secrets and token though what it checks
# out may be a pull request's: GitHub's "Keeping your GitHub Actions and workflows secure:
# Preventing pwn requests" (securitylab.github.com, 2021)
PRIVILEGED_EVENTS = ("pull_request_target", "workflow_run")


def refuse_untrusted_code() -> None:
    """Starting a server (``probe-command``, ``probe-from``) or importing a Python server file
    runs the checkout's code: under a privileged event it is refused unless ``run-untrusted``."""
    from .errors import ConfigError
    from .load import py_target

    event = os.environ.get("GITHUB_EVENT_NAME", "")
    if event not in PRIVILEGED_EVENTS or env("RUN_UNTRUSTED").lower() in TRUE:
        return
    runs = [f"`{k}`" for k in ("probe-command", "probe-from") if env(k.upper().replace("-", "_"))]
    runs += ["Python server files in `paths`"] if any(py_target(p) for p in words(env("PATHS"))) else []
    if runs:
        raise ConfigError(f"{' and '.join(runs)} would run code from the checkout in a `{event}` workflow, which "
                          "has this repository's secrets and a token that can write; set `run-untrusted: true` "
                          "only if the checkout is trusted (not a pull request's head)", origin="input run-untrusted")


def refuse(e, outputs: dict) -> int:
    """An input mcplint refuses: an annotation, the summary and the exit-code output say so."""
    from .textsafe import md_text

    print(workflow_command("error", str(e), "mcplint"))
    append_summary(f"## mcplint\n\n⛔ {md_text(str(e))}\n")
    set_outputs({**outputs, "exit-code": e.exit_code})
    return e.exit_code


class Stop(Exception):
    """The run ends before the lint with ``code`` (what to say has been said)."""

    def __init__(self, code: int):
        super().__init__(code)
        self.code = code


def stop(outputs: dict, code: int, summary: str | None = None, error: str | None = None) -> Stop:
    """End the run with ``code``: an error annotation and a summary first, when given."""
    if error is not None:
        print(workflow_command("error", error, "mcplint"))
    if summary is not None:
        append_summary(f"## mcplint\n\n⛔ {summary}\n")
    set_outputs({**outputs, "exit-code": code})
    return Stop(code)


def checked_inputs(outputs: dict) -> None:
    """:func:`check_inputs`, an input it refuses ending the run (:func:`refuse`)."""
    from .errors import McplintError

    try:
        check_inputs()
    except McplintError as e:
        raise Stop(refuse(e, outputs)) from None


def probed_from(config_file: str, command: str, snapshot: str, profiles: list[str], outputs: dict) -> tuple:
    """``probe-from``: (the captures it saved, the rest of its result, the profiles to lint them with)."""
    from .errors import ConfigError
    from .textsafe import md_code

    if command:
        raise Stop(refuse(ConfigError("give `probe-command` (one server) or `probe-from` (the servers of a "
                                      "client's configuration), not both", origin="input probe-from"), outputs))
    checked_inputs(outputs)
    code, saved, rest, client_profiles = probe_from(config_file, snapshot, words(env("PROBE_SERVERS")), profiles)
    if rest is None:
        raise stop(outputs, code, f"Could not probe the servers of {md_code(config_file)} (exit {code}).")
    return saved, rest, profiles or client_profiles  # the client's own, as probe --from lints with


def probed_command(command: str, snapshot: str, outputs: dict) -> None:
    """``probe-command``: the server's capture saved to ``snapshot``."""
    from .textsafe import md_code

    checked_inputs(outputs)  # (before the probe, which takes the same protocol versions)
    code = probe(command, snapshot, words(env("PROTOCOL_VERSIONS")), env("CONFIG"))
    if code >= 2:
        raise stop(outputs, code, f"Could not probe the server {md_code(command)} (exit {code}).")


def targets(outputs: dict) -> tuple:
    """What the run lints, from the inputs, probing first when asked: (paths, profiles, the rest
    of ``probe-from``'s result or None)."""
    from .errors import EXIT_INPUT

    paths = [workspace_relative(p) for p in words(env("PATHS"))]
    command, config_file = env("PROBE_COMMAND"), env("PROBE_FROM")
    snapshot = env("SNAPSHOT") or ("mcp-tools" if config_file else "mcp-tools.json")
    profiles, rest = words(env("PROFILES")), None
    if config_file:
        saved, rest, profiles = probed_from(config_file, command, snapshot, profiles, outputs)
        paths += saved
    elif env("PROBE_SERVERS"):
        raise stop(outputs, EXIT_INPUT, error="`probe-servers` goes with `probe-from`")
    if command:
        probed_command(command, snapshot, outputs)
        paths.append(snapshot)
    if not paths and rest is None:
        raise stop(outputs, EXIT_INPUT, error="nothing to lint: set `paths`, `probe-command` or `probe-from`")
    return paths, profiles, rest


def configuration(profiles: list[str]):
    """The run's :class:`~mcplint.config.Config`, from the inputs (as ``mcplint scan``'s options)."""
    from .cli.common import build_config

    check_inputs()
    config = build_config(protocol_versions=tuple(words(env("PROTOCOL_VERSIONS"))),
                          profiles=tuple(profiles), fail_on=env("FAIL_ON") or None,
                          config_path=env("CONFIG") or None, server_name=env("SERVER_NAME") or None)
    config = config.with_overrides(python=env("SERVER_PYTHON") or None, factory=env("SERVER_FACTORY") or None)
    return config.with_overrides(python=config.python or "python3")  # `server-python`, the config's, python3


def lint(paths: list[str], profiles: list[str], rest, outputs: dict) -> tuple:
    """(the result, the configuration): the orchestrator's scan, with the baseline when given."""
    from .errors import McplintError
    from .pipeline import scan
    from .textsafe import inline

    try:
        config = configuration(profiles)
        # probe-from: servers not probed (input errors), or that listed nothing to save
        result = scan(paths, config, unsaved=rest)
        baseline = env("BASELINE")
        if baseline:
            from .baseline import apply

            applied = apply(baseline, result)
            print(inline(f"mcplint: baseline {baseline}: {applied.matched} known findings not reported"))
    except McplintError as e:
        raise Stop(refuse(e, outputs)) from None
    return result, config


def report(result, config, outputs: dict) -> int:
    """Every output of the run (annotations, notes, SARIF, summary, ``$GITHUB_OUTPUT``); the exit code."""
    from .model import Severity
    from .pipeline import exit_code
    from .report import Options, render
    from .textsafe import inline

    sarif = outputs["sarif-file"]
    shown = Options(show_info=config.fail_on <= Severity.INFO)  # information one line per rule, unless it fails the run
    if env("ANNOTATIONS", "true").lower() in TRUE:
        sys.stdout.write(render("github", result, shown))  # (the inputs that could not be read among them)
    else:
        for err in result.errors:
            print(workflow_command("error", str(err), "mcplint input error"))
    for note in result.notes:  # about the run (modules passed over, unused suppressions): on the run's log
        print(workflow_command("warning", inline(note), "mcplint"))
    if sarif:
        Path(sarif).parent.mkdir(parents=True, exist_ok=True)
        from .atomicio import write_atomic

        write_atomic(sarif, render("sarif", result, Options(information_uri=action_homepage())))
    if env("SUMMARY", "true").lower() in TRUE:
        append_summary(render("markdown", result, shown))
    code = exit_code(result, config)
    set_outputs({**outputs, "exit-code": code, "findings": len(result.findings),
                 "errors": result.count(Severity.ERROR), "warnings": result.count(Severity.WARNING),
                 "infos": result.count(Severity.INFO)})
    print(render("text", result, Options(color=False)).splitlines()[-1])
    return code


def main() -> int:
    """The run: inputs -> (probe) -> configuration -> the orchestrator's scan -> every output."""
    outputs: dict = {"sarif-file": env("SARIF")}
    try:
        paths, profiles, rest = targets(outputs)
        result, config = lint(paths, profiles, rest, outputs)
    except Stop as e:
        return e.code
    return report(result, config, outputs)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
