"""Writes the multi-constraint llmfp/ folders: one folder per instance, holding the kind's SNOP, references and
tests (copied from its first folder, llmfp/<kind>-1, where they are edited) and the instance's data.json (from
<kind>/data.py here, deterministic). wrong_output.json is the optimum of a model that forgets one statement
(data.py says which). expected.json is not written here: `python -m optimus.bench.groundtruth.z3 llmfp --write`
computes it two ways. `--table` rewrites the problem table in llmfp/README.md from every llmfp/ folder
(multi-step ones too).

    .venv/bin/python llmfp/_make/build.py [KIND...]
    .venv/bin/python llmfp/_make/build.py --table
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from optimus.bench.groundtruth.z3 import SECOND_WAYS

HERE = Path(__file__).resolve().parent
LLMFP = HERE.parent
KINDS = ("supply", "rota", "depots", "makespan", "picking")


def load(kind: str):
    spec = importlib.util.spec_from_file_location(f"llmfp_{kind}_data", HERE / kind / "data.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def solve(kind: str, data: dict) -> dict:
    """output.json of the kind's Z3 reference on `data`."""
    with tempfile.TemporaryDirectory(prefix="llmfp-build-") as tmp:
        (Path(tmp) / "data.json").write_text(json.dumps(data))
        subprocess.run([sys.executable, str(LLMFP / f"{kind}-1" / "reference" / "solver.py")], cwd=tmp, check=True,
                       timeout=300)
        return json.loads((Path(tmp) / "output.json").read_text())


def build(kind: str) -> list[str]:
    first, module = LLMFP / f"{kind}-1", load(kind)
    snop = json.loads((first / "snop.json").read_text())
    shared = [rel for rel in ("snop.json", f"tests/test_{kind}.py", "reference/formulation.md", "reference/solver.py",
                              *(f"reference/{f}" for f in SECOND_WAYS)) if (first / rel).exists()]
    written = []
    for name, data in module.INSTANCES.items():
        folder = LLMFP / name
        (folder / "reference").mkdir(parents=True, exist_ok=True)
        (folder / "tests").mkdir(exist_ok=True)
        for rel in shared if folder != first else []:
            shutil.copy(first / rel, folder / rel)
        (folder / "data.json").write_text(json.dumps(data, indent=1) + "\n")
        core = module.CORES.get(name)
        if core:
            quoted = [snop["problem_info"][k - 1] for k in core]
            (folder / "reference" / "core.json").write_text(
                json.dumps({"statements": core, "quoted": quoted}, indent=2, ensure_ascii=False) + "\n")
        else:
            wrong = module.wrong(name, data, solve(kind, data), lambda d: solve(kind, d))
            (folder / "reference" / "wrong_output.json").write_text(json.dumps(wrong, indent=1) + "\n")
        written.append(name)
    return written


def table() -> str:
    """The README's problem table: one row per llmfp/ folder, from its SNOP and expected.json."""
    rows = ["| folder | name | type | expected (sense, objective) | extras |", "| --- | --- | --- | --- | --- |"]
    folders = [p for p in LLMFP.iterdir() if (p / "snop.json").exists()]
    for folder in sorted(folders, key=lambda p: (p.name.split("-")[0], p.name.endswith("unsat"), p.name)):
        snop = json.loads((folder / "snop.json").read_text())
        expected = json.loads((folder / "expected.json").read_text()) if (folder / "expected.json").exists() else {}
        status = expected.get("status", "-")
        if status == "optimal":
            status += f" ({expected['sense']} {expected['objective']:g})"
        ref, extras = folder / "reference", []
        if (ref / "core.json").exists():
            extras.append("core " + ", ".join(f"s{k}" for k in json.loads((ref / "core.json").read_text())["statements"]))
        extras += [what for file, what in [("wrong_output.json", "wrong_output"), ("solver_pulp.py", "PuLP"),
                                           ("solver_brute.py", "enumeration")] if (ref / file).exists()]
        extras += ["validate/ PDDL"] if (folder / "validate").is_dir() else []
        rows.append(f"| {folder.name} | {snop.get('name', '')} | {snop['problem_type']} | {status} | {', '.join(extras)} |")
    return "\n".join(rows)


def write_table() -> None:
    readme = LLMFP / "README.md"
    text = readme.read_text()
    start, end = "<!-- problem-table:start -->\n", "<!-- problem-table:end -->"
    head, rest = text.split(start)
    readme.write_text(head + start + table() + "\n" + end + rest.split(end)[1])


if __name__ == "__main__":
    if sys.argv[1:] == ["--table"]:
        write_table()
    else:
        for kind in sys.argv[1:] or KINDS:
            print(kind, ", ".join(build(kind)))
