"""Writes every planning benchmark folder from the definitions in planning/_domains/, deterministically.

    .venv/bin/python planning/_make.py          # (re)write planning/<domain>-<n>/ and <domain>-unsolvable/

Per folder: domain.pddl (the expert's, one text per domain), snop.json, data.json, reference/problem.pddl,
reference/plan.json (a plan built by the domain's own constructive procedure, not by a planner),
reference/formulation.md, tests/test_<domain>.py, and example/ in the first folder of each domain.
expected.json is not written here: `python -m optimus.bench.groundtruth.pddl planning --write` computes it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from _domains import DOMAINS  # planning/ is on sys.path: it holds this script (tests put it there to import)

HERE = Path(__file__).resolve().parent


def snop(dom, inst) -> dict:
    return {
        "name": f"{dom.NAME} {inst.name}",
        "problem_type": "PLANNING",
        "problem_info": [dom.WORDS, *inst.statements],
        "input_format": dom.INPUT_FORMAT,
        "objective": "Minimize the number of actions in the plan.",
        "output_info": [("\\var{plan} is the sequence of actions, each an action name of the domain with its "
                        "arguments in the domain's parameter order."),
                        "\\var{length} is the number of actions in the plan.",
                        "\\var{optimal} is true when the planner proved no shorter plan exists."],
        "output_format": '{"plan": [{"action": str, "args": [str, ...]}], "length": int, "optimal": bool}',
        "solver": "pddl",
    }


def files(dom, inst, first: bool) -> dict[str, str]:
    """Every file of the instance's folder, by its path in the folder, as written (tests compare the folders)."""
    out = {"domain.pddl": dom.DOMAIN, "snop.json": json.dumps(snop(dom, inst), indent=2),
           "data.json": json.dumps(inst.data, indent=2), "reference/problem.pddl": inst.problem_pddl,
           "reference/formulation.md": inst.formulation, f"tests/test_{dom.NAME.replace('-', '_')}.py": inst.tests}
    if inst.plan is not None:
        out["reference/plan.json"] = json.dumps(
            {"plan": [{"action": a, "args": list(args)} for a, *args in inst.plan]}, indent=2)
    if first:
        out["example/problem.nl"], out["example/problem.pddl"] = dom.EXAMPLE
    return {rel: text if text.endswith("\n") else text + "\n" for rel, text in out.items()}


def make_folder(dom, inst, first: bool) -> Path:
    folder = HERE / f"{dom.NAME}-{inst.name}"
    (folder / "reference" / "plan.json").unlink(missing_ok=True)
    for rel, text in files(dom, inst, first).items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text)
    return folder


def main() -> int:
    for dom in DOMAINS:
        instances = dom.instances()
        for i, inst in enumerate(instances):
            print(make_folder(dom, inst, first=i == 0).relative_to(HERE.parent))
    return 0


if __name__ == "__main__":
    sys.exit(main())
