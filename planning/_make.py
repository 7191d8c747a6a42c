"""Writes every planning benchmark folder from the definitions in planning/_domains/, deterministically.

    .venv/bin/python planning/_make.py          # (re)write planning/<domain>-<n>/ and <domain>-unsolvable/

Per folder: domain.pddl (the expert's, one text per domain), snop.json, data.json, reference/problem.pddl,
reference/plan.json (a plan built by the domain's own constructive procedure, not by a planner),
reference/formulation.md, tests/test_<domain>.py, and example/ in the first folder of each domain.
expected.json is not written here: `python -m optimus.groundtruth_pddl planning --write` computes it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _domains import DOMAINS


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text if text.endswith("\n") else text + "\n")


def write_json(path: Path, value) -> None:
    write(path, json.dumps(value, indent=2))


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


def make_folder(dom, inst, first: bool) -> Path:
    folder = HERE / f"{dom.NAME}-{inst.name}"
    write(folder / "domain.pddl", dom.DOMAIN)
    write_json(folder / "snop.json", snop(dom, inst))
    write_json(folder / "data.json", inst.data)
    write(folder / "reference" / "problem.pddl", inst.problem_pddl)
    write(folder / "reference" / "formulation.md", inst.formulation)
    plan_path = folder / "reference" / "plan.json"
    if inst.plan is None:
        plan_path.unlink(missing_ok=True)
    else:
        write_json(plan_path, {"plan": [{"action": a, "args": list(args)} for a, *args in inst.plan]})
    write(folder / "tests" / f"test_{dom.NAME.replace('-', '_')}.py", inst.tests)
    if first:
        nl, pddl = dom.EXAMPLE
        write(folder / "example" / "problem.nl", nl)
        write(folder / "example" / "problem.pddl", pddl)
    return folder


def main() -> int:
    for dom in DOMAINS:
        instances = dom.instances()
        for i, inst in enumerate(instances):
            print(make_folder(dom, inst, first=i == 0).relative_to(HERE.parent))
    return 0


if __name__ == "__main__":
    sys.exit(main())
