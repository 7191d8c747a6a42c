"""Writes the multi-step llmfp/ folders (blocks, mystery, gripper, gripper2, household): the kind's SNOP, Z3 reference,
formulation, tests and validate/domain.pddl (copied from its first folder, llmfp/<kind>-1, where they are edited), the
instance's data.json (instances.py) and validate/problem.pddl (written from data.json below: the harness's
semantics of the same start and goal). wrong_output.json is the shortest Z3 plan with two neighbouring steps
swapped (or one dropped) so that a precondition fails. expected.json is not written here:
`python -m optimus.bench.groundtruth.plans llmfp --write` computes it two ways.

    .venv/bin/python llmfp/_plans/build.py [KIND or FOLDER...]
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from optimus.bench.groundtruth.pddl import shortest_plan_length, simulate

HERE = Path(__file__).resolve().parent
LLMFP = HERE.parent
INCREMENTAL = "reference/solver_incremental.py"
BFS_STATES = 400_000  # gripper2-3 visits about 100 000 states; the ground truth CLI needs --bfs-states as well


def problem_text(domain: str, name: str, objects: dict[str, list[str]], init: list[str], goal: list[str]) -> str:
    objs = " ".join(" ".join(v) + f" - {t}" for t, v in objects.items())
    return (f"(define (problem {name})\n  (:domain {domain})\n  (:objects {objs})\n"
            "  (:init\n    " + "\n    ".join(init) + ")\n"
            "  (:goal (and\n    " + "\n    ".join(goal) + ")))\n")


def pddl_blocks(data: dict, name: str, keys=("blocks", "init_on", "goal_on"), table="table",
                preds=("on", "ontable", "clear", "holding", "handempty"), domain="toy-blocks", kind="block") -> str:
    on, ontable, clear, _, handempty = preds
    names, init_on, goal_on = (data[k] for k in keys)
    init = [f"({handempty})"]
    init += [f"({ontable} {b})" if w == table else f"({on} {b} {w})" for b, w in zip(names, init_on)]
    init += [f"({clear} {b})" for b in names if b not in init_on]
    goal = [f"({ontable} {u})" if lo == table else f"({on} {u} {lo})" for u, lo in goal_on]
    return problem_text(domain, name, {kind: names}, init, goal)


def pddl_mystery(data: dict, name: str) -> str:
    return pddl_blocks(data, name, keys=("motes", "init_skels", "goal_skels"), table="floon",
                       preds=("skels", "floony", "brindled", "harbours", "vacant"), domain="mote-shuffle",
                       kind="mote")


def pddl_gripper(data: dict, name: str) -> str:
    init = [f"(robot-in {data['robot_start']})"] + [f"(empty {h})" for h in data["hands"]]
    for a, b in data["passages"]:
        init += [f"(passage {a} {b})", f"(passage {b} {a})"]
    init += [f"(stands {e} {r})" for e, r in zip(data["exhibits"], data["exhibit_start"])]
    goal = [f"(stands {e} {r})" for e, r in data["goal_in"]]
    return problem_text("museum-porter", name, {"hall": data["halls"], "exhibit": data["exhibits"],
                                                "hand": data["hands"]}, init, goal)


def pddl_gripper2(data: dict, name: str) -> str:
    init = [f"(at {r} {w})" for r, w in zip(data["robots"], data["robot_start"])]
    init += [f"(free {r} {a})" for r in data["robots"] for a in data["arms"]]
    for a, b in data["corridors"]:
        init += [f"(corridor {a} {b})", f"(corridor {b} {a})"]
    init += [f"(lies {x} {w})" for x, w in zip(data["trays"], data["tray_start"])]
    goal = [f"(lies {x} {w})" for x, w in data["goal_in"]]
    return problem_text("courier-pair", name, {"ward": data["wards"], "tray": data["trays"], "robot": data["robots"],
                                               "arm": data["arms"]}, init, goal)


def pddl_household(data: dict, name: str) -> str:
    init = [f"(robot-at {data['robot_start']})", "(handempty)"]
    for p, box, tap, is_open in zip(data["places"], data["container"], data["tap"], data["start_open"]):
        init += [f"(container {p})"] if box else []
        init += [f"(tap {p})"] if tap else []
        init += [f"(reachable {p})"] if not box or is_open else []
        init += ([f"(door-open {p})"] if is_open else [f"(door-closed {p})"]) if box else []
    for i, p, c in zip(data["items"], data["item_start"], data["start_clean"]):
        init += [f"(at {i} {p})", f"(clean {i})" if c else f"(dirty {i})"]
    goal = [f"(at {i} {p})" for i, p in data["goal_at"]] + [f"(clean {i})" for i in data["goal_clean"]]
    goal += [f"(door-closed {p})" for p in data["goal_closed"]]
    return problem_text("kitchen-tidy", name, {"place": data["places"], "item": data["items"]}, init, goal)


def load_instances():
    spec = importlib.util.spec_from_file_location("llmfp_plans_instances", HERE / "instances.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return {"blocks": (module.BLOCKS, pddl_blocks), "mystery": (module.MYSTERY, pddl_mystery),
            "gripper": (module.GRIPPER, pddl_gripper),
            "gripper2": (module.GRIPPER2, pddl_gripper2), "household": (module.HOUSEHOLD, pddl_household)}


def write(kind: str, name: str, data: dict, pddl) -> Path:
    folder, first = LLMFP / name, LLMFP / f"{kind}-1"
    for sub in ("reference", "tests", "validate"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    shared = ("snop.json", "reference/formulation.md", "reference/solver.py", f"tests/test_{kind}.py",
              "validate/domain.pddl")
    for rel in shared if folder != first else ():
        shutil.copy(first / rel, folder / rel)
    if folder != first and (first / INCREMENTAL).is_file():  # the kind's program on the incremental contract
        shutil.copy(first / INCREMENTAL, folder / INCREMENTAL)
    (folder / "data.json").write_text(json.dumps(data, indent=2) + "\n")
    (folder / "validate" / "problem.pddl").write_text(pddl(data, name))
    return folder


def z3_plan(folder: Path, horizon: int) -> list[dict]:
    with tempfile.TemporaryDirectory(prefix="llmfp-plans-") as tmp:
        shutil.copy(folder / "data.json", tmp)
        subprocess.run([sys.executable, str(folder / "reference" / "solver.py"), str(horizon)], cwd=tmp, check=True,
                       timeout=300)
        return json.loads(Path(tmp, "output.json").read_text())["plan"]


def write_wrong_output(folder: Path, length: int) -> str:
    """The Z3 plan with two neighbouring steps swapped (else one dropped) so that a step cannot be done."""
    plan = z3_plan(folder, length)
    domain, problem = folder / "validate" / "domain.pddl", folder / "validate" / "problem.pddl"
    swapped = [plan[:i] + [plan[i + 1], plan[i]] + plan[i + 2:] for i in range(len(plan) - 1)]
    for wrong in swapped + [plan[:i] + plan[i + 1:] for i in range(len(plan))]:
        why = simulate(domain, problem, wrong)
        if why and "not applicable" in why:
            (folder / "reference" / "wrong_output.json").write_text(json.dumps({"plan": wrong}, indent=1) + "\n")
            return why
    raise SystemExit(f"{folder}: no plan that breaks a precondition found")


def main(only: list[str]) -> None:
    for kind, (instances, pddl) in load_instances().items():
        for name, data in instances.items():
            if only and kind not in only and name not in only:
                continue
            folder = write(kind, name, data, pddl)
            length = shortest_plan_length(folder / "validate" / "domain.pddl", folder / "validate" / "problem.pddl",
                                          BFS_STATES)
            (folder / "reference" / "wrong_output.json").unlink(missing_ok=True)
            why = write_wrong_output(folder, length) if length else "unsat: no wrong_output.json"
            print(f"{name}: shortest plan {length} (BFS); wrong_output: {why}")


if __name__ == "__main__":
    main(sys.argv[1:])
