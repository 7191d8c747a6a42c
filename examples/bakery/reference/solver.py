"""The bakery (examples/bakery) as the codegen rules teach a program: pyoptinterface over HiGHS.

It reads data.json and writes what every LP/MILP program writes: model.mps (rows named after the statement they
encode), output.json (the SNOP's output_format) and solution.json (status, objective, the value of each model
variable by its name)."""

import json
import os

import pyoptinterface as poi
from pyoptinterface import highs

d = json.load(open("data.json"))
highs.autoload_library()
m = highs.Model()
m.set_model_attribute(poi.ModelAttribute.Silent, True)
loaves = m.add_variable(lb=0, domain=poi.VariableDomain.Integer, name="loaves")  # s1
cakes = m.add_variable(lb=0, domain=poi.VariableDomain.Integer, name="cakes")  # s1
m.add_linear_constraint(d["oven_loaf"] * loaves + d["oven_cake"] * cakes, poi.Leq, d["oven_minutes"], name="s3_oven")
m.add_linear_constraint(d["flour_loaf"] * loaves + d["flour_cake"] * cakes, poi.Leq, d["flour_kg"], name="s4_flour")
m.add_linear_constraint(1.0 * cakes, poi.Leq, d["max_cakes"], name="s5_cafe")
m.set_objective(d["profit_loaf"] * loaves + d["profit_cake"] * cakes, poi.ObjectiveSense.Maximize)  # s2
m.write("model.mps")

for variable, parameter, cast in (("OPTIMUS_TIME_LIMIT", "time_limit", float),
                                  ("OPTIMUS_MIP_GAP", "mip_rel_gap", float), ("OPTIMUS_THREADS", "threads", int)):
    if os.environ.get(variable):  # the user's solver options, each only when set
        m.set_raw_parameter(parameter, cast(os.environ[variable]))
m.optimize()

T = poi.TerminationStatusCode
term = m.get_model_attribute(poi.ModelAttribute.TerminationStatus)
status = {T.OPTIMAL: "optimal", T.INFEASIBLE: "infeasible", T.DUAL_INFEASIBLE: "unbounded",
          T.TIME_LIMIT: "time_limit"}.get(term, "error")
found = m.get_model_attribute(poi.ModelAttribute.PrimalStatus) == poi.ResultStatusCode.FEASIBLE_POINT
solution, output = {"status": status, "objective": None}, {}
if status in ("optimal", "time_limit") and found:
    profit = m.get_model_attribute(poi.ModelAttribute.ObjectiveValue)
    solution.update(objective=profit, values={"loaves": m.get_value(loaves), "cakes": m.get_value(cakes)})
    output = {"loaves": round(m.get_value(loaves)), "cakes": round(m.get_value(cakes)), "profit": profit}
json.dump(solution, open("solution.json", "w"), indent=1)
json.dump(output, open("output.json", "w"), indent=1)
