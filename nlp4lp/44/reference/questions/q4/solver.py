"""Reference solver for nlp4lp/44 (print shop week): whole batches of each product under press hours and ink,
standing orders and paper, at most profit after rent; a MILP in pyoptinterface over records-shaped data (a list of
products, each an object of its fields); the question's variant: two batches of posters forced.

HiGHS solves it; OPTIMUS_SOLVER=CBC (python -m optimus.bench.groundtruth.lp) has the cbc binary PuLP ships solve the
same model.mps instead, the second way of the ground truth."""

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pyoptinterface as poi
from pyoptinterface import highs


def key(*parts) -> str:
    """A model name from data keys: letters, digits and underscores only."""
    return "_".join(re.sub(r"\W", "_", str(p)) for p in parts)


def solve_with_cbc() -> tuple[str, dict]:
    """cbc on model.mps (it skips OBJSENSE: -max says the sense): its status and its values by column name."""
    from pulp.apis import coin_api

    bundled = getattr(coin_api, "pulp_cbc_path", "")  # the binary PuLP ships; else a cbc on PATH (pulp[cbc])
    cbc = bundled if os.path.isfile(bundled) else shutil.which("cbc")
    subprocess.run([cbc, "model.mps", "-max", "-solve", "-solution", "cbc.txt"], check=True, capture_output=True)
    lines = Path("cbc.txt").read_text().splitlines()
    status = {"Optimal": "optimal", "Infeasible": "infeasible", "Integer": "infeasible",
              "Unbounded": "unbounded"}.get(lines[0].split()[0], "error")
    rows = (line.replace("**", " ").split() for line in lines[1:])  # "**" marks a value breaking its bounds
    return status, {p[1]: float(p[2]) for p in rows if len(p) >= 3}


d = json.loads(Path("data.json").read_text())
products = d["products"]
highs.autoload_library()
m = highs.Model()
m.set_model_attribute(poi.ModelAttribute.Silent, True)
# s1, s5: whole batches, between the standing orders and the paper the merchant supplies
batches = [m.add_variable(domain=poi.VariableDomain.Integer, lb=p["min_batches"], ub=p["max_batches"],
                          name=key("batches", p["name"])) for p in products]
m.add_linear_constraint(poi.quicksum(p["press_hours"] * x for p, x in zip(products, batches)), poi.Leq,
                        d["press_hours_available"], name="s3_press")
m.add_linear_constraint(poi.quicksum(p["ink_litres"] * x for p, x in zip(products, batches)), poi.Leq,
                        d["ink_available"], name="s4_ink")
m.add_linear_constraint(1.0 * batches[1], poi.Geq, 2, name="s7_why_not_posters")  # the question
# s2; s6's rent is a constant: kept out of the model, in solution.json as objective_constant
m.set_objective(poi.quicksum(p["profit"] * x for p, x in zip(products, batches)), poi.ObjectiveSense.Maximize)
m.write("model.mps")

if os.environ.get("OPTIMUS_SOLVER", "HIGHS").upper() == "CBC":
    status, by_name = solve_with_cbc()
    values = {m.get_variable_name(x): by_name.get(m.get_variable_name(x), 0.0) for x in batches}
else:
    for variable, parameter, cast in (("OPTIMUS_TIME_LIMIT", "time_limit", float),
                                      ("OPTIMUS_MIP_GAP", "mip_rel_gap", float), ("OPTIMUS_THREADS", "threads", int)):
        if os.environ.get(variable):  # the user's solver options, each only when set
            m.set_raw_parameter(parameter, cast(os.environ[variable]))
    m.optimize()
    T = poi.TerminationStatusCode
    term = m.get_model_attribute(poi.ModelAttribute.TerminationStatus)
    status = {T.OPTIMAL: "optimal", T.INFEASIBLE: "infeasible", T.DUAL_INFEASIBLE: "unbounded",
              T.INFEASIBLE_OR_UNBOUNDED: "infeasible", T.TIME_LIMIT: "time_limit"}.get(term, "error")
    found = m.get_model_attribute(poi.ModelAttribute.PrimalStatus) == poi.ResultStatusCode.FEASIBLE_POINT
    values = {m.get_variable_name(x): m.get_value(x) for x in batches} if found else {}
solution, output = {"status": status, "objective": None, "objective_constant": -d["weekly_rent"]}, {}
if status in ("optimal", "time_limit") and values:
    made = {p["name"]: round(values[key("batches", p["name"])]) for p in products}
    profit = sum(p["profit"] * made[p["name"]] for p in products) - d["weekly_rent"]  # s6
    solution.update(objective=profit, values=values)
    output = {"batches": [{"name": p["name"], "batches": made[p["name"]]} for p in products], "profit": profit}
Path("solution.json").write_text(json.dumps(solution, indent=1))
Path("output.json").write_text(json.dumps(output, indent=1))
