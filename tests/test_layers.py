"""The house's structure as tests: three layers and independent families (import-linter's contracts in
pyproject.toml), every family a folder the registry knows, and the schema naming exactly those families."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from optimus.core import families

REPO = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


@pytest.mark.skipif(not LINT_IMPORTS.exists(), reason="import-linter is in the test extra: pip install '.[test]'")
def test_the_import_contracts_hold():
    proc = subprocess.run([str(LINT_IMPORTS), "--no-cache"], check=False, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "3 kept, 0 broken" in proc.stdout


def test_a_core_module_that_imports_a_command_breaks_the_layers_contract(tmp_path):
    # The contract can fail: a copy of the package with one upward import is caught.
    if not LINT_IMPORTS.exists():
        pytest.skip("import-linter is in the test extra")
    copy = tmp_path / "repo"
    copy.mkdir()
    shutil.copytree(REPO / "optimus", copy / "optimus", ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "pyproject.toml").write_text((REPO / "pyproject.toml").read_text())
    bad = copy / "optimus" / "core" / "report.py"
    bad.write_text(bad.read_text() + "\nfrom optimus.commands import solve  # noqa: E402, F401\n")
    proc = subprocess.run([str(LINT_IMPORTS), "--no-cache"], check=False, cwd=copy, capture_output=True, text=True, timeout=300,
                          env={"PYTHONPATH": str(copy), "PATH": str(LINT_IMPORTS.parent)})
    assert proc.returncode != 0 and "optimus.core.report -> optimus.commands.solve" in proc.stdout, proc.stdout[-2000:]


def test_every_family_is_a_folder_and_the_schema_names_exactly_the_registered_ones():
    root = Path(families.__file__).parent
    folders = sorted(p.name for p in root.iterdir() if (p / "__init__.py").is_file())
    assert folders == sorted(families.NAMES)
    schema = json.loads((REPO / "optimus" / "core" / "schemas" / "snop.schema.json").read_text())
    enum = set(schema["properties"]["solver"]["enum"])
    assert enum == {"ANY", *families.NAMES, *families.ALIASES}
    assert all(families.load(name).name == name for name in families.NAMES)
