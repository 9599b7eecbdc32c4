"""What other tools read: the version, the pre-commit hooks, the code-scanning workflow."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import yaml
from typer.testing import CliRunner

import mapkit
from mapkit.cli import app

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def test_version_is_the_package_version() -> None:
    res = runner.invoke(app, ["--version"])
    assert (res.exit_code, res.output) == (0, f"mapkit {mapkit.__version__}\n")
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'dynamic = ["version"]' in pyproject
    assert 'path = "mapkit/__init__.py"' in pyproject


def test_help_offers_shell_completion() -> None:
    res = runner.invoke(app, ["--help"])
    assert "--install-completion" in res.output and "--show-completion" in res.output


def _run_entry(entry: str, files: list[str]) -> int:
    command, *args = shlex.split(entry)
    assert command == "mapkit"
    return runner.invoke(app, [*args, *files]).exit_code


def test_pre_commit_hooks_run_validate_on_the_files_given() -> None:
    hooks = {h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    assert set(hooks) == {"mapkit-validate", "mapkit-validate-strict"}
    for hook in hooks.values():
        assert hook["language"] == "python" and hook["types"] == ["json"]
    good, broken = "maps/berlin.json", "examples/broken/REF001.json"
    warning_only = "examples/broken/DES003.json"
    lenient, strict = hooks["mapkit-validate"]["entry"], hooks["mapkit-validate-strict"]["entry"]
    assert _run_entry(lenient, [str(ROOT / good)]) == 0
    assert _run_entry(lenient, [str(ROOT / good), str(ROOT / broken)]) == 1
    assert _run_entry(lenient, [str(ROOT / warning_only)]) == 0
    assert _run_entry(strict, [str(ROOT / warning_only)]) == 1


def test_code_scanning_example_uploads_the_sarif_validate_writes() -> None:
    flow = yaml.safe_load((ROOT / "docs" / "examples" / "github-code-scanning.yml").read_text())
    assert flow["permissions"]["security-events"] == "write"
    (job,) = flow["jobs"].values()
    steps = job["steps"]
    (validate,) = [s for s in steps if s.get("id") == "validate"]
    command, _, sarif_file = validate["run"].partition(" > ")
    (upload,) = [s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload")]
    assert upload["with"]["sarif_file"] == sarif_file
    args = shlex.split(command.replace("$MAPS", job["env"]["MAPS"]))
    maps = sorted(str(p) for p in ROOT.glob(args[-1]))
    res = runner.invoke(app, [*args[1:-1], *maps])
    assert res.exit_code == 0, res.output
    sarif = json.loads(res.output)
    assert sarif["version"] == "2.1.0" and sarif["runs"][0]["results"] == []
